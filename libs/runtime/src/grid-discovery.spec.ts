import { createServer } from 'node:http';
import { DeviceHub } from '@apex/hub';
import { deviceIdOf, GridDiscovery } from './grid-discovery';
import { parseConfig } from './config';
import { createLogger } from './logger';

describe('device lab ids and configuration', () => {
  it('names a phone by its udid, made a valid device id', () => {
    expect(deviceIdOf('lab', { 'appium:udid': '00008110-001A2B3C' })).toBe('00008110-001A2B3C');
    expect(deviceIdOf('lab', { udid: 'emulator 5554' })).toBe('emulator-5554');
  });

  it('names a phone without udid by a stable hash of its stereotype (key order does not matter)', () => {
    const a = deviceIdOf('lab', { platformName: 'iOS', 'appium:deviceName': 'iPhone 15' });
    expect(a).toMatch(/^lab-[0-9a-f]{12}$/);
    expect(deviceIdOf('lab', { 'appium:deviceName': 'iPhone 15', platformName: 'iOS' })).toBe(a);
    expect(deviceIdOf('lab', { platformName: 'iOS', 'appium:deviceName': 'iPhone 14' })).not.toBe(a);
  });

  it('accepts a configuration with grids and no devices, and checks grid fields', () => {
    const config = parseConfig({ grids: [{ id: 'lab', url: 'http://127.0.0.1:4444', match: { platformName: 'iOS' } }] });
    expect(config.devices).toEqual([]);
    expect(config.grids[0]).toMatchObject({ id: 'lab', url: 'http://127.0.0.1:4444' });
    expect(() => parseConfig({})).toThrow(/devices: must list at least one device \(or a grid, or say "discover": true, or "cluster": \{"listAll": true\}\)/);
    expect(() => parseConfig({ grids: [{ id: 'lab', url: 'ftp://x' }, { id: 'lab', url: 'http://127.0.0.1:4444', refreshMs: 1 }] })).toThrow(
      /grids\.0\.url.*grids\.1\.refreshMs|grids\.1\.refreshMs.*grids\.0\.url/,
    );
  });
});

/**
 * A stand-in for a Selenium Grid 4.48 hub (its `GET /status` shape as the real jar answers it, trimmed) that
 * records the session requests it is sent and refuses them as an empty queue would: enough to see how each
 * slot's stereotype becomes a device and the capabilities its sessions ask for.
 */
async function standInHub(slots: Record<string, unknown>[]): Promise<{ url: string; sessionRequests: unknown[]; close(): Promise<void> }> {
  const sessionRequests: unknown[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (req.method === 'GET' && req.url === '/status') {
        res.end(
          JSON.stringify({
            value: {
              ready: true,
              nodes: slots.map((stereotype, i) => ({ id: `node-${i}`, availability: 'UP', slots: [{ id: { hostId: `node-${i}`, id: `slot-${i}` }, session: null, stereotype }] })),
            },
          }),
        );
        return;
      }
      if (req.method === 'POST' && req.url === '/session') sessionRequests.push(JSON.parse(body));
      res.statusCode = 500;
      res.end(JSON.stringify({ value: { error: 'session not created', message: 'Could not start a new session. New session request timed out' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, sessionRequests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('device lab stereotypes → devices', () => {
  const ios = { platformName: 'IOS', 'appium:automationName': 'XCUITest', 'appium:udid': '00008110-001A2B3C', 'appium:deviceName': 'Lab iPhone' };
  // What an Appium UiAutomator2 relay node advertises (the hub upper-cases platformName, as it does for iOS).
  const android = { platformName: 'ANDROID', 'appium:automationName': 'UiAutomator2', 'appium:udid': 'emulator-5554', 'appium:deviceName': 'Lab Pixel' };

  it('maps an Android (UiAutomator2) slot as it maps an iOS one: id from the udid, name, platform, and sessions that ask for that phone', async () => {
    const stand = await standInHub([ios, android]);
    const hub = new DeviceHub({ backgroundProbes: false });
    const added: { id: string; name: string }[] = [];
    const grid = parseConfig({ grids: [{ id: 'lab', url: stand.url, capabilities: { 'appium:newCommandTimeout': 300 } }] }).grids[0];
    const discovery = new GridDiscovery({ grid, hub, logger: createLogger({ level: 'silent' }), env: {}, onAdded: (d) => added.push(d) });
    try {
      await discovery.refresh();
      expect(hub.list()).toEqual([
        { id: '00008110-001A2B3C', name: 'Lab iPhone', platform: 'ios', state: 'online' },
        { id: 'emulator-5554', name: 'Lab Pixel', platform: 'android', state: 'online' },
      ]);
      expect(added.map((d) => d.id)).toEqual(['00008110-001A2B3C', 'emulator-5554']);
      // A call opens a session through the hub with the slot's stereotype (and the grid's capabilities).
      const refused = await hub.run('emulator-5554', 'read the status', (driver, signal) => driver.status(signal)).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'device_busy' }); // the stand-in's queue timed out: another client holds the phone
      expect(stand.sessionRequests).toEqual([
        {
          capabilities: {
            alwaysMatch: { ...android, 'appium:newCommandTimeout': 300 },
            firstMatch: [{}],
          },
        },
      ]);
    } finally {
      await discovery.close();
      await hub.close();
      await stand.close();
    }
  });

  it('keeps only the Android slots when the grid matches platformName Android (case-insensitively)', async () => {
    const stand = await standInHub([ios, android, { ...android, 'appium:udid': '192.168.1.20:5555', 'appium:deviceName': 'Wi-Fi Pixel' }]);
    const hub = new DeviceHub({ backgroundProbes: false });
    const grid = parseConfig({ grids: [{ id: 'lab', url: stand.url, match: { platformName: 'Android', 'appium:automationName': 'uiautomator2' } }] }).grids[0];
    const discovery = new GridDiscovery({ grid, hub, logger: createLogger({ level: 'silent' }), env: {} });
    try {
      await discovery.refresh();
      expect(hub.list().map((d) => [d.id, d.platform])).toEqual([
        ['emulator-5554', 'android'],
        ['192.168.1.20-5555', 'android'],
      ]);
    } finally {
      await discovery.close();
      await hub.close();
      await stand.close();
    }
  });
});
