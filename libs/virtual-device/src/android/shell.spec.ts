import { eventually } from '@apex/testing';
import { boundsCenter, dumpUi, shellRun, type ShellResult } from '../testing';
import { createVirtualAndroid } from './virtual-android';

/** The shell's answers, in Android's own formats, through the ShellHandler the adbd calls. */
describe('virtual Android shell', () => {
  const run = async (command: string): Promise<ShellResult> => shellRun(createVirtualAndroid().backend.shell, command);

  it('reports the screen as wm does', async () => {
    expect((await run('wm size')).text).toBe('Physical size: 1080x2400\n');
    expect((await run('wm density')).text).toBe('Physical density: 420\n');
    const small = createVirtualAndroid({ profile: 'small-phone' }).backend.shell;
    expect((await shellRun(small, 'wm size')).text).toBe('Physical size: 720x1600\n');
    expect((await shellRun(small, 'wm density')).text).toBe('Physical density: 320\n');
  });

  it('answers unknown commands as /system/bin/sh does', async () => {
    const r = await run('frobnicate --now');
    expect(r.code).toBe(127);
    expect(r.stderr).toBe('/system/bin/sh: frobnicate: inaccessible or not found\n');
    expect(r.text).toBe('');
  });

  it('splits words like sh: quotes, escapes, pipes, && and ||', async () => {
    expect((await run(`echo 'a  b' "c\\"d" e\\ f`)).text).toBe('a  b c"d e f\n');
    expect((await run('echo one; echo two')).text).toBe('one\ntwo\n');
    // A quote inside single quotes, the way drivers quote a word: close, escaped quote, reopen.
    expect((await run(`echo 'it'\\''s' 'a;b'`)).text).toBe("it's a;b\n");
    expect((await run('getprop ro.product.model; getprop ro.build.version.release')).text).toBe('Pixel 8\n14\n');
    expect((await run('false && echo no || echo yes')).text).toBe('yes\n');
    // $? is the status of the command before (drivers run several commands in one shell and read each status).
    expect((await run(`false; echo ::$?; true; echo "s=$?" '$?'; frobnicate 2>&1; echo $?`)).text).toBe('::1\ns=0 $?\n/system/bin/sh: frobnicate: inaccessible or not found\n127\n');
    expect((await run('dumpsys window | grep mCurrentFocus')).text).toMatch(/^ {2}mCurrentFocus=Window\{[0-9a-f]+ u0 com\.google\.android\.apps\.nexuslauncher\/com\.google\.android\.apps\.nexuslauncher\.NexusLauncherActivity\}\n$/);
    const broken = await run("echo 'open");
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toContain('/system/bin/sh:');
  });

  it('answers getprop with the Android 14 identity', async () => {
    const { backend } = createVirtualAndroid();
    const prop = async (k: string) => (await shellRun(backend.shell, `getprop ${k}`)).text;
    expect(await prop('ro.build.version.release')).toBe('14\n');
    expect(await prop('ro.build.version.sdk')).toBe('34\n');
    expect(await prop('ro.product.model')).toBe('Pixel 8\n');
    expect(await prop('ro.product.manufacturer')).toBe('Google\n');
    expect(await prop('ro.serialno')).toBe('APEXVIRT0001\n');
    expect(await prop('no.such.key')).toBe('\n');
    const all = (await shellRun(backend.shell, 'getprop')).text;
    expect(all).toContain('[ro.build.version.release]: [14]\n');
    expect(backend.identity).toEqual({ product: 'shiba', model: 'Pixel 8', device: 'shiba' });
  });

  it('lists packages, paths, features and launcher activities', async () => {
    const list = (await run('pm list packages')).text.split('\n').filter(Boolean);
    expect(list.every((l) => l.startsWith('package:'))).toBe(true);
    expect(list).toEqual(expect.arrayContaining(['package:com.android.chrome', 'package:com.android.settings', 'package:com.google.android.apps.maps']));
    expect((await run('pm list packages -3')).text).toBe('');
    expect((await run('pm list packages -f chrome')).text).toBe('package:/product/app/Chrome/Chrome.apk=com.android.chrome\n');
    expect((await run('pm path com.android.chrome')).text).toBe('package:/product/app/Chrome/Chrome.apk\n');
    expect((await run('pm path com.example.none')).code).toBe(1);
    expect((await run('pm list features')).text).toContain('feature:android.hardware.touchscreen\n');
    const q = (await run('cmd package query-activities -a android.intent.action.MAIN -c android.intent.category.LAUNCHER')).text;
    const pkgs = q.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('packageName=')).map((l) => l.slice('packageName='.length));
    expect(pkgs).toEqual(expect.arrayContaining(['com.android.settings', 'com.android.chrome', 'com.google.android.calculator']));
  });

  it('reads and writes settings tables, and svc / cmd change them', async () => {
    const { backend } = createVirtualAndroid();
    const sh = (c: string) => shellRun(backend.shell, c);
    expect((await sh('settings get global wifi_on')).text).toBe('1\n');
    expect((await sh('settings get system no_such_key')).text).toBe('null\n');
    await sh('svc wifi disable');
    expect((await sh('settings get global wifi_on')).text).toBe('0\n');
    await sh('cmd connectivity airplane-mode enable');
    expect((await sh('settings get global airplane_mode_on')).text).toBe('1\n');
    expect((await sh('cmd connectivity airplane-mode')).text).toBe('enabled\n');
    expect((await sh('cmd uimode night yes')).text).toBe('Night mode: yes\n');
    expect((await sh('settings get secure ui_night_mode')).text).toBe('2\n');
    await sh('settings put system screen_off_timeout 120000');
    expect((await sh('settings get system screen_off_timeout')).text).toBe('120000\n');
    await sh('content insert --uri content://settings/system --bind name:s:user_rotation --bind value:i:1');
    expect((await sh('settings get system user_rotation')).text).toBe('1\n');
  });

  it('reports battery, power, display and SurfaceFlinger the way peers parse them', async () => {
    const { backend } = createVirtualAndroid();
    const sh = async (c: string) => (await shellRun(backend.shell, c)).text;
    expect(await sh('dumpsys battery')).toMatch(/^ {2}level: 85$/m);
    expect(await sh('dumpsys power')).toMatch(/^ {2}mWakefulness=Awake$/m);
    await shellRun(backend.shell, 'input keyevent POWER');
    expect(await sh('dumpsys power')).toMatch(/^ {2}mWakefulness=Asleep$/m);
    await shellRun(backend.shell, 'input keyevent KEYCODE_WAKEUP');
    expect((await sh('dumpsys SurfaceFlinger --display-id')).split('\n').filter((l) => l.startsWith('Display ')).length).toBe(1);
    const displays = (await sh('cmd display get-displays')).split('\n').filter((l) => l.startsWith('Display id ') && l.includes(', state ON,') && l.includes(', uniqueId '));
    expect(displays).toHaveLength(1);
    expect(/uniqueId "([^"]+)"/.exec(displays[0])?.[1]).toBe('local:4619827259835644672');
    expect(await sh('dumpsys display')).toMatch(/DisplayViewport\{type=INTERNAL[^}]*isActive=true[^}]*uniqueId='local:4619827259835644672'/);
  });

  it('keeps a logcat in threadtime format of what the phone did', async () => {
    const times = [Date.UTC(2026, 11, 6, 14, 5, 1, 123)];
    const { backend } = createVirtualAndroid({ now: () => times[0] });
    await shellRun(backend.shell, 'monkey -p com.android.chrome -c android.intent.category.LAUNCHER 1');
    const log = (await shellRun(backend.shell, 'logcat -d')).text;
    expect(log.startsWith('--------- beginning of main\n')).toBe(true);
    expect(log).toMatch(/^12-06 14:05:01\.123 {2}\s*612 {2}\s*612 I ActivityTaskManager: START u0 \{.*cmp=com\.android\.chrome\/com\.google\.android\.apps\.chrome\.Main\} from uid 2000$/m);
    expect(log).toMatch(/ I ActivityManager: Start proc \d+:com\.android\.chrome\/u0a\d+ for top-activity/);
    await shellRun(backend.shell, 'logcat -c');
    expect((await shellRun(backend.shell, 'logcat -d')).text).toBe('--------- beginning of main\n');
  });

  it('prints monkey and am start output and launches', async () => {
    const { backend, phone } = createVirtualAndroid();
    const m = await shellRun(backend.shell, 'monkey -p com.android.settings -c android.intent.category.LAUNCHER 1');
    expect(m.code).toBe(0);
    expect(m.text).toContain('Events injected: 1\n');
    expect(phone.focus().pkg).toBe('com.android.settings');
    const none = await shellRun(backend.shell, 'monkey -p com.example.none -c android.intent.category.LAUNCHER 1');
    expect(none.text).toContain('** No activities found to run, monkey aborted.');
    expect(none.code).not.toBe(0);
    const s = await shellRun(backend.shell, 'am start -n com.google.android.calculator/com.android.calculator2.Calculator');
    expect(s.text).toBe('Starting: Intent { cmp=com.google.android.calculator/com.android.calculator2.Calculator }\n');
    expect((await shellRun(backend.shell, 'dumpsys activity activities')).text).toMatch(/mResumedActivity: ActivityRecord\{[0-9a-f]+ u0 com\.google\.android\.calculator\/com\.android\.calculator2\.Calculator t\d+\}/);
    expect((await shellRun(backend.shell, 'dumpsys activity activities')).text).toMatch(/topResumedActivity=ActivityRecord\{[0-9a-f]+ u0 com\.google\.android\.calculator\//);
    const bad = await shellRun(backend.shell, 'am start -n com.example.none/.Main');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('Error: Activity class {com.example.none/com.example.none.Main} does not exist.');
    await shellRun(backend.shell, 'am force-stop com.google.android.calculator');
    expect(phone.focus().pkg).toBe('com.google.android.apps.nexuslauncher');
    expect(phone.pidOf('com.google.android.calculator')).toBeUndefined();
  });

  it('writes uiautomator dump into the device files when given a path', async () => {
    const { backend } = createVirtualAndroid();
    const r = await shellRun(backend.shell, 'uiautomator dump /sdcard/ui.xml');
    expect(r.text).toBe('UI hierchary dumped to: /sdcard/ui.xml\n');
    const file = backend.files.read('/sdcard/ui.xml');
    expect(Buffer.from(file ?? []).toString('utf8')).toMatch(/^<\?xml version='1\.0' encoding='UTF-8' standalone='yes' \?><hierarchy rotation="0">/);
    expect((await shellRun(backend.shell, 'cat /sdcard/ui.xml')).stdout.equals(Buffer.from(file ?? []))).toBe(true);
    expect((await shellRun(backend.shell, 'uiautomator dump')).text).toBe('UI hierchary dumped to: /sdcard/window_dump.xml\n');
    expect((await shellRun(backend.shell, 'ls /sdcard')).text).toContain('window_dump.xml\n');
    expect((await shellRun(backend.shell, 'cat /sdcard/none')).stderr).toBe('cat: /sdcard/none: No such file or directory\n');
  });

  it('dumps every node with all uiautomator attributes, in order, bounds in pixels', async () => {
    const { backend } = createVirtualAndroid();
    const ui = await dumpUi(backend.shell);
    expect(ui.root.tag).toBe('hierarchy');
    expect(ui.root.attributes).toEqual({ rotation: '0' });
    const order = ['index', 'text', 'resource-id', 'class', 'package', 'content-desc', 'checkable', 'checked', 'clickable', 'enabled', 'focusable', 'focused', 'scrollable', 'long-clickable', 'password', 'selected', 'bounds'];
    for (const n of ui.nodes) expect(Object.keys(n.attributes)).toEqual(order);
    expect(ui.nodes[0].attributes.bounds).toBe('[0,0][1080,2400]');
    const chrome = ui.byText('Chrome');
    expect(chrome.attributes).toMatchObject({ class: 'android.widget.TextView', package: 'com.google.android.apps.nexuslauncher', clickable: 'true' });
    const { x, y } = boundsCenter(chrome.attributes.bounds);
    expect(x).toBeGreaterThan(0);
    expect(x).toBeLessThan(1080);
    expect(y).toBeGreaterThan(1200);
  });

  it('types text with %s for spaces, and keyevents by name and number', async () => {
    const { backend, phone } = createVirtualAndroid();
    const sh = (c: string) => shellRun(backend.shell, c);
    await sh('am start -n com.google.android.apps.messaging/.ui.ConversationListActivity');
    const list = await dumpUi(backend.shell);
    const row = boundsCenter(list.byText('Ada Lovelace').attributes.bounds);
    await sh(`input tap ${row.x} ${row.y}`);
    const field = boundsCenter((await dumpUi(backend.shell)).find((a) => a['resource-id'] === 'com.google.android.apps.messaging:id/compose_message_text')?.attributes.bounds ?? '');
    await sh(`input tap ${field.x} ${field.y}`);
    expect((await sh('dumpsys input_method')).text).toMatch(/mInputShown=true/);
    await sh('input text "Hello%sthere"');
    await sh('input keyevent 67');
    await sh('input keyevent KEYCODE_E');
    expect((await dumpUi(backend.shell)).find((a) => a['resource-id'] === 'com.google.android.apps.messaging:id/compose_message_text')?.attributes.text).toBe('Hello there');
    await sh('input keyevent ENTER');
    const after = await dumpUi(backend.shell);
    expect(after.texts()).toContain('Hello there');
    expect(after.find((a) => a['resource-id'] === 'com.google.android.apps.messaging:id/compose_message_text')?.attributes.text).toBe('Text message');
    await sh('input keyevent BACK');
    expect((await sh('dumpsys input_method')).text).toMatch(/mInputShown=false/);
    expect(phone.focus().activity).toBe('com.google.android.apps.messaging.ui.conversation.ConversationActivity');
    await sh('input keyevent 4');
    expect(phone.focus().activity).toBe('com.google.android.apps.messaging.ui.ConversationListActivity');
    // An unknown key name is KEYCODE_UNKNOWN on Android: injected, to no effect.
    expect((await sh('input keyevent NOT_A_KEY')).code).toBe(0);
    expect(phone.focus().activity).toBe('com.google.android.apps.messaging.ui.ConversationListActivity');
  });

  it('fails as the input command of Android does on bad arguments and on characters without a key', async () => {
    const { backend, phone } = createVirtualAndroid();
    const sh = (c: string) => shellRun(backend.shell, c);
    const tap = await sh('input tap 10 nope');
    expect(tap.code).toBe(255);
    expect(tap.stderr).toBe("Exception occurred while executing 'tap':\njava.lang.IllegalArgumentException: Error: Invalid arguments for command: tap\n");
    await sh('am start -n com.android.chrome/com.google.android.apps.chrome.Main');
    const url = (await dumpUi(backend.shell)).find((a) => a['resource-id'] === 'com.android.chrome:id/url_bar');
    const c = boundsCenter(url?.attributes.bounds ?? '');
    // A tap as two motion events, DOWN then UP at the same point.
    await sh(`input motionevent DOWN ${c.x} ${c.y}`);
    await sh(`input motionevent UP ${c.x} ${c.y}`);
    expect(phone.keyboardShown()).toBe(true);
    const nonAscii = await sh('input text "café"');
    expect(nonAscii.code).toBe(255);
    expect(nonAscii.stderr).toContain('java.lang.NullPointerException');
    const urlText = async () => (await dumpUi(backend.shell)).find((a) => a['resource-id'] === 'com.android.chrome:id/url_bar')?.attributes.text;
    expect(await urlText()).toBe('https://apex.example/');
    expect((await sh('input text cafe')).code).toBe(0);
    expect(await urlText()).toBe('cafe');
    expect((await sh('input')).text).toContain('Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]');
  });

  it('runs an interactive shell line by line, with its prompt, until exit', async () => {
    const r = await shellRun(createVirtualAndroid().backend.shell, '', 'getprop ro.build.version.sdk\nnosuch\nexit 3\necho never\n');
    expect(r.text).toBe('shiba:/ $ 34\nshiba:/ $ 127|shiba:/ $ ');
    expect(r.stderr).toBe('/system/bin/sh: nosuch: inaccessible or not found\n');
    expect(r.code).toBe(3);
  });

  it('follows logcat until the client goes away', async () => {
    const { backend, phone } = createVirtualAndroid();
    const controller = new AbortController();
    const out: string[] = [];
    const done = backend.shell({
      command: 'logcat',
      pty: false,
      write: (d) => out.push(Buffer.from(d).toString('utf8')),
      writeError: () => undefined,
      stdin: (async function* () {
        // The client sends nothing on stdin.
      })(),
      signal: controller.signal,
    });
    phone.launch('com.android.settings');
    await eventually(() => out.join('').includes('cmp=com.android.settings/.Settings'), { timeoutMs: 10_000, what: 'the START line in the followed logcat' });
    controller.abort();
    await expect(done).resolves.toBe(0);
  });

  it('reports focus, keyboard, lock and orientation in the lines drivers parse', async () => {
    const { backend } = createVirtualAndroid();
    const sh = async (c: string) => (await shellRun(backend.shell, c)).text;
    await shellRun(backend.shell, 'am start -n com.android.settings/.Settings');
    const win = await sh('dumpsys window displays');
    // The expressions Appium's adb helper matches.
    const app = /mFocusedApp.+Record\{.*\s([^\s/}]+)\/([^\s/},]+),?(\s[^\s/}]+)*\}/.exec(win);
    expect([app?.[1], app?.[2]]).toEqual(['com.android.settings', '.Settings']);
    const current = /mCurrentFocus.+\s([^\s/}]+)\/([^\s/}]+)\}/.exec(win);
    expect([current?.[1], current?.[2]]).toEqual(['com.android.settings', 'com.android.settings.Settings']);
    expect(win).toMatch(/mShowingLockscreen=false/);
    expect(await sh('dumpsys input_method')).toMatch(/mIsInputViewShown=false/);
    expect(await sh('dumpsys input')).toMatch(/SurfaceOrientation: 0/);
    await shellRun(backend.shell, 'settings put system user_rotation 1');
    expect(await sh('dumpsys input')).toMatch(/SurfaceOrientation: 1/);
    expect(await sh('dumpsys window')).toMatch(/mUserRotation=ROTATION_90/);
  });
});
