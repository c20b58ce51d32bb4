import { startVirtualIPhone, type VirtualIPhone } from '../../index';
import { WdaHttp } from '../../testing';

// Generous: a shared 2-core machine can be slow; nothing here asserts on time.
jest.setTimeout(60_000);

/** Element finding by every strategy, element commands and their errors, on the Settings list. */
describe('finding elements and element commands', () => {
  let iphone: VirtualIPhone;
  let wda: WdaHttp;

  beforeAll(async () => {
    iphone = await startVirtualIPhone();
    wda = new WdaHttp(iphone.url);
  });

  beforeEach(async () => {
    await wda.createSession({ 'appium:bundleId': 'com.apple.Preferences' });
  });

  afterAll(async () => {
    await iphone.close();
  });

  async function labelsOf(using: string, value: string): Promise<string[]> {
    const reply = await wda.post(wda.s('/elements'), { using, value });
    expect(reply.status).toBe(200);
    const labels: string[] = [];
    for (const ref of reply.json.value as { ELEMENT: string }[]) {
      labels.push((await wda.get(wda.s(`/element/${ref.ELEMENT}/attribute/label`))).json.value);
    }
    return labels;
  }

  async function typesOf(using: string, value: string): Promise<string[]> {
    const reply = await wda.post(wda.s('/elements'), { using, value });
    expect(reply.status).toBe(200);
    return Promise.all((reply.json.value as { ELEMENT: string }[]).map(async (ref) => (await wda.get(wda.s(`/element/${ref.ELEMENT}/name`))).json.value));
  }

  it('returns element references in WDA id format', async () => {
    const reply = await wda.post(wda.s('/element'), { using: 'accessibility id', value: 'Wi-Fi' });
    expect(reply.status).toBe(200);
    const id = reply.json.value.ELEMENT as string;
    expect(reply.json.value['element-6066-11e4-a52e-4f735466cecf']).toBe(id);
    const pid = (await wda.get('/wda/activeAppInfo')).json.value.pid as number;
    const pidHex = Buffer.alloc(4);
    pidHex.writeUInt32LE(pid);
    expect(id).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-0{12}$/);
    expect(id.replace(/-/g, '').slice(16, 24)).toBe(pidHex.toString('hex').toUpperCase());
    // the same element gets the same id
    expect((await wda.post(wda.s('/element'), { using: 'accessibility id', value: 'Wi-Fi' })).json.value.ELEMENT).toBe(id);
  });

  it('finds by accessibility id / id / name (identifier, else label)', async () => {
    expect(await typesOf('accessibility id', 'com.apple.settings.wifi')).toEqual(['XCUIElementTypeCell']);
    expect(await typesOf('id', 'Bluetooth')).toEqual(['XCUIElementTypeStaticText', 'XCUIElementTypeSwitch']);
    expect(await typesOf('name', 'General')).toContain('XCUIElementTypeStaticText');
  });

  it('finds by class name', async () => {
    expect(await labelsOf('class name', 'XCUIElementTypeSwitch')).toEqual(['Airplane Mode', 'Wi-Fi', 'Bluetooth']);
    const bad = await wda.post(wda.s('/elements'), { using: 'class name', value: 'UIButton' });
    expect(bad.status).toBe(400);
    expect(bad.json.value.error).toBe('invalid argument');
  });

  it('finds by predicate string', async () => {
    expect(await labelsOf('predicate string', "type == 'XCUIElementTypeSwitch' AND value == '1'")).toEqual(['Wi-Fi', 'Bluetooth']);
    expect(await labelsOf('predicate string', 'label == "Wi-Fi" AND type == "XCUIElementTypeSwitch"')).toEqual(['Wi-Fi']);
    expect(await labelsOf('predicate string', "type == 'XCUIElementTypeCell' AND label BEGINSWITH[c] 'b'")).toEqual(['Bluetooth', 'Battery']);
    expect(await labelsOf('predicate string', "type == 'XCUIElementTypeCell' AND (label CONTAINS 'Hotspot' OR name == 'com.apple.settings.cellular')")).toEqual(['Cellular', 'Personal Hotspot']);
    expect(await labelsOf('predicate string', "type == 'XCUIElementTypeCell' AND label IN {'Focus', 'Wallet'}")).toEqual(['Focus', 'Wallet']);
    expect(await labelsOf('predicate string', "name == 'Wi-Fi' AND NOT (type == 'XCUIElementTypeStaticText') AND enabled == true")).toEqual(['Wi-Fi']);
    const malformed = await wda.post(wda.s('/elements'), { using: 'predicate string', value: "label == 'unterminated" });
    expect(malformed.status).toBe(500);
    expect(malformed.json.value.error).toBe('unknown error');
  });

  it('finds by class chain', async () => {
    expect(await labelsOf('class chain', '**/XCUIElementTypeSwitch[`label == "Wi-Fi"`]')).toEqual(['Wi-Fi']);
    expect(await labelsOf('class chain', '**/XCUIElementTypeCell[2]')).toEqual(['Wi-Fi']);
    expect(await labelsOf('class chain', '**/XCUIElementTypeCell[`label BEGINSWITH "B"`][-1]')).toEqual(['Battery']);
    expect(await labelsOf('class chain', "**/XCUIElementTypeCell[`label BEGINSWITH 'B'`][1]")).toEqual(['Bluetooth']);
    expect(await labelsOf('class chain', 'XCUIElementTypeWindow/XCUIElementTypeTable/XCUIElementTypeCell[1]/XCUIElementTypeSwitch')).toEqual(['Airplane Mode']);
    expect(await labelsOf('class chain', '**/XCUIElementTypeCell[$type == "XCUIElementTypeSwitch"$]')).toEqual(['Airplane Mode', 'Wi-Fi', 'Bluetooth']);
    const bad = await wda.post(wda.s('/elements'), { using: 'class chain', value: '**/UIButton[' });
    expect(bad.status).toBe(400);
    expect(bad.json.value.error).toBe('invalid selector');
  });

  it('finds by xpath', async () => {
    expect(await labelsOf('xpath', '//XCUIElementTypeSwitch[@name="Wi-Fi"]')).toEqual(['Wi-Fi']);
    expect(await labelsOf('xpath', "//*[@label='Bluetooth' and @type='XCUIElementTypeCell']")).toEqual(['Bluetooth']);
    expect(await labelsOf('xpath', '(//XCUIElementTypeSwitch)[2]')).toEqual(['Wi-Fi']);
    expect(await labelsOf('xpath', '//XCUIElementTypeCell[3]/XCUIElementTypeSwitch')).toEqual(['Bluetooth']);
    expect(await labelsOf('xpath', '//XCUIElementTypeSwitch[@value="1"]/..')).toEqual(['Wi-Fi', 'Bluetooth']);
    expect(await labelsOf('xpath', '//XCUIElementTypeCell[contains(@label, "Hotspot")]')).toEqual(['Personal Hotspot']);
    expect(await labelsOf('xpath', '/AppiumAUT/XCUIElementTypeApplication')).toEqual(['Settings']);
    const bad = await wda.post(wda.s('/elements'), { using: 'xpath', value: '//[' });
    expect(bad.status).toBe(400);
    expect(bad.json.value.error).toBe('invalid selector');
  });

  it('finds by link text and partial link text', async () => {
    expect(await labelsOf('link text', 'label=Wi-Fi')).toHaveLength(3);
    expect(await labelsOf('partial link text', 'label=Hotspot')).toEqual(['Personal Hotspot', 'Personal Hotspot']);
  });

  it('finds inside an element', async () => {
    const cell = await wda.find('accessibility id', 'com.apple.settings.bluetooth');
    const inner = await wda.post(wda.s(`/element/${cell}/element`), { using: 'class name', value: 'XCUIElementTypeSwitch' });
    expect((await wda.get(wda.s(`/element/${inner.json.value.ELEMENT}/attribute/label`))).json.value).toBe('Bluetooth');
    const xpath = await wda.post(wda.s(`/element/${cell}/elements`), { using: 'xpath', value: './/XCUIElementTypeStaticText' });
    expect(xpath.json.value).toHaveLength(1);
  });

  it('answers misses and bad locators with WDA errors', async () => {
    const miss = await wda.post(wda.s('/element'), { using: 'accessibility id', value: 'Nope' });
    expect(miss.status).toBe(404);
    expect(miss.json.value).toMatchObject({ error: 'no such element', message: "unable to find an element using 'accessibility id', value 'Nope'" });
    const none = await wda.post(wda.s('/elements'), { using: 'accessibility id', value: 'Nope' });
    expect(none.status).toBe(200);
    expect(none.json.value).toEqual([]);
    const strategy = await wda.post(wda.s('/element'), { using: 'css selector', value: 'button' });
    expect(strategy.status).toBe(400);
    expect(strategy.json.value).toMatchObject({ error: 'invalid argument', message: 'Invalid locator requested: css selector' });
  });

  it('answers element commands with typed values', async () => {
    const wifi = await wda.find('predicate string', "type == 'XCUIElementTypeSwitch' AND label == 'Wi-Fi'");
    const get = async (path: string) => (await wda.get(wda.s(`/element/${wifi}${path}`))).json.value;
    const rect = await get('/rect');
    expect(rect).toEqual({ x: expect.any(Number), y: expect.any(Number), width: expect.any(Number), height: expect.any(Number) });
    expect(Object.values(rect).every((n) => Number.isInteger(n))).toBe(true);
    expect(await get('/attribute/rect')).toEqual(rect);
    expect(await get('/attribute/value')).toBe('1');
    expect(await get('/attribute/enabled')).toBe(true);
    expect(await get('/attribute/visible')).toBe(true);
    expect(await get('/attribute/type')).toBe('XCUIElementTypeSwitch');
    expect(await get('/attribute/index')).toBe(2);
    expect(await get('/attribute/placeholderValue')).toBeNull();
    expect(await get('/text')).toBe('1');
    expect(await get('/displayed')).toBe(true);
    expect(await get('/enabled')).toBe(true);
    expect(await get('/selected')).toBe(false);
    expect(await get('/name')).toBe('XCUIElementTypeSwitch');
    const unknown = await wda.get(wda.s(`/element/${wifi}/attribute/frobnicate`));
    expect(unknown.status).toBe(500);
    expect(unknown.json.value.error).toBe('unknown error');

    const shot = Buffer.from(await get('/screenshot'), 'base64');
    expect(shot.readUInt32BE(16)).toBe(rect.width * 3);
    expect(shot.readUInt32BE(20)).toBe(rect.height * 3);

    expect((await wda.post(wda.s(`/element/${wifi}/click`))).status).toBe(200);
    expect(await get('/attribute/value')).toBe('0');
    await wda.post(wda.s(`/wda/element/${wifi}/tap`));
    expect(await get('/attribute/value')).toBe('1');
  });

  it('answers unknown and expired element ids with stale element reference', async () => {
    const id = '0A000000-0000-0000-2A05-000000000000';
    const reply = await wda.get(wda.s(`/element/${id}/rect`));
    expect(reply.status).toBe(404);
    expect(reply.json.value).toMatchObject({
      error: 'stale element reference',
      message: `The element identified by "${id}" is either not present or it has expired from the internal cache. Try to find it again`,
    });
    // an element of a screen that is gone is stale too
    const wifi = await wda.find('accessibility id', 'com.apple.settings.wifi');
    await wda.post('/wda/homescreen');
    expect((await wda.get(wda.s(`/element/${wifi}/rect`))).json.value.error).toBe('stale element reference');
  });

  it('taps an element below the fold after scrolling to it, like XCUIElement.tap()', async () => {
    const safari = await wda.find('accessibility id', 'com.apple.settings.safari');
    expect((await wda.get(wda.s(`/element/${safari}/attribute/visible`))).json.value).toBe(false);
    const click = await wda.post(wda.s(`/element/${safari}/click`));
    expect(click.status).toBe(200);
    const title = await wda.post(wda.s('/elements'), { using: 'predicate string', value: "type == 'XCUIElementTypeNavigationBar' AND name == 'Safari'" });
    expect(title.json.value).toHaveLength(1);
  });
});
