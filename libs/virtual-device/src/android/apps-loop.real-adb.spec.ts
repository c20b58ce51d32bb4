import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApk } from '@apex/apk/testing';
import { boundsCenter, UiDump } from '../testing/android';
import { describeWithRealAdb, startRealAdbServer, type RealAdbServer } from '../testing/real-adb';
import { startAdbd, type Adbd } from './adbd';
import type { ShellHandler } from './adbd/device-backend';
import { createVirtualAndroid, type VirtualAndroid } from './virtual-android';

const APP = 'com.example.apexloop';
const LOCATION = 'android.permission.ACCESS_FINE_LOCATION';

/** A virtual phone behind an adbd whose shell records every command line the host sends. */
async function phoneBehindAdbd(features: string[]): Promise<{ android: VirtualAndroid; adbd: Adbd; commands: string[] }> {
  const android = createVirtualAndroid();
  const commands: string[] = [];
  const shell: ShellHandler = (session) => {
    commands.push(session.command);
    return android.backend.shell(session);
  };
  const adbd = await startAdbd({ backend: { ...android.backend, shell }, host: '127.0.0.1', extraFeatures: features });
  return { android, adbd, commands };
}

describeWithRealAdb('the developer’s loop on the virtual Android phone, through the real adb binary', () => {
  let adb: RealAdbServer;
  let dir: string;
  let apkPath: string;
  let streamed: Awaited<ReturnType<typeof phoneBehindAdbd>>;
  let legacy: Awaited<ReturnType<typeof phoneBehindAdbd>>;
  const run = (serial: string, ...args: string[]) => adb.run(['-s', serial, ...args]);
  const sh = async (...args: string[]) => {
    const r = await run(streamed.adbd.serial, 'shell', ...args);
    return { ...r, text: r.stdout.toString('utf8') };
  };
  const dump = async () => new UiDump((await run(streamed.adbd.serial, 'exec-out', 'uiautomator', 'dump', '/dev/tty')).stdout.toString('utf8').replace(/UI hier[a-z]* dumped to: \/dev\/tty\s*$/, ''));
  const tap = async (text: string) => {
    const { x, y } = boundsCenter((await dump()).byText(text).attributes.bounds);
    await sh('input', 'tap', String(x), String(y));
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'apex-loop-'));
    apkPath = join(dir, 'app-debug.apk');
    // 3 MB, as a small real app: the streamed install goes through several transfers and the stream's flow control.
    await writeFile(apkPath, buildTestApk({ appId: APP, label: 'Loop Demo', labelAsResource: true, versionName: '1.2.0', versionCode: 12, permissions: [LOCATION, 'android.permission.INTERNET', 'android.permission.CAMERA'], paddingBytes: 3 * 1024 * 1024 }));
    streamed = await phoneBehindAdbd(['cmd']);
    legacy = await phoneBehindAdbd([]);
    adb = await startRealAdbServer();
    for (const p of [streamed, legacy]) expect((await adb.run(['connect', p.adbd.serial])).stdout.toString()).toContain('connected to');
  });
  afterAll(async () => {
    await adb?.stop();
    await streamed?.adbd.close();
    await legacy?.adbd.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('`adb install` streams the APK to `cmd package install -S SIZE` when the phone has `cmd`, and the app lands in the launcher', async () => {
    const result = await run(streamed.adbd.serial, 'install', apkPath);
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toMatch(/Success/);
    const size = (await import('node:fs')).statSync(apkPath).size;
    expect(streamed.commands).toContainEqual(expect.stringMatching(new RegExp(`^cmd package 'install' .*-S ${size}$`)));
    expect((await sh('pm', 'list', 'packages', '-3')).text).toBe(`package:${APP}\n`);
    expect((await sh('dumpsys', 'package', APP)).text).toMatch(/versionName=1\.2\.0/);
    await sh('input', 'keyevent', 'HOME');
    const home = await dump();
    expect(home.byText('Loop Demo').attributes.class).toBe('android.widget.TextView');
  });

  it('`adb install` on a phone without `cmd` pushes the APK, runs `pm install PATH` and removes the copy', async () => {
    const result = await run(legacy.adbd.serial, 'install', apkPath);
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toMatch(/Success/);
    const pmInstall = legacy.commands.find((c) => /^pm 'install' /.test(c) || /^pm install /.test(c));
    expect(pmInstall).toMatch(/\/data\/local\/tmp\/app-debug\.apk'?$/);
    expect(legacy.commands).toContainEqual(expect.stringMatching(/^rm .*\/data\/local\/tmp\/app-debug\.apk/));
    expect(legacy.android.backend.files.stat('/data/local/tmp/app-debug.apk')).toBeUndefined();
    expect(legacy.android.phone.app(APP)?.label).toBe('Loop Demo');
  });

  it('refuses what is not an APK with PackageManager’s failure, and leaves the phone as it was', async () => {
    const text = join(dir, 'notes.apk');
    await writeFile(text, 'not an apk\n');
    const result = await run(streamed.adbd.serial, 'install', text);
    expect(result.code).not.toBe(0);
    expect(`${result.stdout.toString()}${result.stderr}`).toMatch(/INSTALL_PARSE_FAILED_NOT_APK/);
    expect((await sh('pm', 'list', 'packages', '-3')).text).toBe(`package:${APP}\n`);
  });

  it('launches into a screen titled with the label; the permission dialog comes, and a grant keeps it away on relaunch', async () => {
    await tap('Loop Demo');
    let ui = await dump();
    expect(ui.nodes[0].attributes.package).toBe('com.google.android.permissioncontroller');
    expect(ui.texts()).toContain('Allow Loop Demo to access this device\u2019s location?');
    // The dialog runs in the app's task.
    expect((await sh('dumpsys', 'activity', 'activities')).text).toMatch(new RegExp(`Task\\{[0-9a-f]+ #\\d+ type=standard A=\\d+:${APP.replace(/\./g, '\\.')} `));
    await tap('While using the app');
    // Then the camera: only "While using the app", "Only this time" and "Don't allow" for it too.
    ui = await dump();
    expect(ui.texts()).toContain('Allow Loop Demo to take pictures and record video?');
    await tap('Don\u2019t allow');
    ui = await dump();
    expect(ui.nodes[0].attributes.package).toBe(APP);
    expect(ui.texts()).toEqual(expect.arrayContaining(['Loop Demo', 'Welcome! This is the first launch.', 'Location: 37.42200, -122.08400']));
    await sh('am', 'force-stop', APP);
    await sh('pm', 'grant', APP, 'android.permission.CAMERA');
    await sh('monkey', '-p', APP, '-c', 'android.intent.category.LAUNCHER', '1');
    ui = await dump();
    expect(ui.nodes[0].attributes.package).toBe(APP);
    expect(ui.texts()).toContain('Launched 2 times');
  });

  it('grants, revokes and fixes permissions as PackageManager does, with its errors', async () => {
    await sh('pm', 'revoke', APP, LOCATION);
    await sh('pm', 'set-permission-flags', APP, LOCATION, 'user-set', 'user-fixed');
    expect((await sh('dumpsys', 'package', APP)).text).toMatch(/ACCESS_FINE_LOCATION: granted=false, flags=\[ USER_SET\|USER_FIXED \]/);
    await sh('am', 'force-stop', APP);
    await sh('monkey', '-p', APP, '-c', 'android.intent.category.LAUNCHER', '1');
    expect((await dump()).texts()).toContain('Location: permission denied');
    await sh('pm', 'clear-permission-flags', APP, LOCATION, 'user-set', 'user-fixed');
    await sh('am', 'force-stop', APP);
    await sh('monkey', '-p', APP, '-c', 'android.intent.category.LAUNCHER', '1');
    expect((await dump()).nodes[0].attributes.package).toBe('com.google.android.permissioncontroller');
    await sh('pm', 'grant', APP, LOCATION);
    expect((await dump()).nodes[0].attributes.package).toBe(APP);

    const notDeclared = await sh('pm', 'grant', APP, 'android.permission.RECORD_AUDIO');
    expect(notDeclared.code).toBe(255);
    expect(notDeclared.stderr).toContain(`has not requested permission android.permission.RECORD_AUDIO`);
    expect((await sh('pm', 'grant', APP, 'android.permission.INTERNET')).stderr).toContain('is not a changeable permission type');
    expect((await sh('pm', 'grant', 'com.example.nothere', LOCATION)).stderr).toContain('Unknown package: com.example.nothere');
  });

  it('simulates a position through a test provider once the shell may mock locations; the app shows it', async () => {
    // Without the app op the location service ignores the shell, as Android does.
    await sh('cmd', 'location', 'providers', 'add-test-provider', 'gps');
    expect((await sh('cmd', 'location', 'providers', 'set-test-provider-location', 'gps', '--location', '48.8584,2.2945')).code).toBe(0);
    expect((await dump()).texts()).toContain('Location: 37.42200, -122.08400');
    await sh('appops', 'set', 'com.android.shell', 'android:mock_location', 'allow');
    expect((await sh('appops', 'get', 'com.android.shell', 'android:mock_location')).text).toBe('MOCK_LOCATION: allow\n');
    const missing = await sh('cmd', 'location', 'providers', 'set-test-provider-location', 'gps', '--location', '48.8584,2.2945');
    expect(missing.stderr).toContain("provider doesn't exist: gps");
    for (const step of [['add-test-provider', 'gps'], ['set-test-provider-enabled', 'gps', 'true'], ['set-test-provider-location', 'gps', '--location', '48.8584,2.2945']]) {
      expect((await sh('cmd', 'location', 'providers', ...step)).code).toBe(0);
    }
    expect((await dump()).texts()).toContain('Location: 48.85840, 2.29450');
    await sh('cmd', 'location', 'providers', 'remove-test-provider', 'gps');
    expect((await dump()).texts()).toContain('Location: 37.42200, -122.08400');
  });

  it('posts a notification that shows heads-up and in the shade, and a tap opens the app', async () => {
    await sh('input', 'keyevent', 'HOME');
    // `adb shell` joins its arguments with spaces: the device's shell splits them again, so quote as a user would.
    const posted = await sh(`cmd notification post -t 'Order shipped' -c activity ${APP}/.MainActivity apex-1 'Your parcel is on its way'`);
    expect(posted.text).toMatch(/^posting:\n {2}Notification\(channel=shell_cmd /);
    // Heads-up over the home screen: drawn on top (the dump reads the active window only), and in the phone's tree.
    expect(JSON.stringify(streamed.android.phone.root(), (k, v) => (k === 'draw' ? undefined : v))).toContain('headsup/window');
    await sh('cmd', 'statusbar', 'expand-notifications');
    const shade = await dump();
    expect(shade.texts()).toEqual(expect.arrayContaining(['Order shipped', 'Your parcel is on its way', 'Shell']));
    await tap('Your parcel is on its way');
    const ui = await dump();
    expect(ui.nodes[0].attributes.package).toBe(APP);
    await sh('cmd', 'statusbar', 'expand-notifications');
    expect((await dump()).texts()).toContain('No notifications');
    await sh('cmd', 'statusbar', 'collapse');
    const usage = await sh(`cmd notification post -t 'only a title'`);
    expect(usage.code).toBe(255);
    expect(usage.text).toContain('usage: cmd notification post [flags] <tag> <text>');
  });

  it('adds a pushed photo to the gallery when the media scanner is told', async () => {
    const photo = join(dir, 'beach.png');
    await writeFile(photo, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    expect((await run(streamed.adbd.serial, 'push', photo, '/sdcard/Pictures/beach.png')).code).toBe(0);
    const scanned = await sh('am', 'broadcast', '-a', 'android.intent.action.MEDIA_SCANNER_SCAN_FILE', '-d', 'file:///sdcard/Pictures/beach.png');
    expect(scanned.text).toContain('Broadcast completed: result=0');
    await sh('monkey', '-p', 'com.google.android.apps.photos', '-c', 'android.intent.category.LAUNCHER', '1');
    expect((await dump()).find((a) => a['content-desc'] === 'Photo beach.png')).toBeDefined();
  });

  it('`pm clear` brings back the first launch; `adb uninstall` removes the app; a system app cannot be removed', async () => {
    expect((await sh('pm', 'clear', APP)).text).toBe('Success\n');
    await sh('monkey', '-p', APP, '-c', 'android.intent.category.LAUNCHER', '1');
    let ui = await dump();
    expect(ui.nodes[0].attributes.package).toBe('com.google.android.permissioncontroller');
    await tap('While using the app');
    await tap('Don\u2019t allow');
    expect((await dump()).texts()).toContain('Welcome! This is the first launch.');

    const removed = await run(streamed.adbd.serial, 'uninstall', APP);
    expect(removed.stdout.toString()).toMatch(/Success/);
    expect((await sh('pm', 'list', 'packages', '-3')).text).toBe('');
    expect((await sh('pm', 'path', APP)).code).toBe(1);
    await sh('input', 'keyevent', 'HOME');
    ui = await dump();
    expect(ui.texts()).not.toContain('Loop Demo');
    const system = await sh('pm', 'uninstall', 'com.android.chrome');
    expect(system.text).toBe('Failure [DELETE_FAILED_INTERNAL_ERROR]\n');
    expect(system.code).toBe(1);
    expect((await sh('pm', 'uninstall', APP)).text).toBe('Failure [DELETE_FAILED_INTERNAL_ERROR]\n');
  });
});
