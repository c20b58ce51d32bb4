import sharp from 'sharp';
import { call, DEVICE_PATH, type RestHarness } from '../rest/harness';
import { startBothFaces, type BothFaces } from '../support/both-faces';

const SETTINGS = 'com.apple.Preferences';
const MAPS = 'com.apple.Maps';
const SAFARI = 'com.apple.mobilesafari';

interface Element {
  ref: string;
  role: string;
  label?: string;
  value?: string;
  center: { x: number; y: number };
  bounds?: { x: number; y: number; width: number; height: number };
}

interface TreeNode extends Element {
  children?: TreeNode[];
}

const flatten = (node: TreeNode): TreeNode[] => [node, ...(node.children ?? []).flatMap(flatten)];

/**
 * Element refs, actions by ref, observe and wait_for (issue 16) on the embedded virtual iPhone: MCP with the
 * SDK's client at /mcp, REST over real HTTP.
 */
describe('element refs, actions by ref, observe and wait_for on the virtual iPhone', () => {
  let faces: BothFaces;
  let h: RestHarness;
  const result = (name: string, args?: Record<string, unknown>) => faces.result(name, args);
  const tool = (name: string, args?: Record<string, unknown>) => faces.tool(name, args);
  const toolError = (name: string, args: Record<string, unknown>) => faces.toolError(name, args);

  beforeAll(async () => {
    faces = await startBothFaces('refs');
    h = faces.harness;
  }, 60_000);

  afterAll(() => faces?.close(), 60_000);

  const describeScreen = async (args: Record<string, unknown> = {}) =>
    (await tool('describe_screen', { includeOcrText: false, ...args })) as { elements: Element[]; app?: { appId: string }; alert?: { title?: string } };
  const element = async (label: string) => {
    const found = (await describeScreen()).elements.find((e) => e.label === label);
    if (!found) throw new Error(`no element "${label}" on the screen`);
    return found;
  };

  beforeEach(async () => {
    await tool('terminate_app', { appId: SETTINGS, observe: 'none' });
    await tool('launch_app', { appId: SETTINGS, observe: 'none' });
  });

  afterEach(async () => {
    await tool('press_button', { button: 'home', observe: 'none' });
  });

  it('names an element with the same ref in describe_screen, find_text and get_ui_tree, and across observations', async () => {
    const general = await element('General');
    expect(general.ref).toMatch(/^e\d+$/);
    expect((await element('General')).ref).toBe(general.ref);
    const [match] = (await tool('find_text', { text: 'General', exact: true })).matches as Element[];
    expect(match?.ref).toBe(general.ref);
    const inTree = flatten((await tool('get_ui_tree', {})).root as TreeNode).find((n) => n.ref === general.ref);
    expect(inTree).toMatchObject({ role: general.role, center: general.center });
    // Slim by default, bounds on request.
    expect(general.bounds).toBeUndefined();
    expect((await describeScreen({ bounds: true })).elements.find((e) => e.ref === general.ref)?.bounds).toMatchObject({ width: expect.any(Number) });
  });

  it('taps "General" by the ref taken before its list scrolled a few rows', async () => {
    const before = await element('General');
    await tool('swipe', { direction: 'up', start: { x: 200, y: 600 }, distance: 120, observe: 'none' });
    const after = await element('General');
    expect(after.ref).toBe(before.ref);
    expect(after.center.y).toBeLessThan(before.center.y - 40);
    const tapped = await tool('tap', { ref: before.ref, observe: 'describe' });
    expect(tapped.tapped).toEqual(after.center);
    const screen = (tapped.observed as { screen: { staticText?: { text: string }[]; elements: Element[] } }).screen;
    expect(screen.elements.some((e) => e.label === 'About')).toBe(true);
  });

  it('refuses a ref whose element left the screen (element_not_found, observe again), never tapping a stale point', async () => {
    const wifi = await element('Wi-Fi');
    await tool('tap', { ref: (await element('General')).ref, observe: 'none' });
    const error = await toolError('tap', { ref: wifi.ref });
    expect(error.code).toBe('element_not_found');
    expect(error.hint).toMatch(/describe_screen/);
    // Still on General: nothing was tapped where Wi-Fi used to be.
    expect((await describeScreen()).elements.some((e) => e.label === 'About')).toBe(true);
    expect((await toolError('tap', { ref: 'e999999' })).code).toBe('element_not_found');
  });

  it('takes exactly one of a ref or a point', async () => {
    const general = await element('General');
    expect((await toolError('tap', { ref: general.ref, x: 10, y: 10 })).code).toBe('invalid_argument');
    expect((await toolError('tap', {})).code).toBe('invalid_argument');
    expect((await toolError('long_press', { x: 10 })).code).toBe('invalid_argument');
    expect((await toolError('tap', { ref: 'General' })).code).toBe('invalid_argument');
    const rest = await call(h.url, 'POST', `${DEVICE_PATH}/double-tap`, { body: { ref: general.ref, x: 1, y: 1 } });
    expect(rest.status).toBe(400);
  });

  it('scrolls inside the element a ref names', async () => {
    const list = (await describeScreen()).elements.find((e) => e.label === 'General');
    const before = (await element('General')).center.y;
    const tree = flatten((await tool('get_ui_tree', {})).root as TreeNode);
    const scrollable = tree.find((n) => n.role === 'list');
    expect(scrollable?.ref).toMatch(/^e\d+$/);
    const swiped = await tool('swipe', { ref: scrollable?.ref, direction: 'up', observe: 'none' });
    expect(swiped.direction).toBe('up');
    expect((await element('General')).center.y).toBeLessThan(before);
    expect(list).toBeDefined();
  });

  it('types into the field a ref names, and with clear replaces its text', async () => {
    await tool('launch_app', { appId: SAFARI, observe: 'none' });
    const field = (await describeScreen()).elements.find((e) => e.role === 'textField' || e.role === 'searchField');
    expect(field).toBeDefined();
    await tool('input_text', { ref: field?.ref, text: 'apex', observe: 'none' });
    await tool('input_text', { ref: field?.ref, text: 'example', clear: true, observe: 'none' });
    const after = (await describeScreen()).elements.find((e) => e.ref === field?.ref);
    expect(after?.value).toBe('example');
    expect((await toolError('input_text', { text: 'x', clear: true })).code).toBe('invalid_argument');
    await tool('terminate_app', { appId: SAFARI, observe: 'none' });
  });

  it('observe: "summary" (the default) and "describe" report the screen after the action', async () => {
    await tool('press_button', { button: 'home' });
    const opened = await result('launch_app', { appId: SETTINGS, observe: 'describe' });
    const observed = (opened.structuredContent as { observed: { app: { appId: string }; changed: boolean; screen: { app: { appId: string }; elements: Element[] } } }).observed;
    expect(observed.app.appId).toBe(SETTINGS);
    expect(observed.changed).toBe(true);
    expect(observed.screen.app.appId).toBe(SETTINGS);
    expect(observed.screen.elements.some((e) => e.label === 'General')).toBe(true);
    expect(opened.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')).toMatch(/switch "Wi-Fi"|"General"/);
    const summary = (await tool('tap', { x: 5, y: 30 })).observed as { app: { appId: string }; changed: boolean; keyboardVisible: boolean };
    expect(summary).toEqual({ app: { appId: SETTINGS, name: 'Settings' }, changed: false, keyboardVisible: false });
    expect((await tool('tap', { x: 5, y: 30, observe: 'none' })).observed).toBeUndefined();
  });

  it('draws one numbered box per actionable element on a set-of-marks screenshot, with describe_screen\'s refs beside it', async () => {
    const described = await describeScreen({ bounds: true });
    const answer = await result('take_screenshot', { marks: true, format: 'png' });
    const out = answer.structuredContent as { marks: Element[]; pixelsPerPoint: number };
    expect(out.marks.map((m) => m.ref)).toEqual(described.elements.map((e) => e.ref));
    expect(out.marks.map((m) => [m.role, m.label, m.center])).toEqual(described.elements.map((e) => [e.role, e.label, e.center]));
    const image = answer.content.find((c) => c.type === 'image');
    expect(image).toBeDefined();
    const marked = await sharp(Buffer.from((image as { data: string }).data, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const plainAnswer = await result('take_screenshot', { format: 'png' });
    const plainImage = plainAnswer.content.find((c) => c.type === 'image') as { data: string };
    const plain = await sharp(Buffer.from(plainImage.data, 'base64')).removeAlpha().raw().toBuffer();
    // Each element's tag (its top-left corner, filled with its colour) is drawn; the plain screenshot lacks it.
    const at = (buffer: Buffer, x: number, y: number) => {
      const i = (Math.round(y) * marked.info.width + Math.round(x)) * 3;
      return [buffer[i], buffer[i + 1], buffer[i + 2]];
    };
    for (const element of described.elements) {
      const { x, y } = element.bounds as { x: number; y: number };
      const px = x * out.pixelsPerPoint + 1;
      const py = y * out.pixelsPerPoint + 1;
      expect(at(marked.data, px, py)).not.toEqual(at(plain, px, py));
    }
    expect(answer.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')).toContain(`${described.elements[0]?.ref} `);
  });

  it('wait_for sees the Maps alert appear and a dismissed alert go, through MCP and REST', async () => {
    await tool('terminate_app', { appId: MAPS, observe: 'none' });
    const waiting = tool('wait_for', { text: 'use your location', timeoutMs: 20_000 });
    await call(h.url, 'POST', `${DEVICE_PATH}/launch`, { body: { appId: MAPS, observe: 'none' } });
    const appeared = await waiting;
    expect(appeared).toMatchObject({ met: true, match: { text: expect.stringMatching(/use your location/) } });
    const alert = await describeScreen();
    const button = alert.elements.find((e) => e.label === "Don't Allow");
    expect(button?.ref).toMatch(/^e\d+$/);
    await tool('handle_alert', { action: 'dismiss', observe: 'none' });
    const gone = await call(h.url, 'POST', `${DEVICE_PATH}/wait-for`, { body: { ref: button?.ref, gone: true, timeoutMs: 5_000 } });
    expect(gone).toMatchObject({ status: 200, body: { met: true } });
    expect(await tool('wait_for', { app: MAPS, timeoutMs: 1_000 })).toMatchObject({ met: true, match: { appId: MAPS } });
    expect(await tool('wait_for', { stable: true })).toMatchObject({ met: true });
    // Not met is an answer, not an error.
    expect(await tool('wait_for', { text: 'No such text anywhere', timeoutMs: 300 })).toMatchObject({ met: false, waitedMs: expect.any(Number) });
    expect((await toolError('wait_for', { text: 'General', app: MAPS })).code).toBe('invalid_argument');
    expect((await toolError('wait_for', { gone: true })).code).toBe('invalid_argument');
    await tool('terminate_app', { appId: MAPS, observe: 'none' });
  });
});
