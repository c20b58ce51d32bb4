import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApk } from '@apex/apk/testing';
import { createAdbDriver, type AdbDriver } from '@apex/driver-adb';
import { ApexError } from '@apex/errors';
import type { AppBuild } from '@apex/port';
import { eventually } from '@apex/testing';
import { createVirtualAndroid, startAdbd, type Adbd, type VirtualAndroid } from '@apex/virtual-device';

/**
 * The install → uninstall part of the developer's loop, and a push, over the DIRECT transport: driver-adb
 * straight to the virtual adbd in front of the virtual Android phone, no adb server. The APK goes on `exec:`'s
 * stdin as WRTEs each acknowledged before the next, the photo as `sync:` requests; a hanging install ends on the
 * phone with its caller's signal. (`apps-loop.real-adb.spec.ts` runs the whole loop through a real adb server.)
 */

const APP = 'com.example.apexdirect';
const live = (): AbortSignal => AbortSignal.timeout(20_000);
const never = new AbortController().signal;

async function failure(promise: Promise<unknown>): Promise<ApexError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApexError) return error;
    throw new Error(`not an ApexError: ${String(error)}`);
  }
  throw new Error('resolved');
}

describe('the developer’s loop over the direct transport (no adb server), on the virtual Android phone', () => {
  let android: VirtualAndroid;
  let adbd: Adbd;
  let driver: AdbDriver;
  let dir: string;
  let build: AppBuild;
  const commands: string[] = [];
  /** Commands (by prefix) whose session hangs until the host closes its stream; the aborted ones are recorded. */
  const hang = { prefix: '', aborted: [] as string[] };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'apex-driver-direct-loop-'));
    const path = join(dir, 'direct-demo.apk');
    await writeFile(path, buildTestApk({ appId: APP, label: 'Direct Demo', versionName: '1.0.0', versionCode: 1 }));
    build = { path, kind: 'apk', appId: APP, name: 'Direct Demo', version: '1.0.0' };
    android = createVirtualAndroid();
    const shell = android.backend.shell;
    adbd = await startAdbd({
      backend: {
        ...android.backend,
        shell: async (session) => {
          commands.push(session.command);
          if (hang.prefix && session.command.startsWith(hang.prefix)) {
            await new Promise<void>((resolve) => session.signal.addEventListener('abort', () => resolve(), { once: true }));
            hang.aborted.push(session.command);
            return 1;
          }
          return shell(session);
        },
      },
      host: '127.0.0.1',
      extraFeatures: ['cmd'],
    });
    driver = createAdbDriver({ deviceId: 'pixel', device: { host: adbd.serial } });
  });

  afterAll(async () => {
    await driver?.close(never);
    await adbd?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('installs (streamed on the command’s stdin), replaces, lists, launches and uninstalls, all over one connection', async () => {
    expect(await driver.appState(APP, live())).toBe('notInstalled');
    expect(await driver.installApp(build, live())).toEqual({ replaced: false });
    expect(commands).toContainEqual(expect.stringMatching(/^cmd package install -r -t -S \d+$/));
    expect(android.phone.app(APP)?.label).toBe('Direct Demo');
    expect((await driver.listApps(live())).apps).toContainEqual(expect.objectContaining({ appId: APP }));
    expect(await driver.installApp(build, live())).toEqual({ replaced: true });
    await driver.launchApp(APP, live());
    expect(await driver.appState(APP, live())).toBe('foreground');
    await driver.uninstallApp(APP, live());
    expect(await driver.appState(APP, live())).toBe('notInstalled');
    expect(android.phone.app(APP)).toBeUndefined();
    expect(adbd.connectionCount()).toBe(1);
  });

  it('streams a build the size of a real one (5 MB) through the flow control', async () => {
    const big = join(dir, 'big.apk');
    await writeFile(big, buildTestApk({ appId: 'com.example.bigdirect', label: 'Big Direct', paddingBytes: 5 * 1024 * 1024 }));
    expect(await driver.installApp({ ...build, path: big, appId: 'com.example.bigdirect', name: 'Big Direct' }, live())).toEqual({ replaced: false });
    expect(android.phone.app('com.example.bigdirect')?.label).toBe('Big Direct');
    await driver.uninstallApp('com.example.bigdirect', live());
    expect(android.phone.app('com.example.bigdirect')).toBeUndefined();
  });

  it('refuses what is not an installable APK, and an unknown app to uninstall', async () => {
    const junk = join(dir, 'junk.apk');
    await writeFile(junk, 'this is not an apk\n');
    const notApk = await failure(driver.installApp({ ...build, path: junk, appId: 'com.example.junk', name: 'Junk' }, live()));
    expect(notApk.code).toBe('invalid_argument');
    expect(notApk.message).toMatch(/does not accept the build as an app/);
    expect((await failure(driver.uninstallApp('com.example.nothere', live()))).code).toBe('app_not_found');
  });

  it('pushes a photo (several sync chunks) to shared storage; a refused push is device_error', async () => {
    const photo = join(dir, 'Lake.png');
    const bytes = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(300 * 1024, 9)]);
    await writeFile(photo, bytes);
    await driver.addMedia({ path: photo, kind: 'photo' }, live());
    expect(Buffer.from(android.backend.files.read('/sdcard/Pictures/Lake.png') ?? []).equals(bytes)).toBe(true);
    android.backend.files.write('/sdcard/Pictures/blocked.png/inside.txt', Buffer.from('x'), 0o644, 0);
    const blocked = join(dir, 'blocked.png');
    await writeFile(blocked, Buffer.from('89504e470d0a1a0a', 'hex'));
    const refused = await failure(driver.addMedia({ path: blocked, kind: 'photo' }, live()));
    expect(refused.code).toBe('device_error');
    expect(refused.message).toBe('Device pixel refused the file Apex sent to add the photo to the gallery.');
    // The connection survives a refused push.
    expect((await driver.status(live())).platform).toBe('android');
    expect(adbd.connectionCount()).toBe(1);
  });

  it('an install the phone never answers ends when the caller gives up, and the phone’s session ends with it', async () => {
    hang.prefix = 'cmd package install';
    const controller = new AbortController();
    const pending = failure(driver.installApp(build, controller.signal));
    await eventually(() => commands[commands.length - 1]?.startsWith('cmd package install') ?? false, { timeoutMs: 10_000, what: 'the install to reach the phone' });
    controller.abort();
    expect((await pending).code).toBe('device_timeout');
    await eventually(() => hang.aborted.length === 1, { timeoutMs: 10_000, what: 'the phone’s install session to be ended' });
    hang.prefix = '';
    // The stream ended, not the connection.
    expect(await driver.appState(APP, live())).toBe('notInstalled');
    expect(adbd.connectionCount()).toBe(1);
  });
});
