import { AdbDriver } from '@apex/driver-adb';
import { AppiumDriver } from '@apex/driver-appium';
import { WdaDriver } from '@apex/driver-wda';
import { parseConfig } from './config';
import { addressOf, hostPort, lockTargetOf, mjpegUrlOf, registrationFor } from './drivers';

const config = parseConfig({
  devices: [
    { id: 'direct', driver: 'wda', url: 'http://127.0.0.1:8100', timeouts: { actionMs: 5000 } },
    {
      id: 'via-agent-url',
      driver: 'appium',
      serverUrl: 'http://127.0.0.1:4723',
      capabilities: { platformName: 'iOS', 'appium:udid': 'u1', 'appium:webDriverAgentUrl': 'http://127.0.0.1:8100' },
    },
    { id: 'via-udid', driver: 'appium', serverUrl: 'http://127.0.0.1:4723', capabilities: { platformName: 'iOS', 'appium:udid': 'u2' } },
    { id: 'android', driver: 'appium', serverUrl: 'http://127.0.0.1:4723', capabilities: { platformName: 'Android' } },
  ],
});
const [direct, viaAgentUrl, viaUdid, android] = config.devices as [
  (typeof config.devices)[number],
  (typeof config.devices)[number],
  (typeof config.devices)[number],
  (typeof config.devices)[number],
];

describe('drivers for device entries', () => {
  it('builds the driver each entry names, with its platform and limits', () => {
    const wda = registrationFor(direct);
    expect(wda.driver).toBeInstanceOf(WdaDriver);
    expect(wda.actionTimeoutMs).toBe(5000);
    const viaServer = registrationFor(viaUdid);
    expect(viaServer.driver).toBeInstanceOf(AppiumDriver);
    expect(viaServer.driver.platform).toBe('ios');
    expect(registrationFor(android).driver.platform).toBe('android');
    expect(addressOf(viaUdid)).toBe('http://127.0.0.1:4723');
  });

  it('gives a wda entry a screen stream only when configured: mjpegPort on the server host, or mjpegUrl', () => {
    const [byPort, byUrl] = parseConfig({
      devices: [
        { id: 'p', driver: 'wda', url: 'http://10.0.0.5:8100', mjpegPort: 9100 },
        { id: 'u', driver: 'wda', url: 'http://10.0.0.5:8100', mjpegUrl: 'http://127.0.0.1:19100' },
      ],
    }).devices;
    expect(byPort.driver === 'wda' && mjpegUrlOf(byPort)).toBe('http://10.0.0.5:9100');
    expect(byUrl.driver === 'wda' && mjpegUrlOf(byUrl)).toBe('http://127.0.0.1:19100');
    expect(direct.driver === 'wda' && mjpegUrlOf(direct)).toBeUndefined();
    expect(typeof registrationFor(byPort).driver.stream).toBe('function');
    expect(registrationFor(direct).driver.stream).toBeUndefined();
  });

  it("gives a wda entry with a simulator UDID the simulator's host abilities, and no other entry", () => {
    const [sim] = parseConfig({ devices: [{ id: 's', driver: 'wda', url: 'http://127.0.0.1:8100', simulator: '8A1B3C4D-1111-2222-3333-444455556666' }] }).devices;
    for (const ability of ['installApp', 'uninstallApp', 'resetApp', 'setPermission', 'biometric', 'pushNotification', 'addMedia'] as const) {
      expect({ ability, sim: typeof registrationFor(sim).driver[ability], plain: typeof registrationFor(direct).driver[ability] }).toEqual({ ability, sim: 'function', plain: 'undefined' });
    }
    expect(() => parseConfig({ devices: [{ id: 's', driver: 'wda', url: 'http://127.0.0.1:8100', simulator: 'booted' }] })).toThrow(/devices\.0\.simulator/);
  });

  it('reads apps.allowedRoots, refusing an empty list', () => {
    expect(parseConfig({ devices: [{ id: 'd', driver: 'wda', url: 'http://127.0.0.1:8100' }], apps: { allowedRoots: ['/builds'] } }).apps).toEqual({ allowedRoots: ['/builds'] });
    expect(() => parseConfig({ devices: [{ id: 'd', driver: 'wda', url: 'http://127.0.0.1:8100' }], apps: { allowedRoots: [] } })).toThrow(/apps\.allowedRoots/);
  });

  it('locks the phone, not the server: the agent URL when known, else the server plus the udid or id', () => {
    expect(lockTargetOf(direct)).toEqual({ url: 'http://127.0.0.1:8100' });
    expect(lockTargetOf(viaAgentUrl)).toEqual(lockTargetOf(direct));
    expect(lockTargetOf(viaUdid)).toEqual({ url: 'http://127.0.0.1:4723', phone: 'u2' });
    expect(lockTargetOf(android)).toEqual({ url: 'http://127.0.0.1:4723', phone: 'android' });
  });

  it('builds the ADB driver for an adb entry, and locks the adbd or the serial behind its server', () => {
    const [serial, tcp, wifi] = parseConfig({
      devices: [
        { id: 'pixel', driver: 'adb', serial: 'emulator-5554' },
        { id: 'tcp', driver: 'adb', host: '192.168.1.20:5555', adbServer: '[::1]:5038' },
        { id: 'wifi', driver: 'adb', host: '192.168.1.21:5555' },
      ],
    }).devices as [(typeof config.devices)[number], (typeof config.devices)[number], (typeof config.devices)[number]];
    const registration = registrationFor(serial);
    expect(registration.driver).toBeInstanceOf(AdbDriver);
    expect(registration.driver.platform).toBe('android');
    expect(addressOf(serial)).toBe('adb://127.0.0.1:5037/emulator-5554');
    expect(addressOf(tcp)).toBe('adb://[::1]:5038/192.168.1.20:5555');
    expect(lockTargetOf(serial)).toEqual({ url: 'http://127.0.0.1:5037', phone: 'emulator-5554' });
    expect(lockTargetOf(tcp)).toEqual({ url: 'http://192.168.1.20:5555' });
    // `host` without a server: straight to the phone's adbd, locked as the same phone.
    expect(addressOf(wifi)).toBe('adb://192.168.1.21:5555');
    expect(lockTargetOf(wifi)).toEqual({ url: 'http://192.168.1.21:5555' });
    expect(hostPort('[::1]:5038')).toEqual({ host: '::1', port: 5038 });
  });
});
