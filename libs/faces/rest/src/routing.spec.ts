import { request as httpRequest } from 'node:http';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import * as security from '@apex/serve-security';
import { createRestLogger } from './logging';
import { createRestServer, type RestServer } from './server';
import { startRestApi, type RestApiHandle } from './start';

// The guard functions, wrapped so that a test can count how often a request runs them (they still do their work).
jest.mock('@apex/serve-security', () => {
  const actual = jest.requireActual<typeof import('@apex/serve-security')>('@apex/serve-security');
  return {
    ...actual,
    refusalOf: jest.fn(actual.refusalOf),
    applyCors: jest.fn(actual.applyCors),
    checkBearerToken: jest.fn(actual.checkBearerToken),
  };
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A raw request: the path goes out exactly as written (no client-side normalising or encoding). */
function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const req = httpRequest({ hostname, port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function problemOf(answer: Answer): Record<string, unknown> {
  expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  expect(answer.text).not.toMatch(/<html|<pre>|at \w+ \(|node_modules/i);
  return JSON.parse(answer.text) as Record<string, unknown>;
}

describe('REST routing on Express', () => {
  const driver = new FakeDriver();
  const hub = new DeviceHub({ backgroundProbes: false });
  hub.register({ id: 'phone 1/a', name: 'Fake', driver });
  const perception = new Perception(hub);
  let rest: RestServer;
  let base: string;

  beforeAll(async () => {
    rest = createRestServer({ hub, perception }, { logger: createRestLogger({ level: 'silent' }) });
    base = (await rest.listen(0)).url;
  });
  afterAll(async () => {
    await rest.close();
    await perception.close();
    await hub.close();
  });

  it('decodes a path id and hands it to the operation as its device', async () => {
    const answer = await send(base, 'POST', '/devices/phone%201%2Fa/tap', { 'content-type': 'application/json' }, '{"x":1,"y":2}');
    expect(answer.status).toBe(200);
    expect(driver.calls.filter((c) => c.method === 'tap').at(-1)?.args).toEqual([{ x: 1, y: 2 }]);
    expect(answer.headers['x-powered-by']).toBeUndefined();
    expect(answer.headers.etag).toBeUndefined();
  });

  it.each([
    ['/devices/%E0%A4%A/tap', 'is not valid URL encoding'],
    ['/devices//tap', 'must not be empty'],
    [`/devices/${'x'.repeat(129)}/tap`, 'must be at most 128 characters'],
    ['/devices/a%00b/tap', 'must not contain control characters'],
  ])('refuses the bad device id in %s, naming the path parameter', async (path, message) => {
    const answer = await send(base, 'POST', path);
    expect(answer.status).toBe(400);
    expect(problemOf(answer)).toMatchObject({ code: 'invalid_argument', errors: [{ path: 'id', message }] });
  });

  it('names the step parameter when it is broken or empty', async () => {
    const tasks = createRestServer({ hub, perception, stepScreenshots: { stepScreenshot: async () => ({ data: Buffer.alloc(0), mimeType: 'image/jpeg' }) } } as never, {
      logger: createRestLogger({ level: 'silent' }),
    });
    const url = (await tasks.listen(0)).url;
    try {
      const answer = await send(url, 'GET', '/task/t1/steps/%E0%A4%A/screenshot');
      expect(answer.status).toBe(400);
      expect(problemOf(answer)).toMatchObject({ errors: [{ path: 'n' }] });
      const empty = await send(url, 'GET', '/task/t1/steps//screenshot');
      expect(empty.status).toBe(400);
      expect(problemOf(empty)).toMatchObject({ code: 'invalid_argument', errors: [{ path: 'n' }] });
    } finally {
      await tasks.close();
    }
  });

  it.each([
    ['GET', '/nope'],
    ['GET', '/Devices'],
    ['GET', '/devices/phone-1/tap/extra'],
    ['GET', '/devices/x/y/z'],
    ['POST', '/devices/phone-1/Tap'],
    ['POST', '/devices/phone-1/tap/'],
    ['POST', '/devices/phone-1/t%61p'],
    ['POST', '/devices/phone-1/%E0'],
    ['POST', '/devices/phone-1/apps/tap'],
    ['GET', '/devices/../nope'],
    ['POST', '/openapi.json'],
    ['HEAD', '/docs'],
  ])('answers %s %s with route_not_found', async (method, path) => {
    const answer = await send(base, method, path);
    expect(answer.status).toBe(404);
    if (method !== 'HEAD') expect(problemOf(answer)).toMatchObject({ code: 'route_not_found', instance: path });
  });

  it('routes the path with its dot segments resolved, as a URL reader does', async () => {
    const answer = await send(base, 'GET', '/nope/../devices');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).devices).toHaveLength(1);
  });

  it.each([
    ['DELETE', '/devices/a', 'GET'],
    ['HEAD', '/devices', 'GET'],
    ['OPTIONS', '/devices/a/tap', 'POST'],
    ['PUT', '/devices/a/clipboard', 'GET, POST'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const answer = await send(base, method, path);
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe(allow);
    if (method !== 'HEAD') expect(problemOf(answer).code).toBe('method_not_allowed');
  });

  it('answers malformed JSON, a non-UTF-8 charset and a compressed body with a problem, not an HTML page', async () => {
    const broken = await send(base, 'POST', '/devices/a/tap', { 'content-type': 'application/json' }, '{"x":');
    expect(broken.status).toBe(400);
    expect(problemOf(broken)).toMatchObject({ code: 'invalid_argument', errors: [{ path: '', message: 'is not valid JSON' }] });
    const latin = await send(base, 'POST', '/devices/a/tap', { 'content-type': 'application/json; charset=latin1' }, '{}');
    expect(latin.status).toBe(415);
    expect(problemOf(latin).code).toBe('unsupported_media_type');
    const blank = await send(base, 'POST', '/devices/a/tap', { 'content-type': 'application/json' }, '  \n ');
    const empty = await send(base, 'POST', '/devices/a/tap', { 'content-type': 'application/json' }, '{}');
    // Whitespace is no body at all: the same answer as {} (not "malformed JSON").
    expect(problemOf(blank)).toEqual(problemOf(empty));
    expect(problemOf(blank).code).not.toBe('invalid_argument');
    const gzip = await send(base, 'POST', '/devices/a/tap', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, '{}');
    expect(gzip.status).toBe(415);
    expect(problemOf(gzip).code).toBe('unsupported_media_type');
  });
  it('answers a streamed body past the limit with 413 before the client has sent it all', async () => {
    const small = createRestServer({ hub, perception }, { bodyLimitBytes: 1000, logger: createRestLogger({ level: 'silent' }) });
    const url = (await small.listen(0)).url;
    try {
      const answer = await new Promise<Answer>((resolve, reject) => {
        const req = httpRequest(`${url}/devices/a/tap`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        });
        req.on('error', reject);
        // Never ended: only an answer given at the limit arrives.
        req.write(`{"x":"${'a'.repeat(1500)}`);
      });
      expect(answer.status).toBe(413);
      expect(answer.headers.connection).toBe('close');
      expect(problemOf(answer).code).toBe('payload_too_large');
    } finally {
      await small.close();
    }
  });
});

describe('/mcp inside REST', () => {
  const hub = new DeviceHub({ backgroundProbes: false });
  hub.register({ id: 'phone-1', name: 'Fake', driver: new FakeDriver() });
  const perception = new Perception(hub);
  const token = 'mcp-guard-token';
  let api: RestApiHandle;

  beforeAll(async () => {
    api = await startRestApi({ hub, perception }, { port: 0, token, logger: createRestLogger({ level: 'silent' }) });
  });
  afterAll(async () => {
    await api.close();
    await perception.close();
    await hub.close();
  });

  const listTools = (headers: Record<string, string>) =>
    send(api.url, 'POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));

  it('runs the Host/Origin, CORS and bearer checks once per request', async () => {
    const refusal = jest.mocked(security.refusalOf);
    const cors = jest.mocked(security.applyCors);
    const bearer = jest.mocked(security.checkBearerToken);
    for (const spy of [refusal, cors, bearer]) spy.mockClear();
    const answer = await listTools({ authorization: `Bearer ${token}`, origin: 'http://localhost:5173' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).result.tools.length).toBeGreaterThan(0);
    expect(refusal).toHaveBeenCalledTimes(1);
    expect(cors).toHaveBeenCalledTimes(1);
    expect(bearer).toHaveBeenCalledTimes(1);
  });

  it('answers a missing token with one problem and one challenge', async () => {
    const answer = await listTools({});
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer realm="apex"');
    expect(problemOf(answer).code).toBe('unauthorized');
  });
});

describe('/mcp inside REST with toolsets', () => {
  const hub = new DeviceHub({ backgroundProbes: false });
  hub.register({ id: 'phone-1', name: 'Fake', driver: new FakeDriver() });
  const perception = new Perception(hub);
  let api: RestApiHandle;

  beforeAll(async () => {
    api = await startRestApi({ hub, perception }, { port: 0, mcpToolsets: ['devices'], logger: createRestLogger({ level: 'silent' }) });
  });
  afterAll(async () => {
    await api.close();
    await perception.close();
    await hub.close();
  });

  it('lists only the chosen toolsets over MCP, while REST serves every operation', async () => {
    const listed = await send(
      api.url,
      'POST',
      '/mcp',
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    );
    expect(listed.status).toBe(200);
    expect((JSON.parse(listed.text).result.tools as { name: string }[]).map((t) => t.name)).toEqual(['list_devices', 'device_status', 'wait_for_device', 'list_toolsets']);
    const chosen = await send(
      api.url,
      'POST',
      '/mcp?toolsets=gestures',
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    );
    expect((JSON.parse(chosen.text).result.tools as { name: string }[]).map((t) => t.name)).toEqual(['double_tap', 'long_press', 'pinch', 'list_toolsets']);
    const pinched = await send(api.url, 'POST', '/devices/phone-1/pinch', { 'content-type': 'application/json' }, JSON.stringify({ scale: 2, observe: 'none' }));
    expect(pinched.status).toBe(200);
    expect(JSON.parse(pinched.text)).toMatchObject({ scale: 2 });
  });
});
