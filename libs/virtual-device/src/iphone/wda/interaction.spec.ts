import { startVirtualIPhone, type VirtualIPhone } from '../../index';
import { parseXml, walk, WdaHttp, type XmlElement } from '../../testing';

// Generous: a shared 2-core machine can be slow; nothing here asserts on time.
jest.setTimeout(60_000);

/** Touch, typing, apps and alerts over WDA routes, observed through the source and the pixels. */
describe('interacting with the phone', () => {
  let iphone: VirtualIPhone;
  let wda: WdaHttp;

  beforeAll(async () => {
    iphone = await startVirtualIPhone();
    wda = new WdaHttp(iphone.url);
  });

  beforeEach(async () => {
    await wda.post('/wda/homescreen');
    await wda.createSession();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  afterAll(async () => {
    await iphone.close();
  });

  async function elements(): Promise<XmlElement[]> {
    return [...walk(parseXml(await wda.source()))];
  }

  async function activeBundle(): Promise<string> {
    return (await wda.get('/wda/activeAppInfo')).json.value.bundleId;
  }

  function center(element: XmlElement): { x: number; y: number } {
    const a = element.attributes;
    return { x: Number(a['x']) + Number(a['width']) / 2, y: Number(a['y']) + Number(a['height']) / 2 };
  }

  it('launches an app by tapping its icon where the source places it', async () => {
    expect(await activeBundle()).toBe('com.apple.springboard');
    const icon = (await elements()).find((e) => e.tag === 'XCUIElementTypeIcon' && e.attributes['label'] === 'Settings');
    expect(icon).toBeDefined();
    const point = center(icon as XmlElement);
    expect((await wda.post(wda.s('/wda/tap'), point)).status).toBe(200);
    expect(await activeBundle()).toBe('com.apple.Preferences');
    expect((await elements()).some((e) => e.attributes['name'] === 'com.apple.settings.wifi')).toBe(true);
  });

  it('types into a focused text view: the text shows in the source and in the pixels', async () => {
    await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.mobilenotes' });
    const note = await wda.find('accessibility id', 'note-body');
    const before = await wda.screenshot();
    const rect = (await wda.get(wda.s(`/element/${note}/rect`))).json.value;

    const noFocus = await wda.post(wda.s('/wda/keys'), { value: ['x'] });
    expect(noFocus.status).toBe(400);
    expect(noFocus.json.value.error).toBe('invalid element state');

    await wda.post(wda.s(`/element/${note}/click`));
    expect((await elements()).some((e) => e.tag === 'XCUIElementTypeKeyboard')).toBe(true);
    expect((await wda.post(wda.s('/wda/keys'), { value: ['Hello', ' ', 'Apex'] })).status).toBe(200);
    expect((await wda.get(wda.s(`/element/${note}/attribute/value`))).json.value).toBe('Hello Apex');
    expect((await wda.get(wda.s(`/element/${note}/text`))).json.value).toBe('Hello Apex');

    const after = await wda.screenshot();
    let changed = 0;
    for (let y = rect.y; y < rect.y + 30; y += 2) {
      for (let x = rect.x; x < rect.x + 120; x += 2) {
        if (before.at(x * 3, y * 3).join() !== after.at(x * 3, y * 3).join()) changed++;
      }
    }
    expect(changed).toBeGreaterThan(20);

    expect((await wda.post(wda.s(`/element/${note}/clear`))).status).toBe(200);
    expect((await wda.post(wda.s(`/element/${note}/value`), { value: ['a', 'b'] })).status).toBe(200);
    expect((await wda.get(wda.s(`/element/${note}/attribute/value`))).json.value).toBe('ab');
    await wda.post(wda.s(`/element/${note}/clear`));
  });

  it('performs W3C touch actions as a tap and as a drag', async () => {
    const icon = (await elements()).find((e) => e.attributes['label'] === 'Settings' && e.tag === 'XCUIElementTypeIcon') as XmlElement;
    const { x, y } = center(icon);
    const tap = await wda.post(wda.s('/actions'), {
      actions: [
        {
          type: 'pointer',
          id: 'finger1',
          parameters: { pointerType: 'touch' },
          actions: [{ type: 'pointerMove', duration: 0, x, y }, { type: 'pointerDown', button: 0 }, { type: 'pause', duration: 50 }, { type: 'pointerUp', button: 0 }],
        },
      ],
    });
    expect(tap.status).toBe(200);
    expect(await activeBundle()).toBe('com.apple.Preferences');

    const drag = jest.spyOn(iphone.phone, 'drag');
    const firstRowY = async () => Number((await elements()).find((e) => e.attributes['name'] === 'com.apple.settings.wifi')?.attributes['y']);
    const before = await firstRowY();
    const swipe = await wda.post(wda.s('/actions'), {
      actions: [
        {
          type: 'pointer',
          id: 'finger1',
          parameters: { pointerType: 'touch' },
          actions: [
            { type: 'pointerMove', duration: 0, x: 200, y: 700 },
            { type: 'pointerDown' },
            { type: 'pointerMove', duration: 500, x: 200, y: 400 },
            { type: 'pointerUp' },
          ],
        },
      ],
    });
    expect(swipe.status).toBe(200);
    // moved at once: no hold before the drag
    expect(drag).toHaveBeenCalledWith(200, 700, 200, 400, 0);
    expect(await firstRowY()).toBeLessThan(before);
  });

  it('rejects a mouse (or default) pointer with 500 unknown error, as WDA does', async () => {
    for (const parameters of [{ pointerType: 'mouse' }, undefined]) {
      const reply = await wda.post(wda.s('/actions'), {
        actions: [{ type: 'pointer', id: 'm', parameters, actions: [{ type: 'pointerMove', x: 10, y: 10 }, { type: 'pointerDown' }, { type: 'pointerUp' }] }],
      });
      expect(reply.status).toBe(500);
      expect(reply.json.value.error).toBe('unknown error');
      expect(reply.json.value.message).toMatch(/Only pointer type 'touch' is supported/);
    }
  });

  it('takes drag durations in seconds', async () => {
    await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.Preferences' });
    const drag = jest.spyOn(iphone.phone, 'drag');
    const reply = await wda.post(wda.s('/wda/dragfromtoforduration'), { fromX: 200, fromY: 700, toX: 200, toY: 300, duration: 0.8 });
    expect(reply.status).toBe(200);
    expect(drag).toHaveBeenCalledWith(200, 700, 200, 300, 0.8);
    const swipe = await wda.post(wda.s('/wda/swipe'), { direction: 'sideways' });
    expect(swipe.status).toBe(400);
    expect(swipe.json.value.error).toBe('invalid argument');
    expect((await wda.post(wda.s('/wda/swipe'), { direction: 'down' })).status).toBe(200);
  });

  it('launches, activates, reports and terminates apps', async () => {
    await wda.post(wda.s('/wda/apps/terminate'), { bundleId: 'com.apple.Preferences' });
    expect((await wda.post(wda.s('/wda/apps/state'), { bundleId: 'com.apple.Preferences' })).json.value).toBe(1);
    expect((await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.Preferences' })).json.value).toBeNull();
    expect((await wda.post(wda.s('/wda/apps/state'), { bundleId: 'com.apple.Preferences' })).json.value).toBe(4);
    const list = (await wda.get(wda.s('/wda/apps/list'))).json.value;
    expect(list).toEqual([{ pid: expect.any(Number), bundleId: 'com.apple.Preferences' }]);
    await wda.post('/wda/homescreen');
    expect([2, 3]).toContain((await wda.post(wda.s('/wda/apps/state'), { bundleId: 'com.apple.Preferences' })).json.value);
    await wda.post(wda.s('/wda/apps/activate'), { bundleId: 'com.apple.Preferences' });
    expect(await activeBundle()).toBe('com.apple.Preferences');
    expect((await wda.post(wda.s('/wda/apps/terminate'), { bundleId: 'com.apple.Preferences' })).json.value).toBe(true);
    expect((await wda.post(wda.s('/wda/apps/terminate'), { bundleId: 'com.apple.Preferences' })).json.value).toBe(false);
    expect(await activeBundle()).toBe('com.apple.springboard');
  });

  it('answers an unknown bundle id with 400 invalid argument carrying the open-application service failure', async () => {
    const reply = await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.example.missing' });
    expect(reply.status).toBe(400);
    expect(reply.json.value.error).toBe('invalid argument');
    expect(reply.json.value.message).toMatch(/FBSOpenApplicationServiceErrorDomain/);
    expect(reply.json.value.message).toMatch(/returned nil for "com\.example\.missing"/);
    expect([0, 1]).toContain((await wda.post(wda.s('/wda/apps/state'), { bundleId: 'com.example.missing' })).json.value);
    expect((await wda.post(wda.s('/wda/apps/launch'), {})).status).toBe(400);
  });

  it('reports and answers a system alert', async () => {
    const none = await wda.get('/alert/text');
    expect(none.status).toBe(404);
    expect(none.json.value.error).toBe('no such alert');
    expect((await wda.post('/alert/accept')).json.value.error).toBe('no such alert');

    await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.Maps' });
    const text = await wda.get('/alert/text');
    expect(text.status).toBe(200);
    expect(text.json.value).toMatch(/location/);
    const buttons = (await wda.get(wda.s('/wda/alert/buttons'))).json.value as string[];
    expect(buttons).toContain("Don't Allow");
    expect((await elements()).some((e) => e.tag === 'XCUIElementTypeAlert')).toBe(true);
    const badName = await wda.post(wda.s('/alert/accept'), { name: 'Maybe' });
    expect(badName.status).toBe(400);
    expect((await wda.post(wda.s('/alert/dismiss'), { name: "Don't Allow" })).status).toBe(200);
    expect((await wda.get('/alert/text')).status).toBe(404);
  });

  it('goes home with /wda/homescreen and the home button', async () => {
    await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.Preferences' });
    expect((await wda.post('/wda/homescreen')).status).toBe(200);
    expect(await activeBundle()).toBe('com.apple.springboard');
    await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.Preferences' });
    await wda.post(wda.s('/wda/pressButton'), { name: 'home' });
    expect(await activeBundle()).toBe('com.apple.springboard');
    // /wda/homescreen is N only
    expect((await wda.post(wda.s('/wda/homescreen'))).json.value.error).toBe('unknown command');
  });

  it('scrolls by direction and to a named element (mobile: scroll)', async () => {
    await wda.post(wda.s('/wda/apps/terminate'), { bundleId: 'com.apple.Preferences' });
    await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.Preferences' });
    const wifiY = async () => Number((await elements()).find((e) => e.attributes['name'] === 'com.apple.settings.wifi')?.attributes['y']);
    const top = await wifiY();
    expect((await wda.post(wda.s('/wda/scroll'), { direction: 'down' })).status).toBe(200);
    expect(await wifiY()).toBeLessThan(top);
    expect((await wda.post(wda.s('/wda/scroll'), { direction: 'up' })).status).toBe(200);
    expect(await wifiY()).toBe(top);
    expect((await wda.post(wda.s('/wda/scroll'), { direction: 'diagonal' })).status).toBe(400);

    const safari = await wda.find('accessibility id', 'com.apple.settings.safari');
    expect((await wda.get(wda.s(`/element/${safari}/attribute/visible`))).json.value).toBe(false);
    expect((await wda.post(wda.s('/wda/scroll'), { name: 'com.apple.settings.safari' })).status).toBe(200);
    expect((await wda.get(wda.s(`/element/${safari}/attribute/visible`))).json.value).toBe(true);
  });

  it('rotates with /orientation and /rotation; window sizes swap in landscape', async () => {
    await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.Preferences' });
    expect((await wda.post('/orientation', { orientation: 'LANDSCAPE' })).status).toBe(200);
    expect((await wda.get('/orientation')).json.value).toBe('LANDSCAPE');
    expect((await wda.get('/window/size')).json.value).toEqual({ width: 852, height: 393 });
    expect((await wda.get('/rotation')).json.value).toEqual({ x: 0, y: 0, z: 270 });
    expect((await wda.post('/rotation', { x: 0, y: 0, z: 0 })).status).toBe(200);
    expect((await wda.get('/orientation')).json.value).toBe('PORTRAIT');
    expect((await wda.get('/window/size')).json.value).toEqual({ width: 393, height: 852 });
    expect((await wda.post('/rotation', { x: 0, y: 0, z: 45 })).status).toBe(500);
  });

  it('refuses to turn the home screen (an iPhone 15 keeps it portrait), as WDA reports an app that cannot turn', async () => {
    await wda.post(wda.s('/wda/pressButton'), { name: 'home' });
    const refused = await wda.post('/orientation', { orientation: 'LANDSCAPE' });
    expect([refused.status, refused.json.value.error, refused.json.value.message]).toEqual([500, 'unknown error', 'Unable To Rotate Device']);
    expect((await wda.get('/orientation')).json.value).toBe('PORTRAIT');
  });
});
