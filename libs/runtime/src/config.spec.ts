import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApexError } from '@apex/errors';
import { loadConfig, parseConfig } from './config';
import { thrownBy } from '@apex/errors/testing';


describe('configuration', () => {
  it('accepts the documented shape', () => {
    const config = parseConfig({
      devices: [
        {
          id: 'iphone-a',
          name: 'My iPhone',
          driver: 'wda',
          url: 'http://127.0.0.1:8100',
          timeouts: { actionMs: 15000, connectMs: 3000 },
          shared: false,
        },
      ],
      dataDir: '/tmp/apex',
    });
    expect(config.devices[0]).toMatchObject({ id: 'iphone-a', driver: 'wda', url: 'http://127.0.0.1:8100' });
  });

  it('takes the cluster settings of forwarding, and a listAll node with no phone of its own', () => {
    const config = parseConfig({
      devices: [],
      cluster: { listAll: true, token: 'the-cluster-token', url: 'http://10.0.0.5:3000', forwardTimeoutMs: 30_000 },
    });
    expect(config.cluster).toEqual({ listAll: true, token: 'the-cluster-token', url: 'http://10.0.0.5:3000', forwardTimeoutMs: 30_000 });
    const error = thrownBy(() => parseConfig({ devices: [], cluster: { listAll: 'yes', token: '', url: 'ftp://x', forwardTimeoutMs: 5 } })) as ApexError;
    expect(error.issues?.map((i) => i.path).sort()).toEqual(['cluster.forwardTimeoutMs', 'cluster.listAll', 'cluster.token', 'cluster.url']);
    // Without listAll a node still needs phones of its own.
    expect(() => parseConfig({ devices: [], cluster: { leaseMs: 15_000 } })).toThrow(/devices: must list at least one device/);
  });

  it('checks the screen stream settings field by field', () => {
    const error = thrownBy(() =>
      parseConfig({
        devices: [
          { id: 'a', driver: 'wda', url: 'http://127.0.0.1:8100', mjpegPort: 0 },
          { id: 'b', driver: 'wda', url: 'http://127.0.0.1:8101', mjpegUrl: 'ftp://x' },
          { id: 'c', driver: 'wda', url: 'http://127.0.0.1:8102', mjpegPort: 9100, mjpegUrl: 'http://127.0.0.1:9100' },
        ],
      }),
    ) as ApexError;
    expect(error.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['devices.0.mjpegPort', 'devices.1.mjpegUrl']));
    expect(thrownBy(() => parseConfig({ devices: [{ id: 'c', driver: 'wda', url: 'http://127.0.0.1:8102', mjpegPort: 9100, mjpegUrl: 'http://127.0.0.1:9100' }] })).message).toMatch(
      /devices\.0\.mjpegUrl: give mjpegUrl or mjpegPort, not both/,
    );
  });

  it('reports each problem by its path', () => {
    const error = thrownBy(() =>
      parseConfig({
        devices: [
          { id: 'iphone-a', driver: 'wda', url: 'not a url' },
          { id: 'bad id!', driver: 'wda', url: 'http://10.0.0.2:8100', timeouts: { actionMs: -1 } },
          { id: 'iphone-a', driver: 'wda', url: 'ftp://x' },
          { id: 'c', driver: 'telepathy' },
        ],
        extra: true,
      }),
    );
    expect(error.code).toBe('invalid_argument');
    const paths = error.issues?.map((i) => i.path) ?? [];
    expect(paths).toEqual(
      expect.arrayContaining(['devices.0.url', 'devices.1.id', 'devices.1.timeouts.actionMs', 'devices.2.url', 'devices.3.driver', 'extra']),
    );
    expect(error.issues?.find((i) => i.path === 'devices.0.url')?.message).toBe('Invalid URL');
    expect(error.message).toMatch(/devices\.0\.url: Invalid URL/);
  });

  it('accepts an appium entry and reports its problems by path', () => {
    const config = parseConfig({
      devices: [
        {
          id: 'iphone-b',
          driver: 'appium',
          serverUrl: 'http://127.0.0.1:4723',
          capabilities: { platformName: 'iOS', 'appium:udid': '00008110-000A', 'appium:webDriverAgentUrl': 'http://127.0.0.1:8100' },
          timeouts: { actionMs: 20000, sessionStartMs: 180000 },
        },
      ],
    });
    expect(config.devices[0]).toMatchObject({ id: 'iphone-b', driver: 'appium', serverUrl: 'http://127.0.0.1:4723' });
    const error = thrownBy(() =>
      parseConfig({
        devices: [
          { id: 'a', driver: 'appium', serverUrl: 'nope', capabilities: { platformName: 'Symbian' } },
          { id: 'b', driver: 'appium', serverUrl: 'http://127.0.0.1:4723' },
          { id: 'c', driver: 'appium', serverUrl: 'http://127.0.0.1:4723', capabilities: { platformName: 'android' }, url: 'x' },
        ],
      }),
    );
    expect(error.issues?.map((i) => i.path)).toEqual(
      expect.arrayContaining(['devices.0.serverUrl', 'devices.0.capabilities', 'devices.1.capabilities', 'devices.2.url']),
    );
    expect(error.issues?.find((i) => i.path === 'devices.0.capabilities')?.message).toMatch(/platformName/);
  });

  it('accepts an adb entry by serial or by host, and reports its problems by path', () => {
    const config = parseConfig({
      devices: [
        { id: 'pixel', driver: 'adb', serial: 'emulator-5554' },
        { id: 'tcp', driver: 'adb', host: '192.168.1.20:5555', adbServer: '127.0.0.1:5038', timeouts: { actionMs: 20000 } },
      ],
    });
    expect(config.devices.map((d) => d.driver)).toEqual(['adb', 'adb']);
    const error = thrownBy(() =>
      parseConfig({
        devices: [
          { id: 'a', driver: 'adb' },
          { id: 'b', driver: 'adb', serial: 'x', host: '10.0.0.1:5555' },
          { id: 'c', driver: 'adb', host: '10.0.0.1' },
          { id: 'd', driver: 'adb', serial: 'emulator-5554', adbServer: '127.0.0.1:70000' },
          { id: 'e', driver: 'adb', serial: 'a b; reboot' },
          { id: 'f', driver: 'adb', serial: 'emulator-5554', url: 'http://x' },
        ],
      }),
    );
    expect(error.issues?.map((i) => i.path)).toEqual(
      expect.arrayContaining(['devices.0.serial', 'devices.1.serial', 'devices.2.host', 'devices.3.adbServer', 'devices.4.serial', 'devices.5.url']),
    );
    expect(error.issues?.find((i) => i.path === 'devices.2.host')?.message).toMatch(/HOST:PORT/);
  });

  it('takes a shared PostgreSQL task store and lease settings, and names what is wrong with them', () => {
    const devices = [{ id: 'a', driver: 'wda', url: 'http://127.0.0.1:8100' }];
    const config = parseConfig({ devices, tasks: { store: { postgres: 'postgres://apex:pw@db:5432/apex' } }, cluster: { leaseMs: 2000, renewMs: 250 } });
    expect(config).toMatchObject({ tasks: { store: { postgres: 'postgres://apex:pw@db:5432/apex' } }, cluster: { leaseMs: 2000, renewMs: 250 } });
    const error = thrownBy(() =>
      parseConfig({ devices, tasks: { store: { postgres: 'mysql://db/apex' } }, cluster: { leaseMs: 10, extra: 1 } }),
    ) as ApexError;
    expect(error.issues?.map((i) => i.path).sort()).toEqual(['cluster.extra', 'cluster.leaseMs', 'tasks.store.postgres']);
  });

  it('rejects duplicate ids and an empty device list', () => {
    const duplicate = thrownBy(() =>
      parseConfig({
        devices: [
          { id: 'a', driver: 'wda', url: 'http://127.0.0.1:1' },
          { id: 'a', driver: 'wda', url: 'http://127.0.0.1:2' },
        ],
      }),
    );
    expect(duplicate.issues).toEqual([{ path: 'devices.1.id', message: 'duplicate id "a"' }]);
    expect(thrownBy(() => parseConfig({ devices: [] })).issues?.[0]?.path).toBe('devices');
  });

  it('takes a defaultDevice among the devices, and refuses one that is not', () => {
    const devices = [
      { id: 'a', driver: 'wda', url: 'http://127.0.0.1:1' },
      { id: 'b', driver: 'adb', host: '127.0.0.1:5555' },
    ];
    expect(parseConfig({ devices, defaultDevice: 'b' }).defaultDevice).toBe('b');
    expect(thrownBy(() => parseConfig({ devices, defaultDevice: 'c' })).issues).toEqual([
      { path: 'defaultDevice', message: '"c" is not one of the devices (a, b)' },
    ]);
    // A grid's phones are discovered later: not checked here.
    expect(parseConfig({ grids: [{ id: 'lab', url: 'http://127.0.0.1:4444' }], defaultDevice: 'u1' }).defaultDevice).toBe('u1');
  });

  describe('files', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'apex-config-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('reads a file, and explains a missing file or bad JSON', async () => {
      const good = path.join(dir, 'good.json');
      await writeFile(good, JSON.stringify({ devices: [{ id: 'a', driver: 'wda', url: 'http://127.0.0.1:8100' }] }));
      expect((await loadConfig(good)).devices).toHaveLength(1);

      const missing = await loadConfig(path.join(dir, 'nope.json')).catch((e: ApexError) => e);
      expect(missing).toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/does not exist/) });

      const broken = path.join(dir, 'broken.json');
      await writeFile(broken, '{"devices": [');
      const bad = await loadConfig(broken).catch((e: ApexError) => e);
      expect(bad).toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/not valid JSON/) });
    });
  });
});
