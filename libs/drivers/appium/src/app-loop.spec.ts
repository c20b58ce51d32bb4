import * as http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApexError, LEAKY_WORDS } from '@apex/errors';
import { AppiumDriver } from './appium-driver';

/**
 * The developer's loop mapped onto the documented `mobile:` commands of the XCUITest and UiAutomator2 drivers
 * (execute-method-map.ts of appium-xcuitest-driver 12.7 and appium-android-driver), checked against a recording
 * stand-in server over real HTTP: no simulator or Android device runs here. Each `mobile:` command answers from
 * `answers` (default null); an answer `{ status, error, message }` is an error envelope.
 */
class RecordingServer {
  readonly commands: string[] = [];
  answers: Record<string, unknown> = {};
  capabilities: Record<string, unknown> = {};
  private readonly server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ value }));
      };
      if (req.url === '/session' && req.method === 'POST') return send(200, { sessionId: 'L1', capabilities: this.capabilities });
      const path = (req.url ?? '').replace('/session/L1', '');
      if (req.method === 'DELETE') return send(200, null);
      const parsed = body ? (JSON.parse(body) as { script?: string; args?: unknown[] }) : {};
      const name = (parsed.script ?? '').replace(/^mobile: /, '');
      this.commands.push(path === '/execute/sync' ? `${name} ${JSON.stringify(parsed.args?.[0] ?? null)}` : `${req.method} ${path}`);
      const answer = this.answers[name];
      if (answer && typeof answer === 'object' && 'status' in answer) {
        const { status, error, message } = answer as { status: number; error: string; message: string };
        return send(status, { error, message, stacktrace: 'at XCUITestDriver.requireSimulator (guards.js:27)' });
      }
      return send(200, answer ?? null);
    });
  });
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const live = new AbortController().signal;
const serverError = (message: string) => ({ status: 500, error: 'unknown error', message });

async function failure(promise: Promise<unknown> | undefined): Promise<ApexError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApexError) return error;
    throw new Error(`not an ApexError: ${String(error)}`);
  }
  throw new Error('resolved');
}

function expectNeutral(error: ApexError): void {
  expect(`${error.message} ${error.hint ?? ''}`).not.toMatch(LEAKY_WORDS);
  expect(`${error.message} ${error.hint ?? ''}`).not.toMatch(/mobile:|simctl|Simulator target|requireSimulator|adb|uiautomator/i);
}

let dir: string;
let photo: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apex-appium-loop-'));
  photo = join(dir, 'beach day.jpg');
  await writeFile(photo, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('driver-appium iOS: the loop on the XCUITest driver’s mobile: commands', () => {
  let server: RecordingServer;
  let driver: AppiumDriver;
  const build = () => ({ path: join(dir, 'Demo.app'), kind: 'app' as const, appId: 'com.example.demo', name: 'Demo' });

  beforeEach(async () => {
    server = await new RecordingServer().start();
    driver = new AppiumDriver({ deviceId: 'iphone', serverUrl: server.url, capabilities: { platformName: 'iOS' } });
  });
  afterEach(async () => {
    await driver.close(live);
    await server.stop();
  });

  it('installs from the build’s path on a local server (isAppInstalled first: replaced), and removes', async () => {
    server.answers = { isAppInstalled: true, removeApp: true };
    expect(await driver.installApp?.(build(), live)).toEqual({ replaced: true });
    await driver.uninstallApp?.('com.example.demo', live);
    expect(server.commands).toEqual([
      'isAppInstalled {"bundleId":"com.example.demo"}',
      `installApp ${JSON.stringify({ app: join(dir, 'Demo.app') })}`,
      'isAppInstalled {"bundleId":"com.example.demo"}',
      'removeApp {"bundleId":"com.example.demo"}',
    ]);
  });

  it('refuses an install through a server on another computer, an Android build, unknown and system apps, a refused removal', async () => {
    const remote = new AppiumDriver({ deviceId: 'iphone', serverUrl: server.url.replace('127.0.0.1', '127.0.0.2'), capabilities: { platformName: 'iOS' } });
    const elsewhere = await failure(remote.installApp?.(build(), live));
    expect(elsewhere).toMatchObject({ code: 'unsupported_operation' });
    expect(elsewhere.message).toMatch(/runs on another computer \(127\.0\.0\.2\) and installs only builds found on its own disk/);
    await remote.close(live);
    expect((await failure(driver.installApp?.({ ...build(), kind: 'apk' }, live))).code).toBe('invalid_argument');
    server.answers = { isAppInstalled: false };
    expect((await failure(driver.uninstallApp?.('com.example.gone', live))).code).toBe('app_not_found');
    expect((await failure(driver.resetApp?.('com.example.gone', live))).code).toBe('app_not_found');
    server.answers = { isAppInstalled: true, removeApp: false };
    const system = await failure(driver.uninstallApp?.('com.apple.Maps', live));
    expect(system.code).toBe('unsupported_operation');
    expect((await failure(driver.uninstallApp?.('com.example.demo', live))).code).toBe('device_error');
    expect(server.commands.filter((c) => c.startsWith('installApp') || c.startsWith('removeApp {"bundleId":"com.apple'))).toEqual([]);
    [elsewhere, system].forEach(expectNeutral);
  });

  it('resets (clearApp, every permission unset), sets permissions (yes/no/unset per service), biometrics and pushes', async () => {
    server.answers = { isAppInstalled: true };
    await driver.resetApp?.('com.example.demo', live);
    await driver.setPermission?.('com.example.demo', 'locationAlways', 'granted', live);
    await driver.setPermission?.('com.example.demo', 'camera', 'denied', live);
    await driver.setPermission?.('com.example.demo', 'photos', 'unset', live);
    expect(server.commands).toEqual([
      'isAppInstalled {"bundleId":"com.example.demo"}',
      'clearApp {"bundleId":"com.example.demo"}',
      'setPermission {"bundleId":"com.example.demo","access":{"all":"unset"}}',
      'isAppInstalled {"bundleId":"com.example.demo"}',
      'setPermission {"bundleId":"com.example.demo","access":{"location-always":"yes"}}',
      'isAppInstalled {"bundleId":"com.example.demo"}',
      'setPermission {"bundleId":"com.example.demo","access":{"camera":"no"}}',
      'isAppInstalled {"bundleId":"com.example.demo"}',
      'setPermission {"bundleId":"com.example.demo","access":{"photos":"unset"}}',
    ]);
    server.commands.length = 0;
    await driver.pushNotification?.({ appId: 'com.example.demo', title: 'Hi', body: 'There', payload: { orderId: 7 } }, live);
    expect(server.commands).toEqual(['pushNotification {"bundleId":"com.example.demo","payload":{"orderId":7,"aps":{"alert":{"title":"Hi","body":"There"}}}}']);
  });

  it('sends Face ID or Touch ID by the session’s device name', async () => {
    server.capabilities = { deviceName: 'iPhone 15 Pro' };
    await driver.biometric?.('enroll', live);
    await driver.biometric?.('match', live);
    await driver.biometric?.('fail', live);
    await driver.biometric?.('unenroll', live);
    const sent = server.commands.filter((c) => /Biometric/.test(c));
    expect(sent).toEqual([
      'enrollBiometric {"isEnabled":true}',
      'sendBiometricMatch {"type":"faceId","match":true}',
      'sendBiometricMatch {"type":"faceId","match":false}',
      'enrollBiometric {"isEnabled":false}',
    ]);
    const touch = new AppiumDriver({ deviceId: 'se', serverUrl: server.url, capabilities: { platformName: 'iOS' } });
    server.capabilities = { deviceName: 'iPhone SE (3rd generation)' };
    server.commands.length = 0;
    await touch.biometric?.('match', live);
    expect(server.commands.filter((c) => /Biometric/.test(c))).toEqual(['sendBiometricMatch {"type":"touchId","match":true}']);
    await touch.close(live);
  });

  it('a real iPhone: the server’s simulator-only refusal is unsupported_operation, in neutral words', async () => {
    server.answers = {
      isAppInstalled: true,
      setPermission: serverError('Setting permissions can only be performed on Simulator'),
      enrollBiometric: serverError('Biometric enrollment can only be performed on Simulator'),
      pushNotification: serverError('Push notification can only be performed on Simulator'),
      clearApp: { status: 405, error: 'unknown method', message: 'This extension is only supported on simulators.' },
    };
    const errors = [
      await failure(driver.setPermission?.('com.example.demo', 'contacts', 'granted', live)),
      await failure(driver.biometric?.('enroll', live)),
      await failure(driver.pushNotification?.({ appId: 'com.example.demo', title: 'a', body: 'b' }, live)),
      await failure(driver.resetApp?.('com.example.demo', live)),
    ];
    for (const error of errors) {
      expect(error.code).toBe('unsupported_operation');
      expect(error.message).toMatch(/this works on an iOS simulator only/);
      expectNeutral(error);
    }
    // Another failure stays what it is.
    server.answers = { isAppInstalled: true, setPermission: serverError('applesimutils not found') };
    expect((await failure(driver.setPermission?.('com.example.demo', 'contacts', 'granted', live))).code).not.toBe('unsupported_operation');
  });

  it('adds media to a simulator’s library (pushFile outside any container, base64) and refuses where the agent is not a simulator', async () => {
    server.answers = { deviceInfo: { isSimulator: true, model: 'iPhone' } };
    await driver.addMedia?.({ path: photo, kind: 'photo' }, live);
    expect(server.commands.filter((c) => c.startsWith('pushFile'))).toEqual([`pushFile ${JSON.stringify({ remotePath: 'beach day.jpg', payload: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]).toString('base64') })}`]);

    const real = new AppiumDriver({ deviceId: 'real', serverUrl: server.url, capabilities: { platformName: 'iOS' } });
    server.answers = { deviceInfo: { isSimulator: false } };
    server.commands.length = 0;
    const refused = await failure(real.addMedia?.({ path: photo, kind: 'photo' }, live));
    expect(refused.code).toBe('unsupported_operation');
    expect(server.commands.filter((c) => c.startsWith('pushFile'))).toEqual([]);
    expectNeutral(refused);
    await real.close(live);
  });
});

describe('driver-appium Android: the loop on the UiAutomator2 driver’s mobile: commands', () => {
  let server: RecordingServer;
  let driver: AppiumDriver;
  const APK = () => ({ path: join(dir, 'demo.apk'), kind: 'apk' as const, appId: 'com.example.demo', name: 'Demo' });

  beforeEach(async () => {
    server = await new RecordingServer().start();
    driver = new AppiumDriver({ deviceId: 'pixel', serverUrl: server.url, capabilities: { platformName: 'Android' } });
  });
  afterEach(async () => {
    await driver.close(live);
    await server.stop();
  });

  it('installs, reads states, backgrounds, simulates a position, resets, removes', async () => {
    server.answers = { isAppInstalled: false, queryAppState: 3, removeApp: true };
    expect(await driver.installApp?.(APK(), live)).toEqual({ replaced: false });
    expect(await driver.appState?.('com.example.demo', live)).toBe('background');
    await driver.backgroundApp?.(undefined, live);
    await driver.backgroundApp?.(2, live);
    await driver.setLocation?.({ latitude: 48.85, longitude: 2.29, altitude: 35 }, live);
    await driver.setLocation?.(undefined, live);
    server.answers.isAppInstalled = true;
    await driver.resetApp?.('com.example.demo', live);
    await driver.uninstallApp?.('com.example.demo', live);
    expect(server.commands).toEqual([
      'isAppInstalled {"appId":"com.example.demo"}',
      `installApp ${JSON.stringify({ appPath: join(dir, 'demo.apk'), allowTestPackages: true, replace: true })}`,
      'queryAppState {"appId":"com.example.demo"}',
      'backgroundApp {"seconds":-1}',
      'backgroundApp {"seconds":2}',
      'setGeolocation {"latitude":48.85,"longitude":2.29,"altitude":35}',
      'resetGeolocation null',
      'isAppInstalled {"appId":"com.example.demo"}',
      'clearApp {"appId":"com.example.demo"}',
      'isAppInstalled {"appId":"com.example.demo"}',
      'removeApp {"appId":"com.example.demo"}',
    ]);
    server.answers = { removeApp: false, isAppInstalled: true, resetGeolocation: serverError('Geolocation reset does not work on emulators') };
    const kept = await failure(driver.uninstallApp?.('com.android.settings', live));
    expect(kept.code).toBe('unsupported_operation');
    expect((await failure(driver.setLocation?.(undefined, live))).message).toMatch(/this works on a real Android phone only/);
    expectNeutral(kept);
  });

  it('launches afresh with the arguments as string extras; environment and locale refused before anything is sent', async () => {
    server.answers = { startActivity: 'Status: ok\nLaunchState: COLD\nComplete\n' };
    await driver.launchAppWith?.('com.example.demo', { arguments: ['-mode', 'demo', 'user', 'ana maría'] }, live);
    expect(server.commands).toEqual([
      'startActivity ' +
        JSON.stringify({
          package: 'com.example.demo',
          action: 'android.intent.action.MAIN',
          categories: ['android.intent.category.LAUNCHER'],
          extras: [
            ['s', 'mode', 'demo'],
            ['s', 'user', 'ana maría'],
          ],
          stop: true,
          wait: true,
        }),
    ]);
    server.commands.length = 0;
    const environment = await failure(driver.launchAppWith?.('com.example.demo', { environment: { A: '1' } }, live));
    const locale = await failure(driver.launchAppWith?.('com.example.demo', { locale: 'fr-FR' }, live));
    const odd = await failure(driver.launchAppWith?.('com.example.demo', { arguments: ['-x'] }, live));
    expect([environment.code, locale.code, odd.code]).toEqual(['unsupported_operation', 'unsupported_operation', 'invalid_argument']);
    expect(server.commands).toEqual([]);
    [environment, locale, odd].forEach(expectNeutral);

    server.answers = { startActivity: serverError('Error: Intent does not match any activities'), isAppInstalled: false };
    expect((await failure(driver.launchAppWith?.('com.example.gone', { arguments: ['a', 'b'] }, live))).code).toBe('app_not_found');
  });

  it('grants and takes back the permissions the app asks for; refuses "denied", reminders, and one the app does not ask for', async () => {
    server.answers = { isAppInstalled: true, getPermissions: ['android.permission.ACCESS_FINE_LOCATION', 'android.permission.CAMERA', 'android.permission.INTERNET'] };
    await driver.setPermission?.('com.example.demo', 'location', 'granted', live);
    await driver.setPermission?.('com.example.demo', 'camera', 'unset', live);
    expect(server.commands.filter((c) => c.startsWith('changePermissions'))).toEqual([
      'changePermissions {"permissions":["android.permission.ACCESS_FINE_LOCATION"],"appPackage":"com.example.demo","action":"grant"}',
      'changePermissions {"permissions":["android.permission.CAMERA"],"appPackage":"com.example.demo","action":"revoke"}',
    ]);
    server.commands.length = 0;
    const denied = await failure(driver.setPermission?.('com.example.demo', 'camera', 'denied', live));
    expect(denied.code).toBe('unsupported_operation');
    expect((await failure(driver.setPermission?.('com.example.demo', 'reminders', 'granted', live))).code).toBe('unsupported_operation');
    expect((await failure(driver.setPermission?.('com.example.demo', 'microphone', 'granted', live))).code).toBe('invalid_argument');
    expect(server.commands.filter((c) => c.startsWith('changePermissions'))).toEqual([]);
    expectNeutral(denied);
  });

  it('touches the fingerprint sensor on an emulator; refuses the rest and pushes; adds media with the scanner', async () => {
    await driver.biometric?.('match', live);
    expect(server.commands).toEqual(['fingerprint {"fingerprintId":1}']);
    for (const action of ['enroll', 'unenroll', 'fail'] as const) expect((await failure(driver.biometric?.(action, live))).code).toBe('unsupported_operation');
    server.answers = { fingerprint: serverError('fingerprint method is only available for emulators') };
    expect((await failure(driver.biometric?.('match', live))).message).toMatch(/this works on an Android emulator only/);
    const push = await failure(driver.pushNotification?.({ appId: 'com.example.demo', title: 'a', body: 'b' }, live));
    expect(push.code).toBe('unsupported_operation');
    expectNeutral(push);

    server.commands.length = 0;
    await driver.addMedia?.({ path: photo, kind: 'photo' }, live);
    expect(server.commands).toEqual([
      `pushFile ${JSON.stringify({ remotePath: '/sdcard/Pictures/beach_day.jpg', payload: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]).toString('base64') })}`,
      'broadcast {"action":"android.intent.action.MEDIA_SCANNER_SCAN_FILE","uri":"file:///sdcard/Pictures/beach_day.jpg"}',
    ]);
  });
});
