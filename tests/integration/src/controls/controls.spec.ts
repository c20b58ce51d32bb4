import { DEVICE_PATH, type RestHarness } from '../rest/harness';
import { startBothFaces, type BothFaces } from '../support/both-faces';

// Notes' editor shows Done: an iPhone keyboard hides only through a key or button it shows.
const NOTES = 'com.apple.mobilenotes';
const SAFARI = 'com.apple.mobilesafari';
const SETTINGS = 'com.apple.Preferences';
const MAPS = 'com.apple.Maps';

interface TreeNode {
  role: string;
  label?: string;
  value?: string;
  center: { x: number; y: number };
  children?: TreeNode[];
}

function flatten(node: TreeNode): TreeNode[] {
  return [node, ...(node.children ?? []).flatMap(flatten)];
}

/**
 * The controls beyond tap and swipe (issue 15) through both faces on the embedded virtual iPhone: MCP with
 * the SDK's client at /mcp, REST over real HTTP; each effect is checked through the other face where it can be.
 */
describe('the controls through MCP and REST on the embedded virtual iPhone', () => {
  let faces: BothFaces;
  let h: RestHarness;
  const tool = (name: string, args?: Record<string, unknown>) => faces.tool(name, args);
  const toolError = (name: string, args?: Record<string, unknown>) => faces.toolError(name, args);
  const rest = (method: 'GET' | 'POST', path: string, body?: unknown) => faces.rest(method, path, body);

  beforeAll(async () => {
    faces = await startBothFaces('controls');
    h = faces.harness;
  }, 60_000);

  afterAll(() => faces?.close(), 60_000);

  const status = async () => (await rest('GET', '')).body as { foregroundApp?: { appId: string }; orientation?: string; locked?: boolean; screen: { width: number; height: number } };
  const tree = async () => flatten((await tool('get_ui_tree', {})).root as TreeNode);
  const firstInput = async () => (await tree()).find((n) => n.role === 'textField' || n.role === 'searchField');

  afterEach(async () => {
    await tool('press_button', { button: 'home' });
  });

  it('set_clipboard and get_clipboard round-trip across the faces', async () => {
    expect(await tool('set_clipboard', { text: 'from MCP 🙂' })).toEqual({ characters: 10 });
    expect(await rest('GET', '/clipboard')).toMatchObject({ status: 200, body: { text: 'from MCP 🙂' } });
    expect(await rest('POST', '/clipboard', { text: 'from REST' })).toMatchObject({ status: 200, body: { characters: 9 } });
    expect(await tool('get_clipboard')).toEqual({ text: 'from REST' });
  });

  it('long_press on a text field opens its edit menu; Paste pastes the clipboard', async () => {
    await tool('set_clipboard', { text: 'pasted via apex' });
    expect(await tool('launch_app', { observe: 'none', name: 'Safari' })).toEqual({ appId: SAFARI, launched: true });
    const input = await firstInput();
    expect(input).toBeDefined();
    const { x, y } = (input as TreeNode).center;
    expect(await tool('long_press', { observe: 'none', x, y })).toEqual({ pressed: { x, y }, durationMs: 800 });
    const paste = (await tree()).find((n) => n.label === 'Paste');
    expect(paste).toBeDefined();
    await tool('tap', (paste as TreeNode).center);
    expect((await firstInput())?.value ?? '').toContain('pasted via apex');
    expect(await rest('POST', '/long-press', { x, y, durationMs: 1_000 })).toMatchObject({ status: 200, body: { durationMs: 1_000 } });
    await tool('terminate_app', { appId: SAFARI });
  });

  it('double_tap, pinch and a held swipe answer through both faces', async () => {
    const { screen } = await status();
    expect(await tool('double_tap', { observe: 'none', x: 100, y: 300 })).toEqual({ doubleTapped: { x: 100, y: 300 } });
    expect(await rest('POST', '/double-tap', { x: 120, y: 320 })).toMatchObject({ status: 200, body: { doubleTapped: { x: 120, y: 320 } } });
    expect(await tool('pinch', { observe: 'none', scale: 2 })).toEqual({ center: { x: screen.width / 2, y: screen.height / 2 }, scale: 2 });
    expect(await rest('POST', '/pinch', { scale: 0.5, center: { x: 150, y: 400 } })).toMatchObject({ status: 200, body: { center: { x: 150, y: 400 } } });
    expect(await tool('swipe', { observe: 'none', from: { x: 100, y: 400 }, to: { x: 100, y: 200 }, holdMs: 500 })).toEqual({ from: { x: 100, y: 400 }, to: { x: 100, y: 200 } });
    expect((await rest('POST', '/swipe', { direction: 'up', holdMs: 300 })).status).toBe(200);
    expect((await toolError('pinch', { scale: 2, center: { x: screen.width + 1, y: 10 } })).code).toBe('invalid_argument');
  });

  it('open_url opens a web page in the browser and a settings link in Settings', async () => {
    expect(await tool('open_url', { observe: 'none', url: 'https://apex.example/' })).toEqual({ opened: 'https://apex.example/' });
    expect((await status()).foregroundApp?.appId).toBe(SAFARI);
    expect(await rest('POST', '/open-url', { url: 'prefs:root=General' })).toMatchObject({ status: 200 });
    expect((await status()).foregroundApp?.appId).toBe(SETTINGS);
    expect((await rest('POST', '/open-url', { url: 'javascript:alert(1)' })).body).toMatchObject({ code: 'invalid_argument' });
    await tool('terminate_app', { appId: SAFARI });
    await tool('terminate_app', { appId: SETTINGS });
  });

  it('set_orientation rotates the frame every face then uses', async () => {
    await tool('launch_app', { observe: 'none', appId: SETTINGS });
    const portrait = (await status()).screen;
    expect(await tool('set_orientation', { observe: 'none', orientation: 'landscape' })).toEqual({
      orientation: 'landscape',
      screen: { width: portrait.height, height: portrait.width },
    });
    try {
      expect(await status()).toMatchObject({ orientation: 'landscape', screen: { width: portrait.height, height: portrait.width } });
      expect((await rest('POST', '/tap', { x: portrait.height - 5, y: 5 })).status).toBe(200);
    } finally {
      expect(await rest('POST', '/orientation', { orientation: 'portrait' })).toMatchObject({
        status: 200,
        body: { orientation: 'portrait', screen: { width: portrait.width, height: portrait.height } },
      });
    }
    expect((await tool('device_status')).orientation).toBe('portrait');
    await tool('terminate_app', { appId: SETTINGS });
  });

  it('set_orientation on the home screen, which stays portrait, is a device_error that says what to do', async () => {
    await tool('press_button', { button: 'home' });
    const refused = await toolError('set_orientation', { orientation: 'landscape' });
    expect(refused).toMatchObject({ code: 'device_error', hint: expect.stringContaining('open an app that does') });
    expect((await rest('POST', '/orientation', { orientation: 'landscape' })).body).toMatchObject({ code: 'device_error' });
    expect((await tool('device_status')).orientation).toBe('portrait');
  });

  it('set_lock locks and unlocks, as device_status reports', async () => {
    expect(await rest('POST', '/lock', { locked: true })).toMatchObject({ status: 200, body: { locked: true } });
    expect((await tool('device_status')).locked).toBe(true);
    expect(await tool('set_lock', { observe: 'none', locked: false })).toEqual({ locked: false });
    expect((await status()).locked).toBe(false);
  });

  it('hide_keyboard hides the keyboard a text field brought up', async () => {
    await rest('POST', '/launch', { appId: NOTES });
    await tool('tap', (await firstInput())?.center ?? { x: 0, y: 0 });
    expect((await tree()).some((n) => n.role === 'keyboard')).toBe(true);
    // The default observe "summary" reports the screen after the action: the keyboard is down, Notes in front.
    expect(await tool('hide_keyboard')).toEqual({
      keyboardHidden: true,
      observed: { app: { appId: NOTES, name: 'Notes' }, changed: true, keyboardVisible: false },
    });
    expect((await tree()).some((n) => n.role === 'keyboard')).toBe(false);
    expect(await rest('POST', '/hide-keyboard', {})).toMatchObject({ status: 200, body: { keyboardHidden: true } });
    await tool('terminate_app', { appId: NOTES });
  });

  it("handle_alert answers Maps' first-launch alert by label and returns its buttons; no alert is element_not_found", async () => {
    expect(await tool('launch_app', { observe: 'none', name: 'maps' })).toEqual({ appId: MAPS, launched: true });
    const unknown = await toolError('handle_alert', { action: 'press', button: 'Maybe Later' });
    expect(unknown.code).toBe('element_not_found');
    expect(unknown.hint).toMatch(/Allow While Using App/);
    const answered = await tool('handle_alert', { action: 'press', button: 'Allow While Using App' });
    expect(answered).toMatchObject({ title: expect.stringMatching(/Maps/), buttons: expect.arrayContaining(['Allow While Using App', "Don't Allow"]) });
    const none = await rest('POST', '/alert', { action: 'accept' });
    expect(none).toMatchObject({ status: 404, body: { code: 'element_not_found' } });
    expect((await toolError('handle_alert', { action: 'dismiss' })).code).toBe('element_not_found');
    await tool('terminate_app', { appId: MAPS });
  });

  it('set_appearance switches to dark and back, which the screenshot shows', async () => {
    const shot = async () => Buffer.from(await (await fetch(`${h.url}${DEVICE_PATH}/screenshot`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).arrayBuffer());
    expect(await tool('set_appearance', { observe: 'none', appearance: 'light' })).toEqual({ appearance: 'light' });
    const light = await shot();
    expect(await rest('POST', '/appearance', { appearance: 'dark' })).toMatchObject({ status: 200, body: { appearance: 'dark' } });
    try {
      expect((await shot()).equals(light)).toBe(false);
    } finally {
      await tool('set_appearance', { appearance: 'light' });
    }
  });

  it('launch_app takes a name on both faces; an unknown name is app_not_found with the closest names', async () => {
    expect(await rest('POST', '/launch', { name: 'Settings' })).toMatchObject({ status: 200, body: { appId: SETTINGS, launched: true } });
    expect((await status()).foregroundApp?.appId).toBe(SETTINGS);
    const miss = await toolError('launch_app', { name: 'Setings' });
    expect(miss).toMatchObject({ code: 'app_not_found', hint: expect.stringMatching(/Settings/) });
    const listed = await tool('list_apps');
    expect(typeof listed.complete).toBe('boolean');
    expect(listed.apps).toEqual(expect.arrayContaining([expect.objectContaining({ appId: SETTINGS })]));
    await tool('terminate_app', { appId: SETTINGS });
  });
});
