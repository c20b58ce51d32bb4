import { XMLValidator } from 'fast-xml-parser';
import { startVirtualIPhone, type VirtualIPhone } from '../../index';
import { attributeOrders, decode, parseXml, pngSize, walk, WdaHttp, type XmlElement } from '../../testing';

// Generous: a shared 2-core machine can be slow; nothing here asserts on time.
jest.setTimeout(60_000);

/** Page source (XML, JSON, description) and screenshots, checked against the rendered pixels. */
describe('page source and screenshots', () => {
  let iphone: VirtualIPhone;
  let wda: WdaHttp;

  beforeAll(async () => {
    iphone = await startVirtualIPhone();
    wda = new WdaHttp(iphone.url);
    await wda.createSession({ 'appium:bundleId': 'com.apple.Preferences' });
  });

  afterAll(async () => {
    await iphone.close();
  });

  const isGreen = ([r, g, b]: number[]) => (g as number) > 150 && (r as number) < 120 && (b as number) < 150;
  const isLight = ([r, g, b]: number[]) => (r as number) > 200 && (g as number) > 200 && (b as number) > 200;

  function switchNamed(root: XmlElement, name: string): XmlElement {
    const found = [...walk(root)].find((e) => e.tag === 'XCUIElementTypeSwitch' && e.attributes['name'] === name);
    if (!found) throw new Error(`no switch ${name}`);
    return found;
  }

  it('is well-formed XML with an AppiumAUT root, WDA attribute order and integer point geometry', async () => {
    const xml = await wda.source();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<AppiumAUT>')).toBe(true);
    expect(XMLValidator.validate(xml)).toBe(true);
    const root = parseXml(xml);
    expect(root.tag).toBe('AppiumAUT');
    const app = root.children[0] as XmlElement;
    expect(app.tag).toBe('XCUIElementTypeApplication');
    expect(app.attributes).toMatchObject({ type: 'XCUIElementTypeApplication', name: 'Settings', bundleId: 'com.apple.Preferences', x: '0', y: '0', width: '393', height: '852' });
    expect(Number(app.attributes['processId'])).toBeGreaterThan(0);

    const canonical = ['type', 'value', 'name', 'label', 'enabled', 'visible', 'accessible', 'x', 'y', 'width', 'height', 'index', 'placeholderValue', 'traits', 'processId', 'bundleId'];
    for (const order of attributeOrders(xml)) {
      const positions = order.map((name) => canonical.indexOf(name));
      expect(positions).not.toContain(-1);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    }
    for (const element of walk(root)) {
      if (element === root) continue;
      expect(element.tag).toBe(element.attributes['type']);
      for (const key of ['x', 'y', 'width', 'height', 'index']) expect(element.attributes[key]).toMatch(/^-?\d+$/);
      for (const key of ['enabled', 'visible', 'accessible']) expect(['true', 'false']).toContain(element.attributes[key]);
    }
    // WDA's name/label/value rules
    const texts = [...walk(root)].filter((e) => e.tag === 'XCUIElementTypeStaticText');
    for (const text of texts) expect(text.attributes['value']).toBe(text.attributes['label']);
    expect(xml).toContain('label="Sounds &amp; Haptics"');
  });

  it('draws each switch where the source says, and a tap flips both pixels and value', async () => {
    const scale = 3;
    let root = parseXml(await wda.source());
    const wifi = switchNamed(root, 'Wi-Fi');
    expect(wifi.attributes['value']).toBe('1');
    const x = Number(wifi.attributes['x']);
    const y = Number(wifi.attributes['y']);
    const h = Number(wifi.attributes['height']);
    const inside = { x: (x + 8) * scale, y: (y + h / 2) * scale };
    const outside = { x: (x - 12) * scale, y: (y + h / 2) * scale };

    let shot = await wda.screenshot();
    expect(isGreen(shot.at(inside.x, inside.y))).toBe(true);
    expect(isLight(shot.at(outside.x, outside.y))).toBe(true);
    const airplane = switchNamed(root, 'Airplane Mode');
    expect(airplane.attributes['value']).toBe('0');
    expect(isGreen(shot.at((Number(airplane.attributes['x']) + 8) * scale, (Number(airplane.attributes['y']) + h / 2) * scale))).toBe(false);

    const tap = await wda.post(wda.s('/wda/tap'), { x: x + 25, y: y + h / 2 });
    expect(tap.status).toBe(200);
    root = parseXml(await wda.source());
    expect(switchNamed(root, 'Wi-Fi').attributes['value']).toBe('0');
    shot = await wda.screenshot();
    expect(isGreen(shot.at(inside.x, inside.y))).toBe(false);
    expect(isLight(shot.at(outside.x, outside.y))).toBe(true);

    await wda.post(wda.s('/wda/tap'), { x: x + 25, y: y + h / 2 });
    expect(switchNamed(parseXml(await wda.source()), 'Wi-Fi').attributes['value']).toBe('1');
  });

  it('serves JSON source with WDA keys', async () => {
    const reply = await wda.get('/source?format=json');
    const tree = reply.json.value;
    expect(tree).toMatchObject({ type: 'Application', name: 'Settings', label: 'Settings', rawIdentifier: null, value: null, rect: { x: 0, y: 0, width: 393, height: 852 }, frame: '{{0, 0}, {393, 852}}', isEnabled: '1', isVisible: '1', isAccessible: '0', isFocused: '0', traits: '' });
    expect(Array.isArray(tree.children)).toBe(true);
    const all: Record<string, unknown>[] = [];
    const collect = (node: Record<string, unknown>) => {
      all.push(node);
      for (const child of (node['children'] as Record<string, unknown>[] | undefined) ?? []) collect(child);
    };
    collect(tree);
    const wifi = all.find((n) => n['type'] === 'Switch' && n['name'] === 'Wi-Fi');
    expect(wifi).toMatchObject({ value: '1', isAccessible: '1' });
    for (const node of all) {
      expect(Object.keys(node)).toEqual(expect.arrayContaining(['type', 'rawIdentifier', 'name', 'value', 'label', 'rect', 'frame', 'isEnabled', 'isVisible', 'isAccessible', 'isFocused', 'traits']));
      if ('children' in node) expect((node['children'] as unknown[]).length).toBeGreaterThan(0);
    }
  });

  it('supports scope, excluded_attributes, description and accessibleSource; rejects unknown formats', async () => {
    const scoped = (await wda.get('/source?scope=MyRoot&excluded_attributes=visible,index')).json.value as string;
    expect(XMLValidator.validate(scoped)).toBe(true);
    expect(parseXml(scoped).tag).toBe('MyRoot');
    expect(scoped).not.toMatch(/ visible="/);
    expect(scoped).not.toMatch(/ index="/);
    const description = (await wda.get('/source?format=description')).json.value as string;
    expect(description).toContain('Switch');
    const accessible = (await wda.get('/wda/accessibleSource')).json.value;
    expect(JSON.stringify(accessible)).toContain('"Wi-Fi"');
    const bad = await wda.get('/source?format=yaml');
    expect(bad.status).toBe(400);
    expect(bad.json.value.error).toBe('invalid argument');
  });

  it('returns a PNG screenshot of the declared size, under a session and without', async () => {
    const png = Buffer.from((await wda.get(wda.s('/screenshot'))).json.value, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(pngSize(png)).toEqual({ width: 1179, height: 2556 });
    const decoded = await decode(Buffer.from((await wda.get('/screenshot')).json.value, 'base64'));
    expect([decoded.width, decoded.height]).toEqual([1179, 2556]);
  });

  it('returns the same bytes for an unchanged screen', async () => {
    const a = (await wda.get('/screenshot')).json.value;
    const b = (await wda.get('/screenshot')).json.value;
    expect(a).toBe(b);
  });

  it('renders an iPhone SE profile at 750×1334 with 375×667 points @2', async () => {
    const se = await startVirtualIPhone({ profile: 'iphone-se' });
    try {
      const client = new WdaHttp(se.url);
      const png = Buffer.from((await client.get('/screenshot')).json.value, 'base64');
      expect(pngSize(png)).toEqual({ width: 750, height: 1334 });
      expect((await client.get('/wda/screen')).json.value).toMatchObject({ screenSize: { width: 375, height: 667 }, scale: 2 });
      const app = parseXml((await client.get('/source')).json.value).children[0] as XmlElement;
      expect(app.attributes).toMatchObject({ width: '375', height: '667' });
    } finally {
      await se.close();
    }
  });
});
