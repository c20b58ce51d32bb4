import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { deviceStatus, tap } from '@apex/hub';
import type { UiNode } from '@apex/port';
import { createLogger, createRuntime, EMBEDDED_ANDROID_ID, EMBEDDED_DEVICE_ID, type Runtime } from '@apex/runtime';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { rejectionOf } from '@apex/errors/testing';

const quietLogger = createLogger({ level: 'silent' });

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('runtime', () => {
  let dir: string;
  let iphone: VirtualIPhone;
  const opened: Runtime[] = [];

  async function open(options: Parameters<typeof createRuntime>[0]): Promise<Runtime> {
    const runtime = await createRuntime({ env: {}, dataDir: path.join(dir, 'data'), logger: quietLogger, ...options });
    opened.push(runtime);
    return runtime;
  }

  async function writeConfig(name: string, config: unknown): Promise<string> {
    const file = path.join(dir, name);
    await writeFile(file, JSON.stringify(config));
    return file;
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'apex-runtime-'));
    iphone = await startVirtualIPhone({ port: 0 });
  });
  afterEach(async () => {
    for (const runtime of opened.splice(0)) await runtime.close();
  });
  afterAll(async () => {
    await iphone.close();
    await rm(dir, { recursive: true, force: true });
  });

  function find(node: UiNode, label: string): UiNode | undefined {
    if (node.label === label) return node;
    for (const child of node.children) {
      const found = find(child, label);
      if (found) return found;
    }
    return undefined;
  }

  it('without a configuration, runs the virtual iPhone and Android phone through the drivers real phones use', async () => {
    const runtime = await open({});
    expect(runtime.embedded).toBeDefined();
    expect(runtime.devices).toEqual([
      expect.objectContaining({ id: EMBEDDED_DEVICE_ID, name: 'Virtual iPhone', driver: 'wda', embedded: true, url: runtime.embedded?.url }),
      expect.objectContaining({ id: EMBEDDED_ANDROID_ID, name: 'Virtual Android', driver: 'adb', embedded: true, url: `adb://${runtime.embeddedAndroid?.adbd.serial}` }),
    ]);
    expect(runtime.hub.list()).toEqual([
      { id: EMBEDDED_DEVICE_ID, name: 'Virtual iPhone', platform: 'ios', state: 'online' },
      { id: EMBEDDED_ANDROID_ID, name: 'Virtual Android', platform: 'android', state: 'online' },
    ]);
    // A call that names no device goes to the iPhone, as when it was the only phone.
    expect(runtime.hub.resolve()).toBe(EMBEDDED_DEVICE_ID);
    expect(await deviceStatus(runtime.hub, EMBEDDED_DEVICE_ID)).toMatchObject({ state: 'online', platform: 'ios', name: 'Virtual iPhone' });
    expect(await deviceStatus(runtime.hub, EMBEDDED_ANDROID_ID)).toMatchObject({ state: 'online', platform: 'android', osVersion: '14' });
  });

  it('taps on each embedded phone: the tapped icon opens its app', async () => {
    const runtime = await open({});
    for (const [id, label] of [
      [EMBEDDED_DEVICE_ID, 'Settings'],
      [EMBEDDED_ANDROID_ID, 'Settings'],
    ] as const) {
      const tree = await runtime.hub.run(id, 'read the tree', (driver, signal) => driver.uiTree(signal), { slow: true });
      const icon = find(tree, label);
      if (!icon) throw new Error(`no ${label} icon on ${id}`);
      await tap(runtime.hub, id, { x: icon.bounds.x + icon.bounds.width / 2, y: icon.bounds.y + icon.bounds.height / 2 });
    }
    expect(runtime.embedded?.phone.activeApp().bundleId).toBe('com.apple.Preferences');
    expect(runtime.embeddedAndroid?.android.phone.focus().pkg).toBe('com.android.settings');
  });

  it('closes the embedded phones with the runtime', async () => {
    const runtime = await createRuntime({ env: {}, dataDir: path.join(dir, 'data'), logger: quietLogger });
    const url = runtime.embedded?.url as string;
    const adbd = runtime.embeddedAndroid?.adbd;
    await runtime.close();
    await expect(fetch(`${url}/status`)).rejects.toThrow();
    const { connect } = await import('node:net');
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: adbd?.port as number });
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });

  it('uses a configured device, from --config or APEX_CONFIG, with its timeouts', async () => {
    const file = await writeConfig('one.json', {
      devices: [{ id: 'iphone-a', name: 'My iPhone', driver: 'wda', url: iphone.url, timeouts: { actionMs: 5000, connectMs: 1000 } }],
    });
    const runtime = await open({ env: { APEX_CONFIG: file } });
    expect(runtime.embedded).toBeUndefined();
    expect(runtime.hub.list()).toEqual([{ id: 'iphone-a', name: 'My iPhone', platform: 'ios', state: 'online' }]);
    expect((await deviceStatus(runtime.hub, 'iphone-a')).osVersion).toBe(iphone.phone.profile.osVersion);
  });

  it('reports every configuration problem by its path', async () => {
    const file = await writeConfig('bad.json', {
      devices: [{ id: 'iphone-a', driver: 'wda', url: 'not-a-url', timeouts: { actionMs: 'slow' } }],
    });
    const error = await rejectionOf(open({ configPath: file }));
    expect(error.code).toBe('invalid_argument');
    expect(error.issues).toEqual(
      expect.arrayContaining([
        { path: 'devices.0.url', message: 'Invalid URL' },
        expect.objectContaining({ path: 'devices.0.timeouts.actionMs' }),
      ]),
    );
  });

  it('gives a device to one runtime: a second lists it busy with its owner, answers device_busy, and takes it over once the first closes', async () => {
    const file = await writeConfig('owned.json', { devices: [{ id: 'iphone-a', driver: 'wda', url: iphone.url }] });
    const lease = { leaseMs: 1_000, renewMs: 100 };
    const first = await open({ configPath: file, lease });
    const second = await open({ configPath: file, lease });
    expect(second.hub.list()).toEqual([
      expect.objectContaining({ id: 'iphone-a', state: 'busy', owner: { pid: process.pid, host: os.hostname(), since: first.lease.instance.since } }),
    ]);
    const error = await rejectionOf(tap(second.hub, 'iphone-a', { x: 10, y: 300 }));
    expect(error.code).toBe('device_busy');
    expect(error.message).toContain(`pid ${process.pid}`);
    expect(error.message).toContain('iphone-a');
    await tap(first.hub, 'iphone-a', { x: 10, y: 300 });
    await first.close();
    await until(() => second.hub.summary('iphone-a').state === 'online', 'the take-over');
    await tap(second.hub, 'iphone-a', { x: 10, y: 300 });
  });

  it('lets several runtimes share a device marked shared', async () => {
    const file = await writeConfig('shared.json', { devices: [{ id: 'iphone-s', driver: 'wda', url: iphone.url, shared: true }] });
    const first = await open({ configPath: file });
    const second = await open({ configPath: file });
    expect(first.devices[0].shared).toBe(true);
    expect(second.devices[0].shared).toBe(true);
  });
});
