import { createServer, type Server, type Socket } from 'node:net';
import { ApexError, LEAKY_WORDS } from '@apex/errors';
import { createAdbDriver, type AdbDriver } from '@apex/driver-adb';
import type { UiNode } from '@apex/port';
import { startAdbd, type Adbd } from '@apex/virtual-device';
import { describeWithRealAdb, freePort, startRealAdbServer, type RealAdbServer } from '@apex/virtual-device/testing';
import { eventually } from '@apex/testing';
import { ScriptedAndroid, SCRIPTED_PROFILE } from '../support/scripted-android';

/**
 * The ADB driver through a REAL adb server (Debian's adb, private port) to the virtual adbd, with a scripted
 * Android behind it: exact command lines, Android's output formats, and failures the phone rarely shows.
 */

async function failure(promise: Promise<unknown>): Promise<ApexError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApexError) return error;
    throw new Error(`not an ApexError: ${String(error)}`);
  }
  throw new Error('resolved');
}

const live = (): AbortSignal => AbortSignal.timeout(20_000);
/** Driver words no error or tree may show: the one list (LEAKY_WORDS), plus Android class names and the launcher tool. */
const LEAKS = new RegExp(`${LEAKY_WORDS.source}|com\\.android\\.[A-Za-z]+\\.[A-Z]|monkey`, 'i');

describeWithRealAdb('driver-adb through a real adb server, on a scripted Android', () => {
  let adb: RealAdbServer;
  let adbd: Adbd;
  let phone: ScriptedAndroid;
  let driver: AdbDriver;

  beforeAll(async () => {
    phone = new ScriptedAndroid();
    adbd = await startAdbd({ backend: phone.backend(), host: '127.0.0.1' });
    adb = await startRealAdbServer();
    // Reached by host:port: the driver asks the server to connect (nothing else has).
    driver = createAdbDriver({ deviceId: 'pixel', server: { host: '127.0.0.1', port: adb.port }, device: { host: adbd.serial } });
  }, 60_000);

  afterAll(async () => {
    await adb?.stop();
    await adbd?.close();
  }, 30_000);

  beforeEach(() => {
    phone.commands.length = 0;
  });

  it('connects to a TCP device through the server, then reports status in dp with Android’s facts', async () => {
    const status = await driver.status(live());
    expect(status).toEqual({
      platform: 'android',
      osVersion: '14',
      model: 'Google Pixel 7',
      name: 'Google Pixel 7',
      screen: { width: 411.43, height: 914.29, scale: 2.625 },
      orientation: 'portrait',
      foregroundApp: { appId: 'com.google.android.apps.nexuslauncher' },
      battery: { level: 0.87, state: 'charging' },
      locked: false,
    });
    expect((await adb.run(['devices'])).stdout.toString()).toContain(`${adbd.serial}\tdevice`);
    expect(await driver.screen(live())).toEqual(status.screen);
  });

  it('captures the screen as the device’s PNG with its pixel size and scale', async () => {
    const shot = await driver.screenshot(live());
    expect(shot).toMatchObject({ width: SCRIPTED_PROFILE.widthPx, height: SCRIPTED_PROFILE.heightPx, scale: 2.625 });
    expect(shot.png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('taps, swipes, long-presses, double-taps and drags in device pixels', async () => {
    await driver.tap({ x: 100, y: 200 }, live());
    await driver.swipe({ from: { x: 10, y: 800 }, to: { x: 10, y: 100 }, durationMs: 300 }, live());
    await driver.longPress({ point: { x: 50.2, y: 60 }, durationMs: 1000 }, live());
    await driver.doubleTap({ x: 200, y: 400 }, live());
    await driver.swipe({ from: { x: 100, y: 100 }, to: { x: 100, y: 300 }, durationMs: 200, holdMs: 600 }, live());
    expect(phone.commands).toEqual([
      'input tap 263 525',
      'input swipe 26 2100 26 263 300',
      'input swipe 132 158 132 158 1000',
      'input tap 525 1050 && input tap 525 1050',
      'input draganddrop 263 263 263 788 800',
    ]);
    phone.androidBefore12 = true;
    phone.commands.length = 0;
    await driver.swipe({ from: { x: 100, y: 100 }, to: { x: 100, y: 300 }, durationMs: 200, holdMs: 600 }, live());
    phone.androidBefore12 = false;
    expect(phone.commands).toEqual(['input draganddrop 263 263 263 788 800', 'input swipe 263 263 263 788 800']);
  });

  it('types text exactly, shell metacharacters and "%s" included, and refuses what the key map cannot type', async () => {
    phone.typed.length = 0;
    const text = `it's $HOME; "quoted" & 100%sure | done`;
    await driver.typeText({ text, submit: true }, live());
    expect(phone.typed.join('')).toBe(`${text}\n`);
    // Backspaces are the delete key (`clear` sends one per character): one key-event command for the run.
    phone.typed.length = 0;
    phone.commands.length = 0;
    await driver.typeText({ text: '\b\b\bnew' }, live());
    expect(phone.commands).toEqual([`input keyevent 67 67 67 && input text new`]);
    expect(phone.typed.join('')).toBe('\b\b\bnew');
    phone.typed.length = 0;
    await driver.typeText({ text, submit: true }, live());
    const refused = await failure(driver.typeText({ text: 'héllo 🙂' }, live()));
    expect(refused.code).toBe('unsupported_operation');
    expect(refused.message).toContain('"é", "🙂"');
    expect(phone.typed.join('')).toBe(`${text}\n`);
  });

  it('launches by package, stops it (true, then false), and says app_not_found for an unknown package', async () => {
    await driver.launchApp('com.android.settings', live());
    expect(phone.commands[0]).toBe('monkey -p com.android.settings -c android.intent.category.LAUNCHER 1');
    expect((await driver.foregroundApp(live()))?.appId).toBe('com.android.settings');
    expect(await driver.terminateApp('com.android.settings', live())).toBe(true);
    expect(await driver.terminateApp('com.android.settings', live())).toBe(false);
    expect((await failure(driver.launchApp('com.example.not.installed', live()))).code).toBe('app_not_found');
    expect((await failure(driver.terminateApp('com.example.not.installed', live()))).code).toBe('app_not_found');
    expect((await failure(driver.launchApp('x; reboot', live()))).code).toBe('app_not_found');
  });

  it('lists every launchable app, complete, with names for the system apps', async () => {
    await driver.launchApp('com.android.chrome', live());
    const listed = await driver.listApps(live());
    expect(listed.complete).toBe(true);
    expect(listed.apps).toEqual([
      { appId: 'com.android.settings', name: 'Settings', running: false },
      { appId: 'com.android.chrome', name: 'Chrome', running: true },
      { appId: 'com.google.android.apps.maps', name: 'Maps', running: false },
    ]);
    await driver.terminateApp('com.android.chrome', live());
  });

  it('presses home, back, recents and the volume keys as key events', async () => {
    for (const button of ['home', 'back', 'recents', 'volumeUp', 'volumeDown'] as const) await driver.pressButton(button, live());
    expect(phone.commands).toEqual(['input keyevent 3', 'input keyevent 4', 'input keyevent 187', 'input keyevent 24', 'input keyevent 25']);
  });

  it('opens web addresses, and an address no app handles is invalid_argument', async () => {
    await driver.openUrl('https://example.com/a?b=c&d=e', live());
    expect(phone.commands[0]).toBe(`am start -a android.intent.action.VIEW -d 'https://example.com/a?b=c&d=e'`);
    expect((await driver.foregroundApp(live()))?.appId).toBe('com.android.chrome');
    expect((await failure(driver.openUrl('nosuch://x', live()))).code).toBe('invalid_argument');
    await driver.pressButton('home', live());
  });

  it('turns, locks and unlocks, switches night mode, as its status and captures show', async () => {
    await driver.setOrientation('landscape', live());
    let status = await driver.status(live());
    expect(status.orientation).toBe('landscape');
    expect(status.screen).toEqual({ width: 914.29, height: 411.43, scale: 2.625 });
    expect((await driver.screenshot(live())).width).toBe(SCRIPTED_PROFILE.heightPx);
    await driver.setOrientation('portrait', live());
    await driver.setLocked(true, live());
    expect((await driver.status(live())).locked).toBe(true);
    phone.keyguard = true;
    await driver.setLocked(false, live());
    status = await driver.status(live());
    expect(status.locked).toBe(false);
    const light = await driver.screenshot(live());
    await driver.setAppearance('dark', live());
    expect((await driver.screenshot(live())).png.equals(light.png)).toBe(false);
    await driver.setAppearance('light', live());
    expect(phone.commands).toContain('cmd uimode night yes');
  });

  it('finds the runtime-permission dialog in the tree and answers it by a button label', async () => {
    await driver.launchApp('com.google.android.apps.maps', live());
    const tree = await driver.uiTree(live());
    expect(tree.role).toBe('app');
    const shown = await driver.alert(live());
    expect(shown).toEqual({ text: 'Allow Maps to access this device’s location?', buttons: ['While using the app', 'Only this time', 'Don’t allow'] });
    expect((await failure(driver.handleAlert({ kind: 'press', button: 'No Such Button' }, live()))).code).toBe('element_not_found');
    await driver.handleAlert({ kind: 'press', button: 'only this time' }, live());
    expect(await driver.alert(live())).toBeUndefined();
    expect((await failure(driver.handleAlert({ kind: 'accept' }, live()))).code).toBe('element_not_found');
    await driver.terminateApp('com.google.android.apps.maps', live());
  });

  it('hides the keyboard with Back only when one is shown', async () => {
    await driver.launchApp('com.android.chrome', live());
    await driver.tap({ x: 200, y: 100 }, live());
    expect(phone.keyboard).toBe(true);
    // The keyboard is its own window: the tree gains it, placed where the window manager says (840 px = 320 dp).
    const keyboards = (root: UiNode) => root.children.filter((n) => n.role === 'keyboard');
    expect(keyboards(await driver.uiTree(live())).map((k) => k.bounds)).toEqual([{ x: 0, y: 594.29, width: 411.43, height: 320 }]);
    await driver.hideKeyboard(live());
    expect(phone.keyboard).toBe(false);
    expect(keyboards(await driver.uiTree(live()))).toEqual([]);
    phone.commands.length = 0;
    await driver.hideKeyboard(live());
    expect(phone.commands).toEqual(['dumpsys input_method']);
    expect(phone.foreground).toBe('com.android.chrome');
    await driver.terminateApp('com.android.chrome', live());
  });

  it('says what Android cannot do over its debugging shell, naming the device and the reason', async () => {
    for (const refused of [
      await failure(driver.pinch({ center: { x: 100, y: 100 }, scale: 2, durationMs: 300 }, live())),
      await failure(driver.getClipboard(live())),
      await failure(driver.setClipboard('x', live())),
    ]) {
      expect(refused.code).toBe('unsupported_operation');
      expect(refused.message).toMatch(/^Device pixel cannot .+: .+/);
    }
  });

  it('ends a hanging command when its signal aborts: device_timeout, the device’s stream closed, the next call served', async () => {
    phone.hangEverything = true;
    const controller = new AbortController();
    const pending = failure(driver.tap({ x: 10, y: 10 }, controller.signal));
    await eventually(() => phone.hanging.size === 1, { timeoutMs: 10_000, what: 'the tap to hang on the device' });
    controller.abort();
    expect((await pending).code).toBe('device_timeout');
    // The server closed the device's stream: the command's session on the device was aborted.
    await eventually(() => phone.aborted.includes('input tap 26 26'), { timeoutMs: 10_000, what: 'the hanging command to be ended on the device' });
    phone.hangEverything = false;
    await driver.tap({ x: 10, y: 10 }, live());
    expect((await failure(driver.screen(AbortSignal.abort()))).code).toBe('device_timeout');
  });

  it('every error it gives and every role it returns is in Apex’s words', async () => {
    const errors = [
      await failure(driver.launchApp('com.example.not.installed', live())),
      await failure(driver.openUrl('nosuch://x', live())),
      await failure(driver.typeText({ text: 'é' }, live())),
      await failure(driver.pinch({ center: { x: 1, y: 1 }, scale: 2, durationMs: 1 }, live())),
      await failure(driver.getClipboard(live())),
    ];
    for (const error of errors) expect(`${error.message} ${error.hint ?? ''}`).not.toMatch(LEAKS);
    await driver.launchApp('com.google.android.apps.maps', live());
    const flat = JSON.stringify(await driver.uiTree(live()));
    expect(flat).not.toMatch(LEAKS);
    await driver.terminateApp('com.google.android.apps.maps', live());
  });
});

describeWithRealAdb('driver-adb: a device the server cannot give', () => {
  let adb: RealAdbServer;

  beforeAll(async () => {
    adb = await startRealAdbServer();
  }, 60_000);
  afterAll(async () => {
    await adb?.stop();
  }, 30_000);

  it('an unknown serial is device_offline naming the serial, without driver words', async () => {
    const driver = createAdbDriver({ deviceId: 'pixel', server: { host: '127.0.0.1', port: adb.port }, device: { serial: 'emulator-5554' } });
    const error = await failure(driver.status(live()));
    expect(error.code).toBe('device_offline');
    expect(error.message).toContain('"emulator-5554"');
    expect(`${error.message} ${error.hint}`).not.toMatch(LEAKS);
  });

  it('no server listening is device_offline naming the address', async () => {
    const port = await freePort();
    const driver = createAdbDriver({ deviceId: 'pixel', server: { host: '127.0.0.1', port }, device: { serial: 'emulator-5554' } });
    const error = await failure(driver.tap({ x: 1, y: 1 }, live()));
    expect(error.code).toBe('device_offline');
    expect(error.message).toContain(`127.0.0.1:${port}`);
  });

  it('a TCP device that never answers ends with device_timeout when the caller gives up', async () => {
    const held: Socket[] = [];
    const silent: Server = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const driver = createAdbDriver({ deviceId: 'pixel', server: { host: '127.0.0.1', port: adb.port }, device: { host: `127.0.0.1:${port}` } });
    const error = await failure(driver.status(AbortSignal.timeout(3_000)));
    expect(error.code).toBe('device_timeout');
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
});
