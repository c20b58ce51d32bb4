import { boundsCenter, dumpUi, shellRun, tapText, type UiDump } from '../testing';
import { createVirtualAndroid, type VirtualAndroid } from './virtual-android';

/** Screens and their state, driven the way an adb client drives a phone: taps on dump bounds, key events. */
describe('virtual Android screens', () => {
  let device: VirtualAndroid;
  const sh = (c: string) => shellRun(device.backend.shell, c);
  const dump = (): Promise<UiDump> => dumpUi(device.backend.shell);
  const tap = (text: string) => tapText(device.backend.shell, text);
  const focusLine = async () => /mCurrentFocus=Window\{[0-9a-f]+ u0 ([^}]+)\}/.exec((await sh('dumpsys window')).text)?.[1];

  beforeEach(() => {
    device = createVirtualAndroid();
  });

  it('turns Wi-Fi off from Settings → Network & internet → Internet', async () => {
    await tap('Settings');
    expect(await focusLine()).toBe('com.android.settings/com.android.settings.Settings');
    await tap('Network & internet');
    await tap('Internet');
    expect(await focusLine()).toBe('com.android.settings/com.android.settings.SubSettings');
    const before = await dump();
    const wifiSwitch = before.find((a) => a.class === 'android.widget.Switch' && a['resource-id'] === 'android:id/switch_widget');
    expect(wifiSwitch?.attributes).toMatchObject({ checkable: 'true', checked: 'true', clickable: 'true' });
    expect(before.texts()).toContain('AndroidWifi');
    const png = (await sh('screencap -p')).stdout;
    const { x, y } = boundsCenter(wifiSwitch?.attributes.bounds ?? '');
    await sh(`input tap ${x} ${y}`);
    expect((await sh('settings get global wifi_on')).text).toBe('0\n');
    const after = await dump();
    expect(after.find((a) => a['resource-id'] === 'android:id/switch_widget')?.attributes.checked).toBe('false');
    expect(after.texts()).not.toContain('AndroidWifi');
    expect((await sh('screencap -p')).stdout.equals(png)).toBe(false);
    // Back twice: Network & internet, then the Settings root.
    await sh('input keyevent KEYCODE_BACK');
    expect((await dump()).texts()).toContain('Airplane mode');
    await sh('input keyevent 4');
    expect(await focusLine()).toBe('com.android.settings/com.android.settings.Settings');
  });

  it('shows the Android version and model under About phone, and Bluetooth and Dark theme switches', async () => {
    await sh('am start -n com.android.settings/.Settings');
    await sh('input swipe 540 1900 540 300 300');
    await tap('About phone');
    const about = (await dump()).texts();
    expect(about).toEqual(expect.arrayContaining(['Android version', '14', 'Model', 'Pixel 8']));
    await sh('am start -a android.settings.BLUETOOTH_SETTINGS');
    await tap('Use Bluetooth');
    expect((await sh('settings get global bluetooth_on')).text).toBe('0\n');
    await sh('am start -a android.settings.DISPLAY_SETTINGS');
    await tap('Dark theme');
    expect((await sh('cmd uimode night')).text).toBe('Night mode: yes\n');
  });

  it('asks Maps for location on first launch and follows each answer as Android does', async () => {
    await sh('monkey -p com.google.android.apps.maps -c android.intent.category.LAUNCHER 1');
    let ui = await dump();
    expect(ui.nodes[0].attributes.package).toBe('com.google.android.permissioncontroller');
    expect(ui.texts()).toEqual(expect.arrayContaining(['While using the app', 'Only this time', 'Don\u2019t allow']));
    expect(ui.byText('Only this time').attributes['resource-id']).toBe('com.android.permissioncontroller:id/permission_allow_one_time_button');
    expect(await focusLine()).toBe('com.google.android.permissioncontroller/com.android.permissioncontroller.permission.ui.GrantPermissionsActivity');

    // Only this time: granted until the app stops; then it asks again.
    await tap('Only this time');
    ui = await dump();
    expect(ui.nodes[0].attributes.package).toBe('com.google.android.apps.maps');
    expect(ui.texts()).toContain('You are here');
    await sh('input keyevent HOME');
    await sh('monkey -p com.google.android.apps.maps -c android.intent.category.LAUNCHER 1');
    expect((await dump()).nodes[0].attributes.package).toBe('com.google.android.apps.maps');
    await sh('am force-stop com.google.android.apps.maps');
    await sh('monkey -p com.google.android.apps.maps -c android.intent.category.LAUNCHER 1');
    expect((await dump()).nodes[0].attributes.package).toBe('com.google.android.permissioncontroller');

    // Don't allow (twice): the second denial is final, no dialog any more.
    await tap('Don\u2019t allow');
    expect((await dump()).texts()).toContain('Location permission is off');
    await sh('am force-stop com.google.android.apps.maps');
    await sh('monkey -p com.google.android.apps.maps -c android.intent.category.LAUNCHER 1');
    expect((await dump()).nodes[0].attributes.package).toBe('com.google.android.permissioncontroller');
    // Back on the dialog denies too.
    await sh('input keyevent BACK');
    await sh('am force-stop com.google.android.apps.maps');
    await sh('monkey -p com.google.android.apps.maps -c android.intent.category.LAUNCHER 1');
    ui = await dump();
    expect(ui.nodes[0].attributes.package).toBe('com.google.android.apps.maps');
    expect(ui.texts()).toContain('Location permission is off');
  });

  it('remembers "While using the app" across restarts', async () => {
    await sh('am start -n com.google.android.apps.maps/com.google.android.maps.MapsActivity');
    await tap('While using the app');
    await sh('am force-stop com.google.android.apps.maps');
    await sh('am start -n com.google.android.apps.maps/com.google.android.maps.MapsActivity');
    const ui = await dump();
    expect(ui.nodes[0].attributes.package).toBe('com.google.android.apps.maps');
    expect(ui.texts()).toContain('You are here');
    const pkg = (await sh('dumpsys package com.google.android.apps.maps')).text;
    expect(pkg).toMatch(/^ {4}versionName=11\.110\.0101$/m);
    expect(pkg).toMatch(/android\.permission\.ACCESS_FINE_LOCATION: granted=true/);
    // pm clear: data and answers gone, the next launch asks again.
    expect((await sh('pm clear com.google.android.apps.maps')).text).toBe('Success\n');
    expect(await focusLine()).toBe('com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity');
    await sh('am start -n com.google.android.apps.maps/com.google.android.maps.MapsActivity');
    expect((await dump()).nodes[0].attributes.package).toBe('com.google.android.permissioncontroller');
    expect((await sh('dumpsys package com.google.android.apps.maps')).text).toMatch(/ACCESS_FINE_LOCATION: granted=false/);
  });

  it('browses in Chrome with the soft keyboard, and shows the offline page without a network', async () => {
    await tap('Chrome');
    expect((await dump()).texts()).toContain('Welcome to Apex');
    const url = (await dump()).find((a) => a['resource-id'] === 'com.android.chrome:id/url_bar');
    expect(url?.attributes).toMatchObject({ class: 'android.widget.EditText', text: 'apex.example' });
    const { x, y } = boundsCenter(url?.attributes.bounds ?? '');
    await sh(`input tap ${x} ${y}`);
    expect((await sh('dumpsys input_method')).text).toMatch(/mInputShown=true/);
    const keyboardShot = (await sh('screencap -p')).stdout;
    await sh('input text apex.example/docs');
    await sh('input keyevent 66');
    expect((await dump()).texts()).toContain('Getting started');
    expect((await sh('dumpsys input_method')).text).toMatch(/mInputShown=false/);
    expect((await sh('screencap -p')).stdout.equals(keyboardShot)).toBe(false);
    await sh('input keyevent BACK');
    expect((await dump()).texts()).toContain('Welcome to Apex');
    await sh('am start -a android.intent.action.VIEW -d https://www.example.org/page');
    expect((await dump()).texts()).toContain('No internet');
    await sh('am start -a android.intent.action.VIEW -d https://apex.example/');
    expect((await dump()).texts()).toContain('Welcome to Apex');
    await sh('cmd connectivity airplane-mode enable');
    await sh('input keyevent BACK');
    await sh('am start -a android.intent.action.VIEW -d https://apex.example/docs');
    expect((await dump()).texts()).toContain('ERR_INTERNET_DISCONNECTED');
  });

  it('pulls the notification shade down and toggles quick-settings tiles', async () => {
    await sh('input swipe 540 20 540 1200 300');
    let ui = await dump();
    expect(ui.nodes[0].attributes.package).toBe('com.android.systemui');
    expect(await focusLine()).toBe('NotificationShade');
    for (const tile of ['Internet', 'Bluetooth', 'Airplane mode', 'Dark theme']) expect(ui.byText(tile).attributes).toMatchObject({ class: 'android.widget.Switch', checkable: 'true' });
    expect(ui.byText('Airplane mode').attributes.checked).toBe('false');
    await tap('Airplane mode');
    expect((await sh('settings get global airplane_mode_on')).text).toBe('1\n');
    expect((await sh('settings get global wifi_on')).text).toBe('0\n');
    ui = await dump();
    expect(ui.byText('Airplane mode').attributes.checked).toBe('true');
    expect(ui.byText('Internet').attributes.checked).toBe('false');
    await sh('input keyevent BACK');
    expect((await dump()).nodes[0].attributes.package).toBe('com.google.android.apps.nexuslauncher');
  });

  it('goes home, back and to recents with the navigation keys and buttons', async () => {
    await sh('am start -n com.google.android.deskclock/com.android.deskclock.DeskClock');
    await tap('Stopwatch');
    expect((await dump()).find((a) => a['content-desc'] === 'Stopwatch')?.attributes.selected).toBe('true');
    await sh('input keyevent 3');
    expect(await focusLine()).toBe('com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity');
    await sh('input keyevent APP_SWITCH');
    await tap('Clock');
    expect((await dump()).find((a) => a['content-desc'] === 'Stopwatch')?.attributes.selected).toBe('true');
    // The nav bar is SystemUI's window: tap its Home button by position (it is not in the app's dump).
    const px = device.phone.scale;
    const { width, height } = device.phone.screenSizePx();
    await sh(`input tap ${width / 2} ${height - Math.round(24 * px)}`);
    expect(device.phone.focus().pkg).toBe('com.google.android.apps.nexuslauncher');
  });

  it('opens the app drawer with a swipe up and lists every app', async () => {
    await sh('input swipe 540 1500 540 500 200');
    const ui = await dump();
    expect(ui.find((a) => a['resource-id'] === 'com.google.android.apps.nexuslauncher:id/apps_list_view')).toBeDefined();
    for (const label of ['Calculator', 'Camera', 'Chrome', 'Clock', 'Contacts', 'Maps', 'Messages', 'Phone', 'Photos', 'Settings']) expect(ui.texts()).toContain(label);
    await tap('Calculator');
    await tap('7');
    await tap('multiply');
    await tap('6');
    await tap('equals');
    expect((await dump()).find((a) => a['resource-id'] === 'com.google.android.calculator:id/formula')?.attributes.text).toBe('42');
  });

  it('shows Photos buttons with no label at all, and Contacts details', async () => {
    await sh('am start -n com.google.android.apps.photos/.home.HomeActivity');
    const ui = await dump();
    const unlabeled = ui.nodes.filter((n) => n.attributes.class === 'android.widget.ImageButton' && n.attributes.text === '' && n.attributes['content-desc'] === '' && n.attributes.clickable === 'true');
    expect(unlabeled.length).toBeGreaterThanOrEqual(2);
    await sh('am start -n com.google.android.contacts/com.android.contacts.activities.PeopleActivity');
    await tap('Grace Hopper');
    expect((await dump()).texts()).toContain('+1 202-555-0143');
  });

  it('turns to landscape with user_rotation, as mobile-mcp sets it', async () => {
    await sh('settings put system accelerometer_rotation 0');
    await sh('content insert --uri content://settings/system --bind name:s:user_rotation --bind value:i:1');
    const ui = await dump();
    expect(ui.root.attributes.rotation).toBe('1');
    expect(ui.nodes[0].attributes.bounds).toBe('[0,0][2400,1080]');
    expect((await sh('dumpsys window')).text).toMatch(/mRotation=1 /);
    const png = (await sh('screencap -p')).stdout;
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2400, 1080]);
    expect((await sh('wm size')).text).toBe('Physical size: 1080x2400\n');
    // The navigation bar stands at the right edge: its Home button is in the middle of it.
    await sh('am start -n com.android.settings/.Settings');
    expect(device.phone.focus().pkg).toBe('com.android.settings');
    await sh(`input tap ${2400 - Math.round(24 * device.phone.scale)} ${Math.round(((1080 / device.phone.scale + 28) / 2) * device.phone.scale)}`);
    expect(device.phone.focus().pkg).toBe('com.google.android.apps.nexuslauncher');
  });

  it('locks when the screen goes off, and a swipe up or MENU opens it again', async () => {
    await sh('am start -n com.android.settings/.Settings');
    await sh('input keyevent POWER');
    expect((await sh('dumpsys power')).text).toMatch(/mWakefulness=Asleep/);
    await sh('input keyevent WAKEUP');
    const win = (await sh('dumpsys window')).text;
    expect(win).toMatch(/mShowingLockscreen=true/);
    expect(win).toMatch(/isStatusBarKeyguard=true/);
    expect(await focusLine()).toBe('NotificationShade');
    const ui = await dump();
    expect(ui.nodes[0].attributes.package).toBe('com.android.systemui');
    expect(ui.texts()).toContain('Swipe up to open');
    // Keys and taps do not reach Settings behind the keyguard.
    await sh('input keyevent HOME');
    await sh('input tap 540 1200');
    expect((await dump()).texts()).toContain('Swipe up to open');
    await sh('input swipe 540 2000 540 800 200');
    expect(await focusLine()).toBe('com.android.settings/com.android.settings.Settings');
    expect((await sh('dumpsys window')).text).toMatch(/mShowingLockscreen=false/);
    await sh('input keyevent 26');
    await sh('input keyevent 26');
    await sh('input keyevent 82');
    expect(await focusLine()).toBe('com.android.settings/com.android.settings.Settings');
  });
});
