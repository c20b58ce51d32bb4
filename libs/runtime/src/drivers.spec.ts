import { AppiumDriver } from '@apex/driver-appium';
import { WdaDriver } from '@apex/driver-wda';
import { parseConfig } from './config';
import { addressOf, lockTargetOf, mjpegUrlOf, registrationFor } from './drivers';

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

  it('locks the phone, not the server: the agent URL when known, else the server plus the udid or id', () => {
    expect(lockTargetOf(direct)).toEqual({ url: 'http://127.0.0.1:8100' });
    expect(lockTargetOf(viaAgentUrl)).toEqual(lockTargetOf(direct));
    expect(lockTargetOf(viaUdid)).toEqual({ url: 'http://127.0.0.1:4723', phone: 'u2' });
    expect(lockTargetOf(android)).toEqual({ url: 'http://127.0.0.1:4723', phone: 'android' });
  });
});
