import { AppiumDriver } from '@apex/driver-appium';
import { WdaDriver } from '@apex/driver-wda';
import { parseConfig } from './config';
import { addressOf, lockTargetOf, registrationFor } from './drivers';

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

  it('locks the phone, not the server: the agent URL when known, else the server plus the udid or id', () => {
    expect(lockTargetOf(direct)).toEqual({ url: 'http://127.0.0.1:8100' });
    expect(lockTargetOf(viaAgentUrl)).toEqual(lockTargetOf(direct));
    expect(lockTargetOf(viaUdid)).toEqual({ url: 'http://127.0.0.1:4723', phone: 'u2' });
    expect(lockTargetOf(android)).toEqual({ url: 'http://127.0.0.1:4723', phone: 'android' });
  });
});
