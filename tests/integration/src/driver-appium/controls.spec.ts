import { centerOf, type UiNode } from '@apex/port';
import { createAppiumDriver, type AppiumDriver } from '@apex/driver-appium';
import { iosCapabilities, startAppiumServer, type AppiumServer } from '@apex/driver-appium/testing';
import {
  MAPS_ALERT_BUTTONS,
  MAPS_ALERT_MESSAGE,
  MAPS_ALERT_TITLE,
  MAPS_BUNDLE_ID,
  NOTES_BUNDLE_ID,
  SETTINGS_BUNDLE_ID,
  startVirtualIPhone,
  type VirtualIPhone,
} from '@apex/virtual-device';
import { RecordingProxy } from '../driver-wda/support/recording-proxy';

const live = new AbortController().signal;

function flatten(node: UiNode): UiNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

/**
 * The device controls of driver-appium through a real Appium server (XCUITest driver, webDriverAgentUrl
 * mode) to the virtual iPhone, with a recording proxy in front of the agent: what the server really sent
 * to the phone, and what the phone did.
 */
describe('driver-appium device controls through Appium to the virtual iPhone', () => {
  let server: AppiumServer;
  let iphone: VirtualIPhone;
  let proxy: RecordingProxy;
  let driver: AppiumDriver;

  const agentSaw = (from: number) =>
    proxy.requests.slice(from).map((r) => `${r.method} ${r.path.replace(/^\/session\/[^/]+/, '/session/:id')} ${r.body}`.trim());

  beforeAll(async () => {
    [server, iphone] = await Promise.all([startAppiumServer(), startVirtualIPhone({ port: 0 })]);
    proxy = await new RecordingProxy(iphone.url).start();
    driver = createAppiumDriver({ deviceId: 'iphone-ac', serverUrl: server.url, capabilities: iosCapabilities(proxy.url) });
    await driver.screen(live);
  });
  afterAll(async () => {
    await driver?.close(live);
    await server?.close();
    await proxy?.close();
    await iphone?.close();
  });
  beforeEach(async () => {
    if (iphone.phone.isLocked()) iphone.phone.unlock();
    iphone.phone.setOrientation('PORTRAIT');
    iphone.phone.goHome();
  });

  it('long press reaches the agent as touchAndHold (seconds) and opens the icon menu', async () => {
    const icon = flatten(await driver.uiTree(live)).find((n) => n.label === 'Settings' && n.visible);
    const point = centerOf((icon as UiNode).bounds);
    const start = proxy.requests.length;
    await driver.longPress?.({ point, durationMs: 800 }, live);
    expect(agentSaw(start).filter((l) => l.includes('touchAndHold'))).toHaveLength(1);
    expect(JSON.parse(proxy.requests.slice(start).find((r) => r.path.endsWith('/wda/touchAndHold'))?.body ?? '{}')).toMatchObject({ duration: 0.8 });
    expect(flatten(await driver.uiTree(live)).some((n) => n.label === 'Remove App')).toBe(true);
  });

  it('double tap and pinch reach the agent', async () => {
    const start = proxy.requests.length;
    await driver.doubleTap?.({ x: 100, y: 300 }, live);
    await driver.pinch?.({ center: { x: 195, y: 400 }, scale: 0.5, durationMs: 300 }, live);
    const seen = agentSaw(start);
    expect(seen.some((l) => l.startsWith('POST /session/:id/wda/doubleTap'))).toBe(true);
    const actions = proxy.requests.slice(start).find((r) => r.path.endsWith('/actions'));
    expect((JSON.parse(actions?.body ?? '{}') as { actions: unknown[] }).actions).toHaveLength(2);
  });

  it('refuses the Back and Recents buttons (an iPhone has neither) before asking the agent', async () => {
    const start = proxy.requests.length;
    await expect(driver.pressButton('back', live)).rejects.toMatchObject({ code: 'unsupported_operation', message: 'Device iphone-ac is an iPhone, which has no Back button.' });
    await expect(driver.pressButton('recents', live)).rejects.toMatchObject({ code: 'unsupported_operation', message: 'Device iphone-ac is an iPhone, which has no Recents button.' });
    expect(agentSaw(start).filter((l) => l.includes('pressButton'))).toEqual([]);
  });

  it('opens an app by its scheme; an unknown scheme is invalid_argument', async () => {
    await driver.openUrl?.('maps://?q=Cupertino', live);
    expect(iphone.phone.activeApp().bundleId).toBe(MAPS_BUNDLE_ID);
    await expect(driver.openUrl?.('nosuchapp://x', live)).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('turns the screen', async () => {
    await driver.launchApp(SETTINGS_BUNDLE_ID, live);
    await driver.setOrientation?.('landscape', live);
    expect(iphone.phone.orientation()).toBe('LANDSCAPE');
    await driver.setOrientation?.('portrait', live);
    expect(iphone.phone.orientation()).toBe('PORTRAIT');
  });

  it('a screen that cannot turn (the home screen) is a device_error saying what to do', async () => {
    await driver.pressButton('home', live);
    await expect(driver.setOrientation?.('landscape', live)).rejects.toMatchObject({ code: 'device_error', hint: expect.stringContaining('open an app that does') });
    expect(iphone.phone.orientation()).toBe('PORTRAIT');
  });

  it('sets and reads the clipboard', async () => {
    await driver.setClipboard?.('Grüße ✓', live);
    expect(iphone.phone.pasteboard('plaintext').toString('utf8')).toBe('Grüße ✓');
    iphone.phone.setPasteboard('plaintext', Buffer.from('from the phone'));
    expect(await driver.getClipboard?.(live)).toBe('from the phone');
  });

  it('locks and unlocks', async () => {
    await driver.setLocked?.(true, live);
    expect(iphone.phone.isLocked()).toBe(true);
    await driver.setLocked?.(false, live);
    expect(iphone.phone.isLocked()).toBe(false);
  });

  it('hides the keyboard', async () => {
    await driver.launchApp(NOTES_BUNDLE_ID, live);
    const note = flatten(await driver.uiTree(live)).find((n) => n.role === 'textField' && n.visible);
    await driver.tap(centerOf((note as UiNode).bounds), live);
    expect(iphone.phone.keyboardShown()).toBe(true);
    await driver.hideKeyboard?.(live);
    expect(iphone.phone.keyboardShown()).toBe(false);
  });

  it('reads and answers the alert; none shown is element_not_found', async () => {
    await driver.launchApp(MAPS_BUNDLE_ID, live);
    const shown = await driver.alert?.(live);
    if (shown === undefined) throw new Error('Maps showed no permission alert');
    expect(shown).toEqual({ title: MAPS_ALERT_TITLE, text: MAPS_ALERT_MESSAGE, buttons: [...MAPS_ALERT_BUTTONS] });
    await expect(driver.handleAlert?.({ kind: 'press', button: 'Maybe Later' }, live)).rejects.toMatchObject({ code: 'element_not_found' });
    await driver.handleAlert?.({ kind: 'press', button: 'Allow Once' }, live);
    expect(iphone.phone.alert()).toBeNull();
    expect(await driver.alert?.(live)).toBeUndefined();
    await expect(driver.handleAlert?.({ kind: 'dismiss' }, live)).rejects.toMatchObject({ code: 'element_not_found' });
  });

  it('switches the appearance', async () => {
    await driver.setAppearance?.('dark', live);
    expect(iphone.phone.appearance()).toBe('dark');
    await driver.setAppearance?.('light', live);
    expect(iphone.phone.appearance()).toBe('light');
  });

  it('lists the running apps only, and says so', async () => {
    await driver.launchApp(SETTINGS_BUNDLE_ID, live);
    expect(await driver.listApps?.(live)).toEqual({ apps: [expect.objectContaining({ appId: SETTINGS_BUNDLE_ID, running: true })], complete: false });
  });
});
