import { request as httpRequest } from 'node:http';
import { call, DEVICE_PATH, startRestHarness, type RestHarness } from './harness';

interface BadInput {
  name: string;
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  path: string;
  /** A JSON value to send, or raw text (with `type`) to send as is. */
  body?: unknown;
  raw?: string;
  type?: string;
  status: number;
  code: string;
  /** A field the problem must list in `errors`. */
  field?: string;
}

const tap = `${DEVICE_PATH}/tap`;
const input = `${DEVICE_PATH}/input`;
const J = 'application/json';

/** Each a 4xx problem with the right code; none may change the phone. */
const BAD_INPUTS: BadInput[] = [
  { name: 'tap x as a string', method: 'POST', path: tap, body: { x: 'ten', y: 10 }, status: 400, code: 'invalid_argument', field: 'x' },
  { name: 'tap negative x', method: 'POST', path: tap, body: { x: -1, y: 10 }, status: 400, code: 'invalid_argument', field: 'x' },
  { name: 'tap x = 1e309 (Infinity)', method: 'POST', path: tap, raw: '{"x":1e309,"y":10}', type: J, status: 400, code: 'invalid_argument', field: 'x' },
  { name: 'tap x = "NaN"', method: 'POST', path: tap, body: { x: 'NaN', y: 10 }, status: 400, code: 'invalid_argument', field: 'x' },
  { name: 'tap without y', method: 'POST', path: tap, body: { x: 10 }, status: 400, code: 'invalid_argument', field: 'y' },
  { name: 'tap off-screen', method: 'POST', path: tap, body: { x: 5000, y: 10 }, status: 400, code: 'invalid_argument' },
  { name: 'tap with an unknown field', method: 'POST', path: tap, body: { x: 1, y: 1, force: 3 }, status: 400, code: 'invalid_argument', field: 'force' },
  { name: 'tap with device in the body', method: 'POST', path: tap, body: { x: 1, y: 1, device: 'other' }, status: 400, code: 'invalid_argument', field: 'device' },
  { name: 'tap with a JSON array body', method: 'POST', path: tap, raw: '[1,2]', type: J, status: 400, code: 'invalid_argument' },
  { name: 'tap with malformed JSON', method: 'POST', path: tap, raw: '{"x": 1, "y":', type: J, status: 400, code: 'invalid_argument' },
  { name: 'tap with a text/plain body', method: 'POST', path: tap, raw: 'x=1&y=2', type: 'text/plain', status: 415, code: 'unsupported_media_type' },
  { name: 'tap with a form body', method: 'POST', path: tap, raw: 'x=1&y=2', type: 'application/x-www-form-urlencoded', status: 415, code: 'unsupported_media_type' },
  { name: 'tap with a query string', method: 'POST', path: `${tap}?x=1&y=2`, status: 400, code: 'invalid_argument', field: 'x' },
  { name: 'input empty text', method: 'POST', path: input, body: { text: '' }, status: 400, code: 'invalid_argument', field: 'text' },
  { name: 'input oversized text', method: 'POST', path: input, body: { text: 'a'.repeat(2001) }, status: 400, code: 'invalid_argument', field: 'text' },
  { name: 'input text as a number', method: 'POST', path: input, body: { text: 42 }, status: 400, code: 'invalid_argument', field: 'text' },
  { name: 'input submit as a string', method: 'POST', path: input, body: { text: 'a', submit: 'yes' }, status: 400, code: 'invalid_argument', field: 'submit' },
  { name: 'launch an unknown app', method: 'POST', path: `${DEVICE_PATH}/launch`, body: { appId: 'com.nope.Missing' }, status: 404, code: 'app_not_found' },
  { name: 'launch a malformed app id', method: 'POST', path: `${DEVICE_PATH}/launch`, body: { appId: 'not an id!' }, status: 400, code: 'invalid_argument', field: 'appId' },
  { name: 'launch without appId', method: 'POST', path: `${DEVICE_PATH}/launch`, body: {}, status: 400, code: 'invalid_argument', field: 'appId' },
  { name: 'terminate a malformed app id', method: 'POST', path: `${DEVICE_PATH}/terminate`, body: { appId: '../etc' }, status: 400, code: 'invalid_argument', field: 'appId' },
  { name: 'press an unknown button', method: 'POST', path: `${DEVICE_PATH}/press-button`, body: { button: 'power' }, status: 400, code: 'invalid_argument', field: 'button' },
  { name: 'swipe in an unknown direction', method: 'POST', path: `${DEVICE_PATH}/swipe`, body: { direction: 'diagonal' }, status: 400, code: 'invalid_argument', field: 'direction' },
  { name: 'swipe too fast', method: 'POST', path: `${DEVICE_PATH}/swipe`, body: { direction: 'up', durationMs: 1 }, status: 400, code: 'invalid_argument', field: 'durationMs' },
  { name: 'find-text without text', method: 'POST', path: `${DEVICE_PATH}/find-text`, body: {}, status: 400, code: 'invalid_argument' },
  { name: 'find-text with a negative region', method: 'POST', path: `${DEVICE_PATH}/find-text`, body: { text: 'a', region: { x: 0, y: 0, width: -5, height: 10 } }, status: 400, code: 'invalid_argument', field: 'region.width' },
  { name: 'screenshot as gif', method: 'POST', path: `${DEVICE_PATH}/screenshot`, body: { format: 'gif' }, status: 400, code: 'invalid_argument', field: 'format' },
  { name: 'screenshot maxWidth too small', method: 'POST', path: `${DEVICE_PATH}/screenshot`, body: { maxWidth: 10 }, status: 400, code: 'invalid_argument', field: 'maxWidth' },
  { name: 'ui-tree maxDepth not a number', method: 'GET', path: `${DEVICE_PATH}/ui-tree?maxDepth=abc`, status: 400, code: 'invalid_argument', field: 'maxDepth' },
  { name: 'ui-tree maxDepth = NaN', method: 'GET', path: `${DEVICE_PATH}/ui-tree?maxDepth=NaN`, status: 400, code: 'invalid_argument', field: 'maxDepth' },
  { name: 'ui-tree maxDepth = Infinity', method: 'GET', path: `${DEVICE_PATH}/ui-tree?maxDepth=1e309`, status: 400, code: 'invalid_argument', field: 'maxDepth' },
  { name: 'ui-tree unknown query parameter', method: 'GET', path: `${DEVICE_PATH}/ui-tree?depth=2`, status: 400, code: 'invalid_argument', field: 'depth' },
  { name: 'ui-tree repeated parameter', method: 'GET', path: `${DEVICE_PATH}/ui-tree?format=flat&format=tree`, status: 400, code: 'invalid_argument', field: 'format' },
  { name: 'unknown device', method: 'GET', path: '/devices/no-such-phone', status: 404, code: 'device_not_found' },
  { name: 'unknown device on an action', method: 'POST', path: '/devices/no-such-phone/tap', body: { x: 1, y: 1 }, status: 404, code: 'device_not_found' },
  { name: 'device id with broken URL encoding', method: 'GET', path: '/devices/%E0%A4%A', status: 400, code: 'invalid_argument', field: 'id' },
  { name: 'device id too long', method: 'GET', path: `/devices/${'x'.repeat(300)}`, status: 400, code: 'invalid_argument', field: 'id' },
  { name: 'device id with a control character', method: 'GET', path: '/devices/a%0Ab', status: 400, code: 'invalid_argument', field: 'id' },
  { name: 'unknown route', method: 'GET', path: '/phones', status: 404, code: 'route_not_found' },
  { name: 'unknown sub-route', method: 'POST', path: `${DEVICE_PATH}/explode`, body: {}, status: 404, code: 'route_not_found' },
  { name: 'wrong method', method: 'DELETE', path: '/devices', status: 405, code: 'method_not_allowed' },
  { name: 'GET on a POST route', method: 'GET', path: tap, status: 405, code: 'method_not_allowed' },
];

const LEAKS = /XCUIElement|WebDriverAgent|\bWDA\b|appium|ECONN|\n\s+at |stack/i;

describe('REST bad inputs', () => {
  let h: RestHarness;
  let versionBefore: number;
  const phoneVersion = () => {
    if (!h.runtime.embedded) throw new Error('expected the embedded virtual iPhone');
    return h.runtime.embedded.phone.version;
  };

  beforeAll(async () => {
    h = await startRestHarness({ bodyLimitBytes: 64 * 1024 });
    versionBefore = phoneVersion();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('has a table of at least 25 cases', () => {
    expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(25);
  });

  it.each(BAD_INPUTS.map((c) => [c.name, c] as const))('%s → a 4xx problem', async (_name, c) => {
    const res = await call(h.url, c.method, c.path, {
      body: c.body,
      rawBody: c.raw,
      headers: c.type ? { 'content-type': c.type } : {},
    });
    expect(res.status).toBe(c.status);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      status: c.status,
      code: c.code,
      type: `https://apex.dev/problems/${c.code}`,
      title: expect.any(String),
      detail: expect.any(String),
    });
    if (c.field) {
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: c.field })]));
    }
    if (c.status === 405) expect(res.headers.get('allow')).toBeTruthy();
    expect(JSON.stringify(res.body)).not.toMatch(LEAKS);
  });

  it('refuses a body over the limit with 413, declared or streamed, without reading it all', async () => {
    const big = { text: 'a'.repeat(100 * 1024) };
    const declared = await call(h.url, 'POST', `${DEVICE_PATH}/input`, { body: big });
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ code: 'payload_too_large', status: 413 });

    const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${h.url}${DEVICE_PATH}/input`, { method: 'POST', headers: { 'content-type': J } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write('{"text":"');
      req.write('a'.repeat(66 * 1024));
      req.end('"}');
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).code).toBe('payload_too_large');
  });

  it('is still serving afterwards, and no bad input changed the phone', async () => {
    const devices = await call(h.url, 'GET', '/devices');
    expect(devices.status).toBe(200);
    expect(devices.body.devices).toEqual([expect.objectContaining({ state: 'online' }), expect.objectContaining({ state: 'online' })]);
    expect(phoneVersion()).toBe(versionBefore);
  });
});
