import { startVirtualIPhone, type VirtualIPhone } from '../../index';
import { WdaHttp } from '../../testing';

// Generous: a shared 2-core machine can be slow; nothing here asserts on time.
jest.setTimeout(60_000);

/** Transport, envelope, status and session lifecycle, over real HTTP. */
describe('WDA protocol basics', () => {
  let iphone: VirtualIPhone;
  let wda: WdaHttp;

  beforeAll(async () => {
    iphone = await startVirtualIPhone({ port: 0 });
    wda = new WdaHttp(iphone.url);
  });

  afterAll(async () => {
    await iphone.close();
  });

  it('listens on 127.0.0.1 on an ephemeral port', () => {
    expect(iphone.url).toBe(`http://127.0.0.1:${iphone.port}`);
    expect(iphone.port).toBeGreaterThan(0);
  });

  it('answers /status with WDA shape, headers and a pretty-printed envelope', async () => {
    const reply = await wda.get('/status');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(reply.headers['server']).toBe('WebDriverAgent/1.0');
    // A real WDA answers any page (`*`); the virtual iPhone gives CORS headers to loopback pages only.
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    expect(reply.text).toContain('\n  "value": {');
    const { value, sessionId } = reply.json;
    expect(value).toMatchObject({
      ready: true,
      message: 'WebDriverAgent is ready to accept commands',
      state: 'success',
      os: { name: 'iOS', version: '17.5', sdkVersion: '17.5', testmanagerdVersion: 28 },
      build: { productBundleIdentifier: 'com.facebook.WebDriverAgentRunner', version: expect.any(String) },
      device: 'iphone',
    });
    expect(value.ios).toHaveProperty('ip');
    expect(sessionId).toBeNull();
  });

  it('answers /health with HTML and /wda/healthcheck with null', async () => {
    const health = await wda.get('/health');
    expect(health.status).toBe(200);
    expect(health.headers['content-type']).toMatch(/text\/html/);
    expect(health.text).toContain('I-AM-ALIVE');
    expect((await wda.get('/wda/healthcheck')).json).toEqual({ value: null, sessionId: null });
  });

  it('runs a session lifecycle: create, get, replace, stale id, delete', async () => {
    const created = await wda.post('/session', { capabilities: { alwaysMatch: { platformName: 'iOS' }, firstMatch: [{ 'appium:shouldUseCompactResponses': true }] } });
    expect(created.status).toBe(200);
    const first = created.json.value.sessionId as string;
    expect(first).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(created.json).toEqual({ value: { sessionId: first, capabilities: { device: 'iphone', sdkVersion: '17.5' } }, sessionId: first });

    const got = await wda.get(`/session/${first}`);
    expect(got.json).toEqual(created.json);
    expect((await wda.get('/status')).json.sessionId).toBe(first);

    const second = (await wda.post('/session', { capabilities: {} })).json.value.sessionId as string;
    expect(second).not.toBe(first);
    const stale = await wda.get(`/session/${first}/window/size`);
    expect(stale.status).toBe(404);
    expect(stale.json.value).toMatchObject({ error: 'invalid session id', message: 'Session does not exist' });
    expect(typeof stale.json.value.traceback).toBe('string');
    expect(stale.json.sessionId).toBe(second);

    const deleted = await wda.call('DELETE', `/session/${second}`);
    expect(deleted.json).toEqual({ value: null, sessionId: null });
    expect((await wda.get(`/session/${second}`)).json.value.error).toBe('invalid session id');
  });

  it('refuses a session without capabilities, with a prefixed standard cap, or with an unknown bundleId', async () => {
    const missing = await wda.post('/session', {});
    expect(missing.status).toBe(500);
    expect(missing.json.value.error).toBe('session not created');
    expect(missing.json.value.message).toMatch(/'capabilities' is mandatory/);

    const prefixed = await wda.post('/session', { capabilities: { alwaysMatch: { 'appium:platformName': 'iOS' } } });
    expect(prefixed.status).toBe(500);
    expect(prefixed.json.value.error).toBe('session not created');

    const unknownApp = await wda.post('/session', { capabilities: { alwaysMatch: { 'appium:bundleId': 'com.example.nope' } } });
    expect(unknownApp.status).toBe(500);
    expect(unknownApp.json.value.error).toBe('session not created');
    expect(unknownApp.json.value.message).toMatch(/^Cannot launch com\.example\.nope application/);
  });

  it('launches the bundleId capability into the foreground', async () => {
    await wda.createSession({ 'appium:bundleId': 'com.apple.Preferences' });
    const info = await wda.get('/wda/activeAppInfo');
    expect(info.json.value).toMatchObject({ bundleId: 'com.apple.Preferences', name: 'Settings', processArguments: { args: [], env: {} } });
    expect(info.json.value.pid).toBeGreaterThan(0);
    await wda.post('/wda/homescreen');
  });

  it('answers unknown paths with unknown command, also for S-only routes without a session and under a dead id', async () => {
    const sid = await wda.createSession();
    for (const path of ['/nope', `/session/${sid}/nope`, '/session/DEAD-ID/nope', '/wda/tap']) {
      const reply = await wda.post(path, { x: 1 });
      expect(reply.status).toBe(404);
      expect(reply.json.value.error).toBe('unknown command');
      expect(reply.json.value.message).toMatch(new RegExp(`^Unhandled endpoint: ${path.replace(/[/-]/g, '\\$&')} with parameters \\{`));
    }
    // a known route under a wrong id
    const wrong = await wda.post('/session/DEAD-ID/wda/tap', { x: 1, y: 1 });
    expect(wrong.json.value.error).toBe('invalid session id');
    // N-only route under a session is unknown
    expect((await wda.get(`/session/${sid}/status`)).json.value.error).toBe('unknown command');
    // a wrong verb on a known path is unknown too
    expect((await wda.call('DELETE', '/status')).json.value.error).toBe('unknown command');
  });

  it('matches routes case-insensitively and takes bodies as JSON only (unlike a real WDA)', async () => {
    await wda.createSession();
    expect((await wda.get('/WINDOW/Size')).json.value).toEqual({ width: 393, height: 852 });
    const tapped = await fetch(`${iphone.url}${wda.s('/wda/tap')}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ x: 5, y: 400 }),
    });
    expect(tapped.status).toBe(200);
    const plain = await fetch(`${iphone.url}${wda.s('/wda/tap')}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ x: 5, y: 400 }),
    });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { value: { error: string } }).value.error).toBe('invalid argument');
    const garbage = await wda.call('POST', wda.s('/wda/tap'), 'this is {not json');
    expect(garbage.status).toBe(400);
    expect(garbage.json.value.error).toBe('invalid argument');
  });

  it('answers OPTIONS with {value:null} and unknown verbs with a plain 404', async () => {
    const options = await wda.call('OPTIONS', '/anything/at/all');
    expect(options.status).toBe(200);
    expect(options.json).toEqual({ value: null });
    const patch = await wda.call('PATCH', '/status');
    expect(patch.status).toBe(404);
    expect(patch.json).toBeUndefined();
    expect(patch.text).toBe('Not Found');
  });

  it('never crashes on odd input', async () => {
    await wda.createSession();
    const odd = [
      () => wda.post(wda.s('/element'), 'null'),
      () => wda.post(wda.s('/element'), { using: 1, value: {} }),
      () => wda.post(wda.s('/wda/dragfromtoforduration'), { fromX: 'a' }),
      () => wda.post(wda.s('/actions'), { actions: 'nope' }),
      () => wda.post(wda.s('/wda/keys'), { value: [{}] }),
      () => wda.get(wda.s('/element/%E0%A4%A/rect')),
      () => wda.post(wda.s('/appium/settings'), { settings: 5 }),
      () => wda.post('/orientation', { orientation: 42 }),
    ];
    for (const call of odd) {
      const reply = await call();
      expect([400, 404, 500]).toContain(reply.status);
      expect(typeof reply.json.value.error).toBe('string');
    }
    expect((await wda.get('/status')).status).toBe(200);
  });

  it('reports and updates settings', async () => {
    await wda.createSession();
    const before = await wda.get(wda.s('/appium/settings'));
    expect(before.json.value).toMatchObject({ shouldUseCompactResponses: true, elementResponseAttributes: 'type,label', snapshotMaxDepth: 50 });
    const after = await wda.post(wda.s('/appium/settings'), { settings: { shouldUseCompactResponses: false } });
    expect(after.json.value.shouldUseCompactResponses).toBe(false);
    const element = await wda.post(wda.s('/element'), { using: 'accessibility id', value: 'Settings' });
    expect(element.json.value).toMatchObject({ type: 'XCUIElementTypeIcon', label: 'Settings' });
    expect(element.json.value.ELEMENT).toBe(element.json.value['element-6066-11e4-a52e-4f735466cecf']);
  });

  it('reports screen geometry, device info, battery, lock and orientation', async () => {
    await wda.createSession();
    expect((await wda.get('/wda/screen')).json.value).toEqual({ screenSize: { width: 393, height: 852 }, statusBarSize: { width: 393, height: 54 }, scale: 3 });
    expect((await wda.get(wda.s('/window/rect'))).json.value).toEqual({ x: 0, y: 0, width: 393, height: 852 });
    const info = (await wda.get('/wda/device/info')).json.value;
    expect(info).toMatchObject({ name: 'Apex iPhone', model: 'iPhone', userInterfaceIdiom: 0, userInterfaceStyle: 'light', isSimulator: true });
    const battery = (await wda.get(wda.s('/wda/batteryInfo'))).json.value;
    expect(battery.level).toBeGreaterThanOrEqual(0);
    expect([0, 1, 2, 3]).toContain(battery.state);

    expect((await wda.get('/wda/locked')).json.value).toBe(false);
    await wda.post('/wda/lock');
    expect((await wda.get('/wda/locked')).json.value).toBe(true);
    await wda.post('/wda/unlock');
    expect((await wda.get('/wda/locked')).json.value).toBe(false);

    expect((await wda.get('/orientation')).json.value).toBe('PORTRAIT');
    const bad = await wda.post('/orientation', { orientation: 'SIDEWAYS' });
    expect(bad.status).toBe(500);
    expect(bad.json.value).toMatchObject({ error: 'unknown error', message: 'Unable To Rotate Device' });
  });

  it('answers /wda/pressButton and rejects unknown buttons like WDA', async () => {
    await wda.createSession();
    expect((await wda.post(wda.s('/wda/pressButton'), { name: 'HOME' })).status).toBe(200);
    const bad = await wda.post(wda.s('/wda/pressButton'), { name: 'turbo' });
    expect(bad.status).toBe(500);
    expect(bad.json.value.error).toBe('unknown error');
    expect(bad.json.value.message).toMatch(/^The button 'turbo' is not supported/);
  });
});
