import { captureScreen, DeviceHub, deviceStatus, getUiTree, inputText, launchApp, listApps, listDevices, pressButton, swipe, tap, terminateApp } from '@apex/hub';
import { encodeScreenshot } from '@apex/capability';
import { centerOf, type UiNode } from '@apex/port';
import { createWdaDriver } from '@apex/driver-wda';
import { SETTINGS_BUNDLE_ID, SPRINGBOARD_BUNDLE_ID, startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import sharp from 'sharp';

function flatten(node: UiNode): UiNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

function visibleLabels(root: UiNode): string[] {
  return flatten(root)
    .filter((n) => n.visible && n.label)
    .map((n) => n.label as string);
}

/** Every primitive through the hub and driver-wda, checked against the virtual phone's own state. */
describe('primitives over driver-wda and the virtual iPhone', () => {
  let iphone: VirtualIPhone;
  let hub: DeviceHub;
  const id = 'iphone-p';

  beforeAll(async () => {
    iphone = await startVirtualIPhone({ port: 0 });
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id, name: 'Primitive phone', driver: createWdaDriver({ deviceId: id, url: iphone.url }) });
  });
  afterAll(async () => {
    await hub.close();
    await iphone.close();
  });
  beforeEach(async () => {
    await pressButton(hub, id, 'home');
  });

  it('listDevices and deviceStatus report the phone as it is', async () => {
    expect(listDevices(hub)).toEqual([{ id, name: 'Primitive phone', platform: 'ios', state: 'online' }]);
    const status = await deviceStatus(hub, id);
    const { profile } = iphone.phone;
    expect(status).toMatchObject({
      id,
      state: 'online',
      platform: 'ios',
      osVersion: profile.osVersion,
      screen: { width: profile.width, height: profile.height, scale: profile.scale },
      orientation: 'portrait',
      foregroundApp: { appId: SPRINGBOARD_BUNDLE_ID },
      locked: false,
      deviceName: iphone.phone.deviceName(),
    });
    expect(status.battery?.level).toBeCloseTo(iphone.phone.battery().level, 5);
  });

  it('captureScreen returns the pixels the phone renders, which encode to points or a capped width', async () => {
    const { profile } = iphone.phone;
    const raw = await captureScreen(hub, id);
    expect(raw).toMatchObject({ width: profile.width * profile.scale, height: profile.height * profile.scale, scale: profile.scale });
    expect(raw.screen).toEqual({ width: profile.width, height: profile.height, scale: profile.scale });
    const expected = await sharp(iphone.phone.renderPng()).raw().toBuffer();
    expect((await sharp(raw.png).raw().toBuffer()).equals(expected)).toBe(true);

    const points = await encodeScreenshot(raw, { format: 'png', resolution: 'points' });
    expect(points).toMatchObject({ mimeType: 'image/png', width: profile.width, height: profile.height, pixelsPerPoint: 1 });
    const small = await encodeScreenshot(raw, { format: 'jpeg', resolution: 'native', maxWidth: 200 });
    const meta = await sharp(small.data).metadata();
    expect([meta.format, meta.width, small.width]).toEqual(['jpeg', 200, 200]);
  });

  it('getUiTree shows the home screen; tapping an icon from it opens that app', async () => {
    const root = await getUiTree(hub, id);
    const settings = flatten(root).find((n) => n.label === 'Settings' && n.visible);
    expect(settings).toBeDefined();
    await tap(hub, id, centerOf((settings as UiNode).bounds));
    expect(iphone.phone.activeApp().bundleId).toBe(SETTINGS_BUNDLE_ID);
  });

  it('getUiTree (a source without the attributes it never reads) keeps every element of the full source, in order', async () => {
    await launchApp(hub, id, SETTINGS_BUNDLE_ID);
    const full = ((await (await fetch(`${iphone.url}/source?format=xml`)).json()) as { value: string }).value;
    const attr = (tag: string, name: string) => tag.match(new RegExp(` ${name}="([^"]*)"`))?.[1];
    const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const expected = [...full.matchAll(/<XCUIElementType[A-Za-z]+ [^>]*>/g)].map(([tag]) => {
      const label = attr(tag, 'label');
      return [label ? unescape(label) : undefined, ...['x', 'y', 'width', 'height'].map((n) => Number(attr(tag, n)))];
    });
    const nodes = flatten(await getUiTree(hub, id));
    expect(nodes.map((n) => [n.label, n.bounds.x, n.bounds.y, n.bounds.width, n.bounds.height])).toEqual(expected);
    expect(expected.length).toBeGreaterThan(20);
  });

  it('pressButton home goes back to the home screen', async () => {
    await launchApp(hub, id, SETTINGS_BUNDLE_ID);
    await pressButton(hub, id, 'home');
    expect(iphone.phone.activeApp().bundleId).toBe(SPRINGBOARD_BUNDLE_ID);
  });

  it('pressButton back and recents are unsupported on an iPhone, and change nothing', async () => {
    await launchApp(hub, id, SETTINGS_BUNDLE_ID);
    await expect(pressButton(hub, id, 'back')).rejects.toMatchObject({ code: 'unsupported_operation', message: expect.stringContaining('no Back button') });
    await expect(pressButton(hub, id, 'recents')).rejects.toMatchObject({ code: 'unsupported_operation', message: expect.stringContaining('no Recents button') });
    expect(iphone.phone.activeApp().bundleId).toBe(SETTINGS_BUNDLE_ID);
    await pressButton(hub, id, 'home');
  });

  it('swipe left pages the home screen; swipe right comes back', async () => {
    const before = visibleLabels(await getUiTree(hub, id));
    expect(before).toContain('Settings');
    await swipe(hub, id, { direction: 'left' });
    const after = visibleLabels(await getUiTree(hub, id));
    expect(after).toContain('Calculator');
    expect(after).not.toContain('Settings');
    await swipe(hub, id, { direction: 'right' });
    expect(visibleLabels(await getUiTree(hub, id))).toContain('Settings');
  });

  it('launchApp, listApps and terminateApp change and report what runs', async () => {
    await launchApp(hub, id, SETTINGS_BUNDLE_ID);
    expect(iphone.phone.appState(SETTINGS_BUNDLE_ID)).toBe(4);
    const { apps, complete } = await listApps(hub, id);
    expect(complete).toBe(false);
    expect(apps[0]).toMatchObject({ appId: SETTINGS_BUNDLE_ID, running: true });
    const running = iphone.phone.runningApps().map((a) => a.bundleId);
    for (const app of apps) expect(running).toContain(app.appId);
    expect(await terminateApp(hub, id, SETTINGS_BUNDLE_ID)).toBe(true);
    expect(iphone.phone.appState(SETTINGS_BUNDLE_ID)).toBe(1);
    expect(await terminateApp(hub, id, SETTINGS_BUNDLE_ID)).toBe(false);
  });

  it('inputText types into the focused field, and submit presses return', async () => {
    await launchApp(hub, id, 'com.apple.mobilesafari');
    const field = flatten(await getUiTree(hub, id)).find((n) => n.role === 'textField' && n.visible);
    expect(field).toBeDefined();
    await tap(hub, id, centerOf((field as UiNode).bounds));
    await inputText(hub, id, { text: 'example.com' });
    const typed = flatten(await getUiTree(hub, id)).find((n) => n.role === 'textField' && n.visible);
    expect(typed?.value).toContain('example.com');
    await inputText(hub, id, { text: '', submit: true });
    await terminateApp(hub, id, 'com.apple.mobilesafari');
  });

  it('inputText without a focused field is element_not_found, with a hint', async () => {
    await expect(inputText(hub, id, { text: 'nowhere' })).rejects.toMatchObject({
      code: 'element_not_found',
      hint: expect.stringMatching(/Tap the text field first/),
    });
  });

  it('off-screen and non-finite points never reach the phone', async () => {
    const version = iphone.phone.version;
    await expect(tap(hub, id, { x: 10_000, y: 10 })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(tap(hub, id, { x: Number.POSITIVE_INFINITY, y: 10 })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(swipe(hub, id, { from: { x: 10, y: 10 }, to: { x: 10, y: -1 } })).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(iphone.phone.version).toBe(version);
  });
});
