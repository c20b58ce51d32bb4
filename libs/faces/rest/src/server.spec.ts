import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import { SERVER_TIMEOUTS } from '@apex/serve-security';
import { createRestLogger } from './logging';
import { createRestServer, type RestServer } from './server';

/** Collects pino's JSON lines. */
function logSink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, stream };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json: () => Record<string, unknown>;
}

/** A raw HTTP request (node:http, so bodies, chunking and headers are exactly what the test says). */
function send(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; chunks?: Buffer[] } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers: options.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(parts);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) });
      });
    });
    // The server may answer (413) and close before the whole body is written: that is the point.
    req.on('error', (error) => reject(error));
    if (options.chunks) {
      for (const chunk of options.chunks) req.write(chunk);
      req.end();
    } else {
      req.end(options.body);
    }
  });
}

describe('REST server (hub with a fake driver)', () => {
  const driver = new FakeDriver();
  const hub = new DeviceHub({ backgroundProbes: false });
  hub.register({ id: 'phone-1', name: 'Fake', driver });
  const perception = new Perception(hub);
  const logs = logSink();
  let rest: RestServer;
  let base: string;

  beforeAll(async () => {
    rest = createRestServer(
      { hub, perception },
      { bodyLimitBytes: 4096, logger: createRestLogger({ level: 'debug', destination: logs.stream }) },
    );
    base = (await rest.listen(0)).url;
  });

  afterAll(async () => {
    await rest.close();
    await perception.close();
    await hub.close();
  });

  it('answers /healthz', async () => {
    const res = await send(base, 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('runs an operation with the path id as its device', async () => {
    const res = await send(base, 'POST', '/devices/phone-1/tap', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ x: 10, y: 20 }),
    });
    expect(res.status).toBe(200);
    expect(driver.calls.filter((c) => c.method === 'tap').at(-1)?.args).toEqual([{ x: 10, y: 20 }]);
  });

  it('answers problem+json for unknown routes and wrong methods', async () => {
    const missing = await send(base, 'GET', '/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(missing.json()).toMatchObject({ code: 'route_not_found', status: 404, type: 'https://apex.dev/problems/route_not_found', instance: '/nope' });
    const wrong = await send(base, 'DELETE', '/devices/phone-1');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET');
  });

  it('refuses a body that is not JSON, malformed, not an object, or has unknown fields', async () => {
    const tap = (body: string, type = 'application/json') =>
      send(base, 'POST', '/devices/phone-1/tap', { headers: { 'Content-Type': type }, body });
    const text = await tap('x=1', 'text/plain');
    expect(text.status).toBe(415);
    expect(text.json().code).toBe('unsupported_media_type');
    const broken = await tap('{"x": 1,');
    expect(broken.status).toBe(400);
    expect(broken.json()).toMatchObject({ code: 'invalid_argument' });
    expect((await tap('[1,2]')).json().errors).toEqual([{ path: '', message: 'must be a JSON object' }]);
    const unknown = await tap('{"x":1,"y":2,"force":true,"device":"other"}');
    expect(unknown.status).toBe(400);
    expect(unknown.json().errors).toEqual([
      { path: 'force', message: 'is not a known field' },
      { path: 'device', message: 'is given by the path, not the body' },
    ]);
  });

  it('refuses bodies over the limit, declared or streamed, and keeps serving', async () => {
    const declared = await send(base, 'POST', '/devices/phone-1/tap', {
      headers: { 'Content-Type': 'application/json', 'Content-Length': '5000' },
      body: Buffer.alloc(5000, 0x20),
    });
    expect(declared.status).toBe(413);
    expect(declared.json().code).toBe('payload_too_large');
    const streamed = await send(base, 'POST', '/devices/phone-1/tap', {
      headers: { 'Content-Type': 'application/json' },
      chunks: [Buffer.alloc(3000, 0x20), Buffer.alloc(3000, 0x20)],
    });
    expect(streamed.status).toBe(413);
    expect((await send(base, 'GET', '/healthz')).status).toBe(200);
  });

  it('serves a screenshot as an image, or as JSON on request', async () => {
    const image = await send(base, 'POST', '/devices/phone-1/screenshot', {
      headers: { 'Content-Type': 'application/json' },
      body: '{"format":"png"}',
    });
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.body.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(Number(image.headers['x-image-width'])).toBeGreaterThan(0);
    const json = await send(base, 'POST', '/devices/phone-1/screenshot', {
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: '{"format":"png"}',
    });
    const value = json.json();
    expect(value).toMatchObject({ mimeType: 'image/png', format: 'png' });
    expect(Buffer.from(String(value.data), 'base64').equals(image.body)).toBe(true);
  });

  it('rejects foreign origins and hosts when no token is set', async () => {
    const origin = await send(base, 'GET', '/devices', { headers: { Origin: 'https://evil.example' } });
    expect(origin.status).toBe(403);
    expect(origin.json().code).toBe('forbidden_origin');
    const host = await send(base, 'GET', '/devices', { headers: { Host: 'evil.example' } });
    expect(host.status).toBe(403);
    expect(host.json().code).toBe('forbidden_host');
    // A Host that a URL parser would read as 127.0.0.1 (userinfo) is not a loopback name either.
    const smuggled = await send(base, 'GET', '/devices', { headers: { Host: 'evil.example@127.0.0.1' } });
    expect(smuggled.status).toBe(403);
    expect(smuggled.json().code).toBe('forbidden_host');
  });

  it('gives a foreign page neither an answer nor CORS headers, preflight included', async () => {
    const preflight = await send(base, 'OPTIONS', '/devices/phone-1/tap', {
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('does not wait minutes for a slow client (header and request timeouts)', () => {
    expect(rest.server.headersTimeout).toBe(SERVER_TIMEOUTS.headersTimeoutMs);
    expect(rest.server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeoutMs);
  });

  it('lets a loopback page read the answers (CORS), preflight included', async () => {
    const origin = 'http://localhost:5173';
    const preflight = await send(base, 'OPTIONS', '/devices/phone-1/tap', {
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/Content-Type/);
    const read = await send(base, 'GET', '/devices', { headers: { Origin: origin } });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe(origin);
    const plain = await send(base, 'GET', '/devices');
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('logs requests as JSON with typed text redacted', async () => {
    const secret = 'hunter2-typed-secret';
    await send(base, 'POST', '/devices/phone-1/input', {
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer not-a-token' },
      body: JSON.stringify({ text: secret }),
    });
    const all = logs.lines.join('');
    expect(all).toContain('"operation":"input_text"');
    expect(all).toContain('[redacted]');
    expect(all).not.toContain(secret);
    expect(all).not.toContain('not-a-token');
    expect(logs.lines.some((line) => JSON.parse(line).msg === 'request')).toBe(true);
  });
});

describe('REST server with a token', () => {
  const hub = new DeviceHub({ backgroundProbes: false });
  hub.register({ id: 'phone-1', driver: new FakeDriver() });
  const perception = new Perception(hub);
  let rest: RestServer;
  let base: string;

  beforeAll(async () => {
    rest = createRestServer({ hub, perception }, { token: 'tok-123', logger: createRestLogger({ level: 'silent' }) });
    base = (await rest.listen(0)).url;
  });
  afterAll(async () => {
    await rest.close();
    await perception.close();
    await hub.close();
  });

  it('requires the bearer token everywhere but /healthz', async () => {
    expect((await send(base, 'GET', '/healthz')).status).toBe(200);
    const attempts: Record<string, string>[] = [{}, { Authorization: 'Bearer wrong' }, { Authorization: 'tok-123' }];
    for (const headers of attempts) {
      const res = await send(base, 'GET', '/devices', { headers });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.json()).toMatchObject({ code: 'unauthorized', status: 401 });
    }
    expect((await send(base, 'GET', '/openapi.json')).status).toBe(401);
    const ok = await send(base, 'GET', '/devices', { headers: { Authorization: 'Bearer tok-123' } });
    expect(ok.status).toBe(200);
  });

  it('answers a preflight without the token, but not the request itself', async () => {
    const origin = 'http://127.0.0.1:8080';
    const preflight = await send(base, 'OPTIONS', '/devices', { headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' } });
    expect(preflight.status).toBe(204);
    const denied = await send(base, 'GET', '/devices', { headers: { Origin: origin } });
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe(origin);
  });

  it('refuses to listen beyond loopback without a token', async () => {
    const open = createRestServer({ hub, perception }, { logger: createRestLogger({ level: 'silent' }) });
    await expect(open.listen(0, '0.0.0.0')).rejects.toThrow(/APEX_TOKEN/);
    expect(open.server.listening).toBe(false);
  });
});
