import { centerOf, type UiNode } from '@apex/port';
import { createAppiumDriver, type AppiumDriver } from '@apex/driver-appium';
import { iosCapabilities, startAppiumServer, type AppiumServer } from '@apex/driver-appium/testing';
import { createWdaDriver, type WdaDriver } from '@apex/driver-wda';
import {
  MAPS_BUNDLE_ID,
  NOTES_BUNDLE_ID,
  SAFARI_BUNDLE_ID,
  SETTINGS_BUNDLE_ID,
  startVirtualIPhone,
  type VirtualIPhone,
} from '@apex/virtual-device';

/** Nothing here gives up on a call. */
const live = new AbortController().signal;

function flatten(node: UiNode): UiNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

/** The same virtual iPhone read through both drivers: a client cannot tell which driver answered. */
describe('driver-appium and driver-wda see the same screen the same way', () => {
  let server: AppiumServer;
  let iphone: VirtualIPhone;
  let wda: WdaDriver;
  let appium: AppiumDriver;

  beforeAll(async () => {
    [server, iphone] = await Promise.all([startAppiumServer(), startVirtualIPhone({ port: 0 })]);
    wda = createWdaDriver({ deviceId: 'same-phone', url: iphone.url });
    appium = createAppiumDriver({ deviceId: 'same-phone', serverUrl: server.url, capabilities: iosCapabilities(iphone.url) });
  });
  afterAll(async () => {
    await appium?.close(live);
    await wda?.close(live);
    await server?.close();
    await iphone?.close();
  });
  beforeEach(() => appium.pressButton('home', live));

  async function expectSameTree(): Promise<UiNode> {
    const [direct, viaServer] = await Promise.all([wda.uiTree(live), appium.uiTree(live)]);
    expect(viaServer).toEqual(direct);
    return viaServer;
  }

  it('the home screen', async () => {
    const tree = await expectSameTree();
    expect(flatten(tree).some((n) => n.label === 'Settings' && n.visible)).toBe(true);
  });

  it.each([
    ['a list (Settings)', SETTINGS_BUNDLE_ID, 'cell'],
    ['an alert over a map (Maps)', MAPS_BUNDLE_ID, 'alert'],
    ['a text editor (Notes)', NOTES_BUNDLE_ID, 'textField'],
  ] as const)('%s', async (_what, bundleId, role) => {
    await appium.launchApp(bundleId, live);
    expect(iphone.phone.activeApp().bundleId).toBe(bundleId);
    const tree = await expectSameTree();
    expect(flatten(tree).some((n) => n.role === role)).toBe(true);
  });

  it('a focused text field with the keyboard up and typed text (Safari)', async () => {
    await appium.launchApp(SAFARI_BUNDLE_ID, live);
    const field = flatten(await appium.uiTree(live)).find((n) => n.role === 'textField' && n.visible) as UiNode;
    await appium.tap(centerOf(field.bounds), live);
    await appium.typeText({ text: 'same tree' }, live);
    const tree = await expectSameTree();
    expect(flatten(tree).some((n) => n.role === 'keyboard')).toBe(true);
    expect(flatten(tree).find((n) => n.role === 'textField' && n.visible)?.value).toContain('same tree');
  });

  it('the same status and the same pixels', async () => {
    await appium.launchApp(SETTINGS_BUNDLE_ID, live);
    const [direct, viaServer] = await Promise.all([wda.status(live), appium.status(live)]);
    // The server cannot read the model and name on Linux (see the driver README): only those may be missing.
    const { model: _model, name: _name, ...comparable } = direct;
    expect(viaServer).toEqual(comparable);
    const [shotDirect, shotViaServer] = await Promise.all([wda.screenshot(live), appium.screenshot(live)]);
    expect(shotViaServer.png.equals(shotDirect.png)).toBe(true);
    expect({ ...shotViaServer, png: undefined }).toEqual({ ...shotDirect, png: undefined });
  });

  it('calls racing a session rebuild all succeed (two clients taking turns on one phone)', async () => {
    // The phone holds one session: each driver's session call replaces the other's, so the reads below keep
    // forcing the server-side session to be rebuilt while other requests of the same driver are pending.
    for (let round = 0; round < 5; round += 1) {
      await appium.launchApp(SETTINGS_BUNDLE_ID, live);
      const results = await Promise.allSettled([wda.status(live), appium.status(live), wda.screenshot(live), appium.screenshot(live), appium.uiTree(live)]);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    }
  });
});
