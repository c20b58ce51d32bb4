import sharp from 'sharp';
import { call, DEVICE, DEVICE_PATH, startRestHarness, type RestHarness } from './harness';

const NOTES = 'com.apple.mobilenotes';
const SETTINGS = 'com.apple.Preferences';

interface Center {
  center: { x: number; y: number };
}

/** Every REST route over real HTTP against the embedded virtual iPhone (WDA driver over HTTP underneath). */
describe('REST routes', () => {
  let h: RestHarness;

  beforeAll(async () => {
    h = await startRestHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const foreground = async () => ((await call(h.url, 'GET', DEVICE_PATH)).body.foregroundApp as { appId: string }).appId;

  it('GET /healthz', async () => {
    const res = await call(h.url, 'GET', '/healthz');
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('GET /devices lists the embedded phones', async () => {
    const res = await call(h.url, 'GET', '/devices');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.devices).toEqual([
      expect.objectContaining({ id: DEVICE, platform: 'ios', state: 'online' }),
      expect.objectContaining({ id: 'android-virtual', platform: 'android', state: 'online' }),
    ]);
  });

  it('GET /devices/{id} reports the status', async () => {
    const res = await call(h.url, 'GET', DEVICE_PATH);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: DEVICE, platform: 'ios', screen: { width: 393, height: 852, scale: 3 } });
  });

  it('GET /devices/{id}/apps, /describe and /ui-tree (query coerced)', async () => {
    const apps = await call(h.url, 'GET', `${DEVICE_PATH}/apps`);
    expect(apps.status).toBe(200);
    expect(apps.body.apps).toEqual(expect.arrayContaining([expect.objectContaining({ appId: 'com.apple.springboard' })]));

    const described = await call(h.url, 'GET', `${DEVICE_PATH}/describe`);
    expect(described.status).toBe(200);
    expect(JSON.stringify(described.body.elements)).toContain('"label":"Settings"');

    const flat = await call(h.url, 'GET', `${DEVICE_PATH}/ui-tree?format=flat&maxDepth=2&interactiveOnly=false`);
    expect(flat.status).toBe(200);
    expect(flat.body.format).toBe('flat');
    const nodes = flat.body.nodes as { depth: number }[];
    expect(nodes.length).toBeGreaterThan(2);
    expect(Math.max(...nodes.map((n) => n.depth))).toBeLessThanOrEqual(2);
  });

  it('POST find-text and find-icon locate Settings; tap opens it; press-button goes home', async () => {
    const text = await call(h.url, 'POST', `${DEVICE_PATH}/find-text`, { body: { text: 'Settings' } });
    expect(text.status).toBe(200);
    const match = (text.body.matches as Center[])[0];
    expect(match.center).toEqual({ x: expect.any(Number), y: expect.any(Number) });

    const icon = await call(h.url, 'POST', `${DEVICE_PATH}/find-icon`, { body: { name: 'Settings' } });
    expect(icon.status).toBe(200);
    expect(JSON.stringify(icon.body)).toContain('center');

    const tap = await call(h.url, 'POST', `${DEVICE_PATH}/tap`, { body: match.center });
    expect(tap.status).toBe(200);
    expect(await foreground()).toBe(SETTINGS);

    const home = await call(h.url, 'POST', `${DEVICE_PATH}/press-button`, { body: { button: 'home' } });
    expect(home).toMatchObject({ status: 200, body: { pressed: 'home' } });
    expect(await foreground()).toBe('com.apple.springboard');
  });

  it('POST launch, tap a text field, input (typed text reaches the phone), terminate', async () => {
    const launch = await call(h.url, 'POST', `${DEVICE_PATH}/launch`, { body: { appId: NOTES } });
    expect(launch).toMatchObject({ status: 200, body: { appId: NOTES } });
    expect(await foreground()).toBe(NOTES);

    const tree = await call(h.url, 'GET', `${DEVICE_PATH}/ui-tree?format=flat`);
    const field = (tree.body.nodes as (Center & { role: string })[]).find((n) => n.role === 'textField');
    if (!field) throw new Error('Notes shows no text field');
    expect((await call(h.url, 'POST', `${DEVICE_PATH}/tap`, { body: field.center })).status).toBe(200);

    const typed = await call(h.url, 'POST', `${DEVICE_PATH}/input`, { body: { text: 'hello from rest' } });
    expect(typed).toMatchObject({ status: 200, body: { typedCharacters: 15, submitted: false } });
    const found = await call(h.url, 'POST', `${DEVICE_PATH}/find-text`, { body: { text: 'hello from rest', source: 'ui-tree' } });
    expect((found.body.matches as unknown[]).length).toBeGreaterThan(0);

    const terminated = await call(h.url, 'POST', `${DEVICE_PATH}/terminate`, { body: { appId: NOTES } });
    expect(terminated).toMatchObject({ status: 200, body: { appId: NOTES, wasRunning: true } });
    await call(h.url, 'POST', `${DEVICE_PATH}/press-button`, { body: { button: 'home' } });
  });

  it('POST swipe', async () => {
    const res = await call(h.url, 'POST', `${DEVICE_PATH}/swipe`, { body: { from: { x: 200, y: 600 }, to: { x: 200, y: 300 }, durationMs: 200 } });
    expect(res.status).toBe(200);
    const byDirection = await call(h.url, 'POST', `${DEVICE_PATH}/swipe`, { body: { direction: 'left' } });
    expect(byDirection).toMatchObject({ status: 200, body: { direction: 'left' } });
  });

  it('POST screenshot answers the image by default, with its size in headers', async () => {
    const res = await fetch(`${h.url}${DEVICE_PATH}/screenshot`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(Number(res.headers.get('x-image-width')));
    expect(meta.height).toBe(Number(res.headers.get('x-image-height')));
    // Default: 1 image pixel = 1 point.
    expect(meta.width).toBe(393);
    expect(Number(res.headers.get('x-pixels-per-point'))).toBe(1);
  });

  it('POST screenshot takes the MCP tool options and answers JSON on Accept: application/json', async () => {
    const png = await fetch(`${h.url}${DEVICE_PATH}/screenshot`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'png', resolution: 'native', maxWidth: 600 }),
    });
    expect(png.headers.get('content-type')).toBe('image/png');
    const pngMeta = await sharp(Buffer.from(await png.arrayBuffer())).metadata();
    expect(pngMeta).toMatchObject({ format: 'png', width: 600 });

    const json = await call(h.url, 'POST', `${DEVICE_PATH}/screenshot`, {
      body: { format: 'jpeg', maxWidth: 200 },
      headers: { accept: 'application/json' },
    });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ mimeType: 'image/jpeg', format: 'jpeg', width: 200 });
    const decoded = await sharp(Buffer.from(String(json.body.data), 'base64')).metadata();
    expect(decoded).toMatchObject({ format: 'jpeg', width: 200, height: json.body.height });
  });

  it('still accepts the deprecated screenshot option scale (now resolution), documented as deprecated', async () => {
    const shot = (body: object) => call(h.url, 'POST', `${DEVICE_PATH}/screenshot`, { body, headers: { accept: 'application/json' } });
    const { data: _old, ...old } = (await shot({ scale: 'native' })).body;
    const { data: _current, ...current } = (await shot({ resolution: 'native' })).body;
    expect(old).toEqual(current);
    // Native pixels (within the 2,000-pixel side cap), not the points default.
    expect(old['pixelsPerPoint']).toBeGreaterThan(1);
    const both = await call(h.url, 'POST', `${DEVICE_PATH}/screenshot`, { body: { scale: 'native', resolution: 'points' } });
    expect(both.status).toBe(400);
    expect(both.body['code']).toBe('invalid_argument');

    const doc = (await call(h.url, 'GET', '/openapi.json')).body as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    const operation = doc['paths']['/devices/{id}/screenshot'];
    const body = (operation['post']['requestBody'] as { content: Record<string, { schema: { properties: Record<string, { deprecated?: boolean }> } }> })
      .content['application/json'].schema;
    expect(body.properties['scale']?.deprecated).toBe(true);
    expect(body.properties['resolution']?.deprecated).toBeUndefined();
  });

  it('URL-decodes the device id in the path', async () => {
    const res = await call(h.url, 'GET', `/devices/${encodeURIComponent(DEVICE).replace('-', '%2D')}`);
    expect(res).toMatchObject({ status: 200, body: { id: DEVICE } });
  });
});
