import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApk } from '@apex/apk/testing';
import { createAdbDriver, type AdbDriver } from '@apex/driver-adb';
import { ApexError, LEAKY_WORDS } from '@apex/errors';
import type { AppBuild, UiNode } from '@apex/port';
import { eventually } from '@apex/testing';
import { createVirtualAndroid, startAdbd, type Adbd, type VirtualAndroid } from '@apex/virtual-device';
import { describeWithRealAdb, startRealAdbServer, type RealAdbServer } from '@apex/virtual-device/testing';

/**
 * The developer's loop through Apex's ADB driver: a real adb server (Debian's adb, private port) connected to the
 * virtual adbd in front of the virtual Android phone, with an APK built at test time. The first case is the
 * whole loop as the MCP/REST operations will run it (install → launch → permission dialog → grant → relaunch
 * without a dialog → location → background → state → reset → uninstall); the others are the contract of each
 * port member, failures included.
 */

const APP = 'com.example.apexloop';
const live = (): AbortSignal => AbortSignal.timeout(20_000);
/** Driver words no error may show: the one list, plus Android's class and permission names and the launcher tool. */
const LEAKS = new RegExp(`${LEAKY_WORDS.source}|com\\.android\\.[A-Za-z]+\\.[A-Z]|android\\.permission|android\\.intent|monkey|\\bpm\\b|INSTALL_|DELETE_FAILED`, 'i');

async function failure(promise: Promise<unknown>): Promise<ApexError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApexError) return error;
    throw new Error(`not an ApexError: ${String(error)}`);
  }
  throw new Error('resolved');
}

function texts(node: UiNode): string[] {
  return [...(node.label ? [node.label] : []), ...(node.value ? [node.value] : []), ...node.children.flatMap(texts)];
}

describeWithRealAdb('the developer’s loop through driver-adb, on the virtual Android phone', () => {
  let android: VirtualAndroid;
  let adbd: Adbd;
  let adb: RealAdbServer;
  let driver: AdbDriver;
  let dir: string;
  let build: AppBuild;
  const commands: string[] = [];
  /** Commands (by prefix) whose session hangs until the host closes its stream; the aborted ones are recorded. */
  const hang = { prefix: '', aborted: [] as string[] };
  const errors: ApexError[] = [];
  const failed = async (promise: Promise<unknown>) => {
    const error = await failure(promise);
    errors.push(error);
    return error;
  };
  const screen = async () => texts(await driver.uiTree(live()));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'apex-driver-loop-'));
    const path = join(dir, 'loop-demo.apk');
    await writeFile(path, buildTestApk({ appId: APP, label: 'Loop Demo', labelAsResource: true, versionName: '1.0.0', versionCode: 1, permissions: ['android.permission.ACCESS_FINE_LOCATION', 'android.permission.ACCESS_COARSE_LOCATION'] }));
    build = { path, kind: 'apk', appId: APP, name: 'Loop Demo', version: '1.0.0' };
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
    adb = await startRealAdbServer();
    driver = createAdbDriver({ deviceId: 'pixel', server: { host: '127.0.0.1', port: adb.port }, device: { host: adbd.serial } });
  }, 60_000);

  afterAll(async () => {
    await adb?.stop();
    await adbd?.close();
    await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it('runs the whole loop: install, launch, permission, relaunch, location, background, state, reset, uninstall', async () => {
    expect(await driver.appState(APP, live())).toBe('notInstalled');
    expect(await driver.installApp(build, live())).toEqual({ replaced: false });
    expect((await driver.listApps(live())).apps).toContainEqual(expect.objectContaining({ appId: APP }));
    expect(await driver.appState(APP, live())).toBe('notRunning');

    await driver.launchApp(APP, live());
    expect(await driver.alert(live())).toEqual({ text: 'Allow Loop Demo to access this device’s location?', buttons: ['While using the app', 'Only this time', 'Don’t allow'] });
    // The dialog runs in the app's task: the app is in front.
    expect(await driver.appState(APP, live())).toBe('foreground');
    await driver.setPermission(APP, 'location', 'granted', live());
    expect(await driver.alert(live())).toBeUndefined();
    expect(await screen()).toEqual(expect.arrayContaining(['Loop Demo', 'Welcome! This is the first launch.']));

    await driver.terminateApp(APP, live());
    await driver.launchApp(APP, live());
    expect(await driver.alert(live())).toBeUndefined();
    expect(await screen()).toContain('Launched 2 times');

    await driver.setLocation({ latitude: 48.8584, longitude: 2.2945 }, live());
    expect(await screen()).toContain('Location: 48.85840, 2.29450');

    await driver.backgroundApp(undefined, live());
    expect(await driver.appState(APP, live())).toBe('background');
    expect((await driver.foregroundApp(live()))?.appId).not.toBe(APP);

    await driver.resetApp(APP, live());
    expect(await driver.appState(APP, live())).toBe('notRunning');
    await driver.launchApp(APP, live());
    // Data and permissions are gone: the first launch, and the dialog again.
    expect(await driver.alert(live())).toMatchObject({ buttons: ['While using the app', 'Only this time', 'Don’t allow'] });
    await driver.handleAlert({ kind: 'press', button: 'While using the app' }, live());
    expect(await screen()).toContain('Welcome! This is the first launch.');

    await driver.uninstallApp(APP, live());
    expect(await driver.appState(APP, live())).toBe('notInstalled');
    expect((await driver.listApps(live())).apps.map((a) => a.appId)).not.toContain(APP);
    await driver.setLocation(undefined, live());
  });

  it('installApp: replaces an installed build, streams it to the package installer, refuses what is not an installable APK', async () => {
    expect(await driver.installApp(build, live())).toEqual({ replaced: false });
    expect(await driver.installApp(build, live())).toEqual({ replaced: true });
    expect(commands).toContainEqual(expect.stringMatching(/^cmd package install -r -t -S \d+$/));
    // A build the size of a real one (5 MB) streams through with backpressure and installs.
    const big = join(dir, 'big.apk');
    await writeFile(big, buildTestApk({ appId: 'com.example.big', label: 'Big App', paddingBytes: 5 * 1024 * 1024 }));
    expect(await driver.installApp({ ...build, path: big, appId: 'com.example.big', name: 'Big App' }, live())).toEqual({ replaced: false });
    expect(android.phone.app('com.example.big')?.label).toBe('Big App');
    await driver.uninstallApp('com.example.big', live());

    const junk = join(dir, 'junk.apk');
    await writeFile(junk, 'this is not an apk\n');
    const notApk = await failed(driver.installApp({ ...build, path: junk, appId: 'com.example.junk', name: 'Junk' }, live()));
    expect(notApk.code).toBe('invalid_argument');
    expect(notApk.message).toMatch(/does not accept the build as an app/);
    expect(android.phone.app('com.example.junk')).toBeUndefined();

    const ios = await failed(driver.installApp({ ...build, kind: 'ipa', name: 'Loop.ipa' }, live()));
    expect(ios.code).toBe('invalid_argument');

    // A build that claims a system app's package: PackageManager refuses a differently signed replacement.
    const fake = join(dir, 'fake-chrome.apk');
    await writeFile(fake, buildTestApk({ appId: 'com.android.chrome', label: 'Not Chrome' }));
    const incompatible = await failed(driver.installApp({ ...build, path: fake, appId: 'com.android.chrome', name: 'Not Chrome' }, live()));
    expect(incompatible.code).toBe('invalid_argument');
    expect(incompatible.message).toMatch(/signed with another key/);

    const older = join(dir, 'older.apk');
    await writeFile(older, buildTestApk({ appId: APP, label: 'Loop Demo', versionCode: 0 }));
    await driver.installApp({ ...build, path: older }, live()).catch(() => undefined);
    const newer = join(dir, 'newer.apk');
    await writeFile(newer, buildTestApk({ appId: APP, label: 'Loop Demo', versionCode: 5 }));
    await driver.installApp({ ...build, path: newer }, live());
    const downgrade = await failed(driver.installApp({ ...build, path: older }, live()));
    expect(downgrade.code).toBe('invalid_argument');
    expect(downgrade.message).toMatch(/newer version/);
    await driver.uninstallApp(APP, live());
  });

  it('uninstallApp and resetApp: app_not_found for an unknown app, unsupported_operation for a system app', async () => {
    expect((await failed(driver.uninstallApp('com.example.nothere', live()))).code).toBe('app_not_found');
    const system = await failed(driver.uninstallApp('com.android.chrome', live()));
    expect(system.code).toBe('unsupported_operation');
    expect(system.message).toMatch(/system app/);
    expect((await failed(driver.resetApp('com.example.nothere', live()))).code).toBe('app_not_found');
    expect((await failed(driver.appState('not a package', live()))).code).toBe('app_not_found');
    // A system app's data can be cleared.
    await driver.resetApp('com.google.android.apps.maps', live());
  });

  it('setPermission: denied keeps the dialog away for good, unset brings it back; undeclared and unknown permissions are refused', async () => {
    await driver.installApp(build, live());
    await driver.setPermission(APP, 'location', 'denied', live());
    await driver.launchApp(APP, live());
    expect(await driver.alert(live())).toBeUndefined();
    expect(await screen()).toContain('Location: permission denied');
    await driver.setPermission(APP, 'location', 'unset', live());
    await driver.terminateApp(APP, live());
    await driver.launchApp(APP, live());
    expect((await driver.alert(live()))?.buttons).toContain('While using the app');
    await driver.setPermission(APP, 'location', 'granted', live());
    expect(await driver.alert(live())).toBeUndefined();

    const undeclared = await failed(driver.setPermission(APP, 'microphone', 'granted', live()));
    expect(undeclared.code).toBe('invalid_argument');
    expect(undeclared.message).toMatch(/does not ask for the microphone permission/);
    expect((await failed(driver.setPermission(APP, 'reminders', 'granted', live()))).code).toBe('unsupported_operation');
    expect((await failed(driver.setPermission('com.example.nothere', 'camera', 'granted', live()))).code).toBe('app_not_found');
  });

  it('setLocation: the app sees the position, a cleared one gives the phone’s own back, an altitude is refused', async () => {
    await driver.launchApp(APP, live());
    await driver.setLocation({ latitude: -33.8568, longitude: 151.2153 }, live());
    expect(await screen()).toContain('Location: -33.85680, 151.21530');
    await driver.setLocation(undefined, live());
    expect(await screen()).toContain('Location: 37.42200, -122.08400');
    const altitude = await failed(driver.setLocation({ latitude: 1, longitude: 2, altitude: 30 }, live()));
    expect(altitude.code).toBe('unsupported_operation');
    expect(altitude.message).toMatch(/altitude/);
  });

  it('backgroundApp with seconds brings the app back; appState follows', async () => {
    await driver.launchApp(APP, live());
    expect(await driver.appState(APP, live())).toBe('foreground');
    await driver.backgroundApp(1, live());
    expect(await driver.appState(APP, live())).toBe('foreground');
    expect(commands.filter((c) => c === 'input keyevent 3').length).toBeGreaterThan(0);
    // The wait ends with the caller's signal: device_timeout, and the app stays in the background.
    const controller = new AbortController();
    const pending = failure(driver.backgroundApp(30, controller.signal));
    await eventually(async () => (await driver.appState(APP, live())) === 'background', { timeoutMs: 10_000, what: 'the app to go to the background' });
    controller.abort();
    expect((await pending).code).toBe('device_timeout');
    expect(await driver.appState(APP, live())).toBe('background');
  });

  it('pushNotification: the shade shows it from the shell, a tap opens the app with the payload as extras', async () => {
    await driver.pressButton('home', live());
    await driver.pushNotification({ appId: APP, title: 'Order shipped', body: 'It’s on its way; track it “now”', payload: { orderId: 'A-17', count: 3, express: true } }, live());
    const posted = commands.find((c) => c.startsWith('cmd notification post'));
    expect(posted).toContain('--es orderId A-17 --ei count 3 --ez express true');
    await driver.swipe({ from: { x: 200, y: 5 }, to: { x: 200, y: 600 }, durationMs: 200 }, live());
    expect(await screen()).toEqual(expect.arrayContaining(['Order shipped', 'It’s on its way; track it “now”', 'Shell']));
    const row = (function find(n: UiNode): UiNode | undefined {
      return n.label === 'It’s on its way; track it “now”' ? n : n.children.map(find).find((x) => x);
    })(await driver.uiTree(live()));
    expect(row).toBeDefined();
    await driver.tap({ x: (row?.bounds.x ?? 0) + 5, y: (row?.bounds.y ?? 0) + 5 }, live());
    expect(await driver.appState(APP, live())).toBe('foreground');
    expect((await failed(driver.pushNotification({ appId: 'com.example.nothere', title: 't', body: 'b' }, live()))).code).toBe('app_not_found');
  });

  it('addMedia: a photo pushed to shared storage and scanned shows in the gallery', async () => {
    const photo = join(dir, 'Beach day (1).png');
    // Larger than one transfer chunk (64 KiB): the push splits it.
    const bytes = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(300 * 1024, 7)]);
    await writeFile(photo, bytes);
    await driver.addMedia({ path: photo, kind: 'photo' }, live());
    expect(Buffer.from(android.backend.files.read('/sdcard/Pictures/Beach_day__1_.png') ?? []).equals(bytes)).toBe(true);
    await driver.launchApp('com.google.android.apps.photos', live());
    expect(JSON.stringify(await driver.uiTree(live()))).toContain('Photo Beach_day__1_.png');
    // The phone refuses the push (a folder is in the way): its reason stays in the cause, the client reads Apex's words.
    android.backend.files.write('/sdcard/Pictures/taken.png/inside.txt', Buffer.from('x'), 0o644, 0);
    const blocked = join(dir, 'taken.png');
    await writeFile(blocked, Buffer.from('89504e470d0a1a0a', 'hex'));
    const refused = await failed(driver.addMedia({ path: blocked, kind: 'photo' }, live()));
    expect(refused.code).toBe('device_error');
    expect(refused.message).toBe('Device pixel refused the file Apex sent to add the photo to the gallery.');
    const gone = await failed(driver.installApp({ ...build, path: join(dir, 'missing.apk') }, live()));
    expect(gone.code).toBe('invalid_argument');
  });

  it('biometric is unsupported on Android over the debugging connection, with the reason', async () => {
    const refused = await failed(driver.biometric('match', live()));
    expect(refused.code).toBe('unsupported_operation');
    expect(refused.message).toMatch(/^Device pixel cannot simulate a fingerprint: .*emulator/);
  });

  it('an install the phone never answers ends when the caller gives up, and the phone’s session ends with it', async () => {
    hang.prefix = 'cmd package install';
    const controller = new AbortController();
    const pending = failure(driver.installApp(build, controller.signal));
    await eventually(() => commands.some((c) => c.startsWith('cmd package install')) && commands[commands.length - 1].startsWith('cmd package install'), { timeoutMs: 10_000, what: 'the install to reach the phone' });
    controller.abort();
    expect((await pending).code).toBe('device_timeout');
    await eventually(() => hang.aborted.length === 1, { timeoutMs: 10_000, what: 'the phone’s install session to be ended' });
    hang.prefix = '';
    expect(await driver.appState(APP, live())).not.toBe('notInstalled');
  });

  it('says every failure in Apex’s words', () => {
    expect(errors.length).toBeGreaterThan(8);
    for (const error of errors) expect(`${error.message} ${error.hint ?? ''}`).not.toMatch(LEAKS);
  });
});
