import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApexError, LEAKY_WORDS, toPublicError } from '@apex/errors';
import { translateError } from '../errors';
import { WdaMalformedReply, WdaProtocolError, WdaTransportError } from './wda-errors';
import { parseEnvelope, WdaHttpClient } from './wda-http-client';

describe('parseEnvelope', () => {
  it('returns value and sessionId of a success', () => {
    expect(parseEnvelope(200, 'GET /status', '{\n  "value" : {"ready": true},\n  "sessionId" : "ABC"\n}')).toEqual({
      value: { ready: true },
      sessionId: 'ABC',
    });
    expect(parseEnvelope(200, 'POST /x', '{"value":null,"sessionId":null}')).toEqual({ value: null, sessionId: null });
  });

  it.each([
    ['traceback', '{"value":{"error":"no such element","message":"unable to find","traceback":"0 WDA 0x1"},"sessionId":"S"}'],
    ['stacktrace', '{"value":{"error":"no such element","message":"unable to find","stacktrace":"at proxy"},"sessionId":null}'],
  ])('reads the error envelope with %s', (_field, body) => {
    let error: unknown;
    try {
      parseEnvelope(404, 'POST /session/S/element', body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WdaProtocolError);
    expect(error).toMatchObject({ httpStatus: 404, error: 'no such element', wdaMessage: 'unable to find' });
    expect((error as WdaProtocolError).traceback).toBeTruthy();
  });

  it.each(['<html>oops</html>', '', '{"notValue":1}', 'Not Found', '[1,2]'])('rejects %j as malformed', (body) => {
    expect(() => parseEnvelope(200, 'GET /x', body)).toThrow(WdaMalformedReply);
  });

  it('treats a non-2xx reply without an error name as malformed', () => {
    expect(() => parseEnvelope(500, 'GET /x', '{"value":"boom"}')).toThrow(WdaMalformedReply);
  });
});

describe('translateError', () => {
  const cases: [string, unknown, string][] = [
    ['refused', new WdaTransportError('refused', 'connect ECONNREFUSED 127.0.0.1:8100'), 'device_offline'],
    ['unreachable', new WdaTransportError('unreachable', 'connect EHOSTUNREACH'), 'device_offline'],
    ['connect timeout', new WdaTransportError('connect_timeout', 'no connection'), 'device_offline'],
    ['reset', new WdaTransportError('reset', 'socket hang up'), 'device_offline'],
    ['response timeout', new WdaTransportError('response_timeout', 'slow'), 'device_timeout'],
    ['no such element', new WdaProtocolError(404, 'no such element', 'x', 'tb', 'r'), 'element_not_found'],
    ['invalid argument', new WdaProtocolError(400, 'invalid argument', 'x', undefined, 'r'), 'invalid_argument'],
    ['timeout', new WdaProtocolError(408, 'timeout', 'x', undefined, 'r'), 'device_timeout'],
    ['unknown command', new WdaProtocolError(404, 'unknown command', 'Unhandled endpoint', undefined, 'r'), 'unsupported_operation'],
    ['unknown error', new WdaProtocolError(500, 'unknown error', 'XCUIElementTypeAny crashed', 'tb', 'r'), 'device_error'],
    ['malformed', new WdaMalformedReply(200, 'GET /x', '<html>'), 'device_error'],
    ['anything', new TypeError('x is undefined'), 'device_error'],
  ];

  it.each(cases)('maps %s to %s with a neutral message naming the device', (_name, error, code) => {
    const apex = translateError(error, 'iphone-a', 'tap');
    expect(apex).toBeInstanceOf(ApexError);
    expect(apex.code).toBe(code);
    expect(apex.message).toMatch(/iphone-a/);
    expect(apex.message).not.toMatch(LEAKY_WORDS);
    expect(apex.hint ?? '').not.toMatch(LEAKY_WORDS);
    expect(apex.cause).toBe(error);
    // The public form keeps the message as written (nothing leaky to replace).
    expect(toPublicError(apex).message).toBe(apex.message);
  });
});

describe('WdaHttpClient over real HTTP', () => {
  let server: http.Server;
  let baseUrl: string;
  const sockets = new Set<import('node:net').Socket>();
  let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;

  beforeAll(async () => {
    server = http.createServer((req, res) => handler(req, res));
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends JSON bodies and reuses one kept-alive connection', async () => {
    const seen: { method?: string; url?: string; body: string; remotePort?: number }[] = [];
    handler = (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, body, remotePort: req.socket.remotePort });
        res.setHeader('Content-Type', 'application/json;charset=UTF-8');
        res.end(JSON.stringify({ value: { echo: body }, sessionId: null }));
      });
    };
    const client = new WdaHttpClient({ baseUrl, requestTimeoutMs: 5_000, connectTimeoutMs: 2_000 });
    try {
      await client.send({ method: 'POST', path: '/wda/tap', body: { x: 1, y: 2 } });
      const reply = await client.send({ method: 'GET', path: '/status' });
      expect(reply.value).toEqual({ echo: '' });
      expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
        ['POST', '/wda/tap', '{"x":1,"y":2}'],
        ['GET', '/status', ''],
      ]);
      expect(seen[0].remotePort).toBe(seen[1].remotePort);
    } finally {
      client.close();
    }
  });

  it('bounds the whole request: a silent server is a response_timeout', async () => {
    handler = () => undefined; // never answers
    const client = new WdaHttpClient({ baseUrl, requestTimeoutMs: 200, connectTimeoutMs: 2_000 });
    try {
      const error = await client.send({ method: 'GET', path: '/status' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WdaTransportError);
      expect((error as WdaTransportError).failure).toBe('response_timeout');
    } finally {
      client.close();
    }
  });

  it('reports a closed port as refused', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const client = new WdaHttpClient({ baseUrl: `http://127.0.0.1:${port}`, requestTimeoutMs: 2_000, connectTimeoutMs: 1_000 });
    try {
      const error = await client.send({ method: 'GET', path: '/status' }).catch((e: unknown) => e);
      expect((error as WdaTransportError).failure).toBe('refused');
    } finally {
      client.close();
    }
  });

  it('reports a dropped connection as reset', async () => {
    handler = (req) => req.socket.destroy();
    const client = new WdaHttpClient({ baseUrl, requestTimeoutMs: 2_000, connectTimeoutMs: 1_000 });
    try {
      const error = await client.send({ method: 'POST', path: '/wda/tap', body: {} }).catch((e: unknown) => e);
      expect((error as WdaTransportError).failure).toBe('reset');
    } finally {
      client.close();
    }
  });

  it('honours an AbortSignal', async () => {
    handler = () => undefined;
    const client = new WdaHttpClient({ baseUrl, requestTimeoutMs: 10_000, connectTimeoutMs: 1_000 });
    try {
      const controller = new AbortController();
      const pending = client.send({ method: 'GET', path: '/status', signal: controller.signal }).catch((e: unknown) => e);
      setTimeout(() => controller.abort(), 20);
      expect(((await pending) as WdaTransportError).failure).toBe('aborted');
    } finally {
      client.close();
    }
  });
});
