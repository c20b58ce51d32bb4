import { startVirtualIPhone, type VirtualIPhone } from '../../index';
import { parseXml, pngSize, walk, WdaHttp, type XmlElement } from '../../testing';

// Generous: a shared 2-core machine can be slow; nothing here asserts on time.
jest.setTimeout(60_000);

/** The gesture and device-control routes: long press, double tap, pinch, URLs, rotation, pasteboard, keyboard, lock, alerts, appearance. */
describe('device-control routes', () => {
  let iphone: VirtualIPhone;
  let wda: WdaHttp;

  beforeAll(async () => {
    iphone = await startVirtualIPhone();
    wda = new WdaHttp(iphone.url);
  });

  beforeEach(async () => {
    await wda.post('/orientation', { orientation: 'PORTRAIT' });
    await wda.post('/wda/unlock');
    await wda.post('/wda/homescreen');
    await wda.createSession();
  });

  afterAll(async () => {
    await iphone.close();
  });

  async function elements(): Promise<XmlElement[]> {
    return [...walk(parseXml(await wda.source()))];
  }

  async function byAttr(name: string, value: string): Promise<XmlElement | undefined> {
    return (await elements()).find((e) => e.attributes[name] === value);
  }

  async function activeBundle(): Promise<string> {
    return (await wda.get('/wda/activeAppInfo')).json.value.bundleId;
  }

  it('checks gesture payloads as WDA does', async () => {
    const hold = await wda.post(wda.s('/wda/touchAndHold'), { x: 10, y: 10, duration: -1 });
    expect([hold.status, hold.json.value.error]).toEqual([400, 'invalid argument']);
    const noScale = await wda.post(wda.s('/wda/pinch'), { velocity: 1 });
    expect([noScale.status, noScale.json.value.error]).toEqual([400, 'invalid argument']);
    for (const body of [{ scale: 2, velocity: 0 }, { scale: 0.5, velocity: 1 }, { scale: -1, velocity: -1 }]) {
      const bad = await wda.post(wda.s('/wda/pinch'), body);
      expect([bad.status, bad.json.value.error]).toEqual([500, 'unknown error']);
    }
    const oneCoordinate = await wda.post(wda.s('/wda/doubleTap'), { x: 10 });
    expect(oneCoordinate.status).toBe(400);
    // S-only routes: without a session they are unknown commands
    expect((await wda.post('/wda/pinch', { scale: 2, velocity: 1 })).json.value.error).toBe('unknown command');
    expect((await wda.post('/url', { url: 'https://apex.example/' })).json.value.error).toBe('unknown command');
  });

  it('a long press shorter than the long-press minimum is a tap', async () => {
    const icon = (await byAttr('label', 'Settings')) as XmlElement;
    const a = icon.attributes;
    const point = { x: Number(a['x']) + 10, y: Number(a['y']) + 10 };
    expect((await wda.post(wda.s('/wda/touchAndHold'), { ...point, duration: 0.1 })).status).toBe(200);
    expect(await activeBundle()).toBe('com.apple.Preferences');
  });

  it('opens http(s) URLs in Safari, prefs: in Settings and maps: in Maps; an unknown scheme fails as LaunchServices does', async () => {
    expect((await wda.post(wda.s('/url'), { url: 'https://apex.example/docs' })).status).toBe(200);
    expect(await activeBundle()).toBe('com.apple.mobilesafari');
    expect((await byAttr('name', 'URL'))?.attributes['value']).toBe('https://apex.example/docs');

    expect((await wda.post(wda.s('/url'), { url: 'prefs:root=General&path=About' })).status).toBe(200);
    expect(await activeBundle()).toBe('com.apple.Preferences');
    expect((await elements()).some((e) => e.tag === 'XCUIElementTypeNavigationBar' && e.attributes['name'] === 'About')).toBe(true);

    expect((await wda.post(wda.s('/url'), { url: 'maps://?q=Cupertino' })).status).toBe(200);
    expect(await activeBundle()).toBe('com.apple.Maps');

    const unknown = await wda.post(wda.s('/url'), { url: 'nosuchapp://x' });
    expect([unknown.status, unknown.json.value.error]).toEqual([500, 'unknown error']);
    expect(await activeBundle()).toBe('com.apple.Maps');
    const missing = await wda.post(wda.s('/url'), {});
    expect([missing.status, missing.json.value.error, missing.json.value.message]).toEqual([400, 'invalid argument', 'URL is required']);
    const notUrl = await wda.post(wda.s('/url'), { url: 'just words' });
    expect([notUrl.status, notUrl.json.value.error]).toEqual([400, 'invalid argument']);
  });

  it('rotates: orientation, window size, screen, screenshot and source all use the rotated frame', async () => {
    await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.Preferences' });
    const portrait = (await wda.get('/window/size')).json.value;
    expect((await wda.post(wda.s('/orientation'), { orientation: 'LANDSCAPE' })).status).toBe(200);
    expect((await wda.get(wda.s('/orientation'))).json.value).toBe('LANDSCAPE');
    expect((await wda.get('/orientation')).json.value).toBe('LANDSCAPE');
    expect((await wda.get(wda.s('/window/size'))).json.value).toEqual({ width: portrait.height, height: portrait.width });
    const screen = (await wda.get('/wda/screen')).json.value;
    expect(screen.screenSize).toEqual({ width: portrait.height, height: portrait.width });
    expect(screen.statusBarSize.width).toBe(portrait.height);
    const png = Buffer.from((await wda.get('/screenshot')).json.value, 'base64');
    expect(pngSize(png)).toEqual({ width: portrait.height * screen.scale, height: portrait.width * screen.scale });
    const app = parseXml(await wda.source()).children[0];
    expect([Number(app.attributes['width']), Number(app.attributes['height'])]).toEqual([portrait.height, portrait.width]);

    const bad = await wda.post(wda.s('/orientation'), { orientation: 'SIDEWAYS' });
    expect([bad.status, bad.json.value.error, bad.json.value.message]).toEqual([500, 'unknown error', 'Unable To Rotate Device']);
    expect((await wda.post('/orientation', { orientation: 'PORTRAIT' })).status).toBe(200);
    expect((await wda.get('/window/size')).json.value).toEqual(portrait);
  });

  it('round-trips the pasteboard as base64 and refuses what WDA refuses', async () => {
    const content = Buffer.from('Hello, Apex ✓', 'utf8').toString('base64');
    expect((await wda.post(wda.s('/wda/setPasteboard'), { content, contentType: 'plaintext' })).status).toBe(200);
    const read = await wda.post(wda.s('/wda/getPasteboard'), { contentType: 'plaintext' });
    expect(Buffer.from(read.json.value, 'base64').toString('utf8')).toBe('Hello, Apex ✓');
    // the default content type is plaintext
    expect((await wda.post(wda.s('/wda/getPasteboard'), {})).json.value).toBe(content);
    expect((await wda.post(wda.s('/wda/getPasteboard'), { contentType: 'image' })).json.value).toBe('');

    const notBase64 = await wda.post(wda.s('/wda/setPasteboard'), { content: '%%%', contentType: 'plaintext' });
    expect([notBase64.status, notBase64.json.value.error]).toEqual([400, 'invalid argument']);
    const badType = await wda.post(wda.s('/wda/setPasteboard'), { content, contentType: 'video' });
    expect([badType.status, badType.json.value.error]).toEqual([500, 'unknown error']);
  });

  it('hides the keyboard with a key it shows; without one an iPhone keyboard stays', async () => {
    await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.mobilenotes' });
    // no keyboard: already dismissed
    expect((await wda.post(wda.s('/wda/keyboard/dismiss'), { keyNames: ['done'] })).status).toBe(200);
    const note = await wda.find('accessibility id', 'note-body');
    await wda.post(wda.s(`/element/${note}/click`));
    const hasKeyboard = async () => (await elements()).some((e) => e.tag === 'XCUIElementTypeKeyboard');
    expect(await hasKeyboard()).toBe(true);

    const bare = await wda.post(wda.s('/wda/keyboard/dismiss'), {});
    expect([bare.status, bare.json.value.error]).toEqual([400, 'invalid element state']);
    const wrong = await wda.post(wda.s('/wda/keyboard/dismiss'), { keyNames: ['nothing-like-it'] });
    expect(wrong.status).toBe(400);
    expect(await hasKeyboard()).toBe(true);
    const badNames = await wda.post(wda.s('/wda/keyboard/dismiss'), { keyNames: 'done' });
    expect([badNames.status, badNames.json.value.error]).toEqual([400, 'invalid argument']);

    expect((await wda.post(wda.s('/wda/keyboard/dismiss'), { keyNames: ['done'] })).status).toBe(200);
    expect(await hasKeyboard()).toBe(false);
  });

  it('locks and unlocks: the lock screen shows and SpringBoard is active while locked', async () => {
    await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.mobilenotes' });
    expect((await wda.post(wda.s('/wda/lock'))).status).toBe(200);
    expect((await wda.get('/wda/locked')).json.value).toBe(true);
    expect(await activeBundle()).toBe('com.apple.springboard');
    expect(await wda.source()).not.toContain('note-body');
    expect((await wda.post('/wda/unlock')).status).toBe(200);
    expect((await wda.get(wda.s('/wda/locked'))).json.value).toBe(false);
  });

  it('answers no alert with 404 no such alert and the message of each route', async () => {
    const text = await wda.get(wda.s('/alert/text'));
    expect([text.status, text.json.value.error, text.json.value.message]).toEqual([404, 'no such alert', 'An attempt was made to operate on a modal dialog when one was not open']);
    const buttons = await wda.get(wda.s('/wda/alert/buttons'));
    expect([buttons.status, buttons.json.value.message]).toEqual([404, 'An attempt was made to operate on a modal dialog when one was not open']);
    for (const route of ['/alert/accept', '/alert/dismiss']) {
      const reply = await wda.post(wda.s(route));
      expect([reply.status, reply.json.value.error, reply.json.value.message]).toEqual([404, 'no such alert', 'No alert is open']);
    }
  });

  it('sets the appearance without a session only', async () => {
    expect((await wda.post('/wda/device/appearance', { name: 'dark' })).status).toBe(200);
    expect((await wda.get('/wda/device/info')).json.value.userInterfaceStyle).toBe('dark');
    const underSession = await wda.post(wda.s('/wda/device/appearance'), { name: 'light' });
    expect([underSession.status, underSession.json.value.error]).toEqual([404, 'unknown command']);
    const bad = await wda.post('/wda/device/appearance', { name: 'sepia' });
    expect([bad.status, bad.json.value.error]).toEqual([400, 'invalid argument']);
    expect((await wda.post('/wda/device/appearance', { name: 'LIGHT' })).status).toBe(200);
    expect((await wda.get('/wda/device/info')).json.value.userInterfaceStyle).toBe('light');
  });

  it('turns two W3C touch pointers moving apart into a pinch around their midpoint', async () => {
    const pinch = jest.spyOn(iphone.phone, 'pinch');
    const finger = (id: string, fromX: number, toX: number) => ({
      type: 'pointer',
      id,
      parameters: { pointerType: 'touch' },
      actions: [
        { type: 'pointerMove', duration: 0, x: fromX, y: 400 },
        { type: 'pointerDown' },
        { type: 'pointerMove', duration: 300, x: toX, y: 400 },
        { type: 'pointerUp' },
      ],
    });
    const reply = await wda.post(wda.s('/actions'), { actions: [finger('f1', 150, 100), finger('f2', 250, 300)] });
    expect(reply.status).toBe(200);
    expect(pinch).toHaveBeenCalledWith(200, 400, 2);
    pinch.mockRestore();
  });

  describe('visible effects over HTTP', () => {
    function centre(e: XmlElement) {
      const a = e.attributes;
      return { x: Number(a['x']) + Number(a['width']) / 2, y: Number(a['y']) + Number(a['height']) / 2 };
    }

    it('touchAndHold on a home-screen icon opens its context menu in the source', async () => {
      const icon = (await byAttr('label', 'Notes')) as XmlElement;
      expect((await wda.post(wda.s('/wda/touchAndHold'), { ...centre(icon), duration: 0.8 })).status).toBe(200);
      expect(await activeBundle()).toBe('com.apple.springboard');
      const remove = await byAttr('label', 'Remove App');
      expect(remove?.tag).toBe('XCUIElementTypeButton');
      await wda.post(wda.s('/wda/tap'), { x: 5, y: 400 });
      expect(await byAttr('label', 'Remove App')).toBeUndefined();
    });

    it('/wda/pinch zooms Maps: the Map element’s value changes', async () => {
      await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.Maps' });
      if ((await wda.get('/alert/text')).status === 200) await wda.post('/alert/accept');
      const value = async () => (await byAttr('name', 'Map'))?.attributes['value'];
      const before = await value();
      expect((await wda.post(wda.s('/wda/pinch'), { scale: 2, velocity: 1 })).status).toBe(200);
      expect(await value()).not.toBe(before);
      expect(await value()).toMatch(/^Zoom level \d+/);
    });

    it('doubleTap zooms an open photo: its rect grows', async () => {
      await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.mobileslideshow' });
      const thumb = (await byAttr('label', 'Photo 3')) as XmlElement;
      await wda.post(wda.s('/wda/tap'), centre(thumb));
      const photo = (await byAttr('label', 'Photo 3')) as XmlElement;
      expect((await wda.post(wda.s('/wda/doubleTap'), centre(photo))).status).toBe(200);
      const zoomed = (await byAttr('label', 'Photo 3')) as XmlElement;
      expect(Number(zoomed.attributes['width'])).toBeGreaterThan(Number(photo.attributes['width']) * 2);
      await wda.post(wda.s('/wda/tap'), { x: 26, y: 70 });
    });

    it('dragfromtoforduration with a hold reorders Reminders', async () => {
      await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.reminders' });
      const cells = async () => (await elements()).filter((e) => e.tag === 'XCUIElementTypeCell').sort((a, b) => Number(a.attributes['y']) - Number(b.attributes['y']));
      const [first, , third] = await cells();
      const from = centre(first);
      const to = centre(third);
      const body = { fromX: from.x, fromY: from.y, toX: to.x, toY: to.y };
      expect((await wda.post(wda.s('/wda/dragfromtoforduration'), { ...body, duration: 1 })).status).toBe(200);
      expect((await cells()).map((c) => c.attributes['label']).indexOf(first.attributes['label'])).toBe(2);
      // put it back: the app keeps its order across sessions
      const moved = centre((await cells())[2]);
      await wda.post(wda.s('/wda/dragfromtoforduration'), { fromX: moved.x, fromY: moved.y, toX: from.x, toY: from.y, duration: 1 });
      expect((await cells())[0].attributes['label']).toBe(first.attributes['label']);
    });

    it('the pasteboard set over WDA pastes into a text field through its edit menu', async () => {
      await wda.post(wda.s('/wda/setPasteboard'), { content: Buffer.from('pasted over WDA').toString('base64'), contentType: 'plaintext' });
      await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.MobileSMS' });
      const field = (await byAttr('name', 'messageBodyField')) as XmlElement;
      await wda.post(wda.s('/wda/touchAndHold'), { ...centre(field), duration: 1 });
      const paste = (await elements()).find((e) => e.tag === 'XCUIElementTypeMenuItem' && e.attributes['label'] === 'Paste') as XmlElement;
      expect(paste).toBeDefined();
      await wda.post(wda.s('/wda/tap'), centre(paste));
      expect((await byAttr('name', 'messageBodyField'))?.attributes['value']).toBe('pasted over WDA');
    });
  });
});
