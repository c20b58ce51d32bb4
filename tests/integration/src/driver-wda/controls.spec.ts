import { centerOf, type UiNode } from '@apex/port';
import { createWdaDriver, type WdaDriver } from '@apex/driver-wda';
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
import { RecordingProxy } from './support/recording-proxy';

function flatten(node: UiNode): UiNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

const live = new AbortController().signal;

/** The device controls of driver-wda over real HTTP: what reaches the virtual iPhone, and what it did. */
describe('driver-wda device controls against the virtual iPhone', () => {
  let iphone: VirtualIPhone;
  let proxy: RecordingProxy;
  let driver: WdaDriver;

  /** The requests since `from` below `/session/:id` (or session-less), as `METHOD path body`. */
  const sent = (from: number) =>
    proxy.requests.slice(from).map((r) => `${r.method} ${r.path.replace(/^\/session\/[^/]+/, '/session/:id')} ${r.body}`.trim());

  beforeAll(async () => {
    iphone = await startVirtualIPhone({ port: 0 });
    proxy = await new RecordingProxy(iphone.url).start();
    driver = createWdaDriver({ deviceId: 'iphone-c', url: proxy.url });
  });
  afterAll(async () => {
    await driver.close(live);
    await proxy.close();
    await iphone.close();
  });
  beforeEach(async () => {
    if (iphone.phone.isLocked()) iphone.phone.unlock();
    iphone.phone.setOrientation('PORTRAIT');
    iphone.phone.goHome();
  });

  it('long press holds the point for the duration (seconds) and opens a home-screen icon menu', async () => {
    const icon = flatten(await driver.uiTree(live)).find((n) => n.label === 'Settings' && n.visible);
    expect(icon).toBeDefined();
    const point = centerOf((icon as UiNode).bounds);
    const start = proxy.requests.length;
    await driver.longPress({ point, durationMs: 800 }, live);
    expect(sent(start)).toContain(`POST /session/:id/wda/touchAndHold ${JSON.stringify({ x: point.x, y: point.y, duration: 0.8 })}`);
    expect(flatten(await driver.uiTree(live)).some((n) => n.label === 'Remove App')).toBe(true);
  });

  it('double tap is one request with the point', async () => {
    const start = proxy.requests.length;
    await driver.doubleTap({ x: 100, y: 300 }, live);
    expect(sent(start)).toEqual([`POST /session/:id/wda/doubleTap ${JSON.stringify({ x: 100, y: 300 })}`]);
  });

  it('pinch is two touch fingers about its centre, apart for a scale above 1', async () => {
    const start = proxy.requests.length;
    await driver.pinch({ center: { x: 195, y: 400 }, scale: 2, durationMs: 300 }, live);
    const [request] = proxy.requests.slice(start).filter((r) => r.path.endsWith('/actions'));
    const body = JSON.parse(request?.body ?? '{}') as { actions: { id: string; actions: { type: string; x?: number }[] }[] };
    expect(body.actions.map((a) => a.id)).toEqual(['finger1', 'finger2']);
    const xs = body.actions.map((a) => a.actions.filter((s) => s.type === 'pointerMove').map((s) => s.x));
    expect(xs).toEqual([
      [145, 95],
      [245, 295],
    ]);
  });

  it('a swipe with a hold is the drag route, its duration the hold', async () => {
    const start = proxy.requests.length;
    await driver.swipe({ from: { x: 100, y: 500 }, to: { x: 100, y: 300 }, durationMs: 300, holdMs: 1200 }, live);
    expect(sent(start)).toEqual([
      `POST /session/:id/wda/dragfromtoforduration ${JSON.stringify({ fromX: 100, fromY: 500, toX: 100, toY: 300, duration: 1.2 })}`,
    ]);
  });

  it('opens an app by its URL scheme; a scheme no app handles is invalid_argument', async () => {
    await driver.openUrl('maps://?q=Cupertino', live);
    expect(iphone.phone.activeApp().bundleId).toBe(MAPS_BUNDLE_ID);
    const error = await driver.openUrl('nosuchapp://x', live).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_argument' });
    expect((error as Error).message).toContain('"nosuchapp:"');
  });

  it('turns the screen, and the reported screen follows', async () => {
    await driver.launchApp(SETTINGS_BUNDLE_ID, live);
    const portrait = await driver.screen(live);
    await driver.setOrientation('landscape', live);
    expect(iphone.phone.orientation()).toBe('LANDSCAPE');
    expect((await driver.status(live)).orientation).toBe('landscape');
    const landscape = await driver.screen(live);
    expect([landscape.width, landscape.height]).toEqual([portrait.height, portrait.width]);
    await driver.setOrientation('portrait', live);
    expect(iphone.phone.orientation()).toBe('PORTRAIT');
  });

  it('a screen that cannot turn (the home screen) is a device_error saying what to do', async () => {
    await driver.pressButton('home', live);
    await expect(driver.setOrientation('landscape', live)).rejects.toMatchObject({ code: 'device_error', hint: expect.stringContaining('open an app that does') });
    expect(iphone.phone.orientation()).toBe('PORTRAIT');
  });

  it('sets and reads the clipboard as plain text (base64 on the wire)', async () => {
    const text = 'Grüße, 世界 ✓\nline two';
    const start = proxy.requests.length;
    await driver.setClipboard(text, live);
    expect(iphone.phone.pasteboard('plaintext').toString('utf8')).toBe(text);
    expect(sent(start)).toEqual([
      `POST /session/:id/wda/setPasteboard ${JSON.stringify({ content: Buffer.from(text).toString('base64'), contentType: 'plaintext' })}`,
    ]);
    iphone.phone.setPasteboard('plaintext', Buffer.from('from the phone'));
    expect(await driver.getClipboard(live)).toBe('from the phone');
  });

  it('locks and unlocks the screen', async () => {
    await driver.setLocked(true, live);
    expect(iphone.phone.isLocked()).toBe(true);
    expect((await driver.status(live)).locked).toBe(true);
    await driver.setLocked(false, live);
    expect(iphone.phone.isLocked()).toBe(false);
  });

  it('hides the keyboard with the Done key, and a keyboard without one is device_error', async () => {
    await driver.launchApp(NOTES_BUNDLE_ID, live);
    const note = flatten(await driver.uiTree(live)).find((n) => n.role === 'textField' && n.visible);
    expect(note).toBeDefined();
    await driver.tap(centerOf((note as UiNode).bounds), live);
    expect(iphone.phone.keyboardShown()).toBe(true);
    await driver.hideKeyboard(live);
    expect(iphone.phone.keyboardShown()).toBe(false);

    await driver.launchApp('com.apple.mobilesafari', live);
    const field = flatten(await driver.uiTree(live)).find((n) => n.role === 'textField' && n.visible);
    await driver.tap(centerOf((field as UiNode).bounds), live);
    expect(iphone.phone.keyboardShown()).toBe(true);
    await expect(driver.hideKeyboard(live)).rejects.toMatchObject({ code: 'device_error' });
    await driver.terminateApp('com.apple.mobilesafari', live);
  });

  it('reads the alert, presses a labelled button, and answers element_not_found when none is shown', async () => {
    await driver.launchApp(MAPS_BUNDLE_ID, live);
    const shown = await driver.alert(live);
    if (shown === undefined) throw new Error('Maps showed no permission alert (it was answered earlier in this phone)');
    expect(shown).toEqual({ title: MAPS_ALERT_TITLE, text: MAPS_ALERT_MESSAGE, buttons: [...MAPS_ALERT_BUTTONS] });
    await expect(driver.handleAlert({ kind: 'press', button: 'Maybe Later' }, live)).rejects.toMatchObject({ code: 'element_not_found' });
    await driver.handleAlert({ kind: 'press', button: 'Allow Once' }, live);
    expect(iphone.phone.alert()).toBeNull();
    expect(await driver.alert(live)).toBeUndefined();
    await expect(driver.handleAlert({ kind: 'accept' }, live)).rejects.toMatchObject({ code: 'element_not_found' });
  });

  it('switches the appearance without a session route', async () => {
    const start = proxy.requests.length;
    await driver.setAppearance('dark', live);
    expect(iphone.phone.appearance()).toBe('dark');
    expect(sent(start)).toEqual(['POST /wda/device/appearance {"name":"dark"}']);
    await driver.setAppearance('light', live);
    expect(iphone.phone.appearance()).toBe('light');
  });
});
