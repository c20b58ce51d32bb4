import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebDriverMalformedReply, WebDriverProtocolError, WebDriverTransportError } from './errors';
import { parseEnvelope, WebDriverHttpClient } from './client';

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
    expect(error).toBeInstanceOf(WebDriverProtocolError);
    expect(error).toMatchObject({ httpStatus: 404, error: 'no such element', serverMessage: 'unable to find' });
    expect((error as WebDriverProtocolError).trace).toBeTruthy();
  });

  it.each(['<html>oops</html>', '', '{"notValue":1}', 'Not Found', '[1,2]'])('rejects %j as malformed', (body) => {
    expect(() => parseEnvelope(200, 'GET /x', body)).toThrow(WebDriverMalformedReply);
  });

  it('treats a non-2xx reply without an error name as malformed', () => {
    expect(() => parseEnvelope(500, 'GET /x', '{"value":"boom"}')).toThrow(WebDriverMalformedReply);
  });
});

describe('WebDriverHttpClient over real HTTP', () => {
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
    const client = new WebDriverHttpClient({ baseUrl, requestTimeoutMs: 5_000, connectTimeoutMs: 2_000 });
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
    const client = new WebDriverHttpClient({ baseUrl, requestTimeoutMs: 200, connectTimeoutMs: 2_000 });
    try {
      const error = await client.send({ method: 'GET', path: '/status' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebDriverTransportError);
      expect((error as WebDriverTransportError).failure).toBe('response_timeout');
    } finally {
      client.close();
    }
  });

  it('reports a closed port as refused', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const client = new WebDriverHttpClient({ baseUrl: `http://127.0.0.1:${port}`, requestTimeoutMs: 2_000, connectTimeoutMs: 1_000 });
    try {
      const error = await client.send({ method: 'GET', path: '/status' }).catch((e: unknown) => e);
      expect((error as WebDriverTransportError).failure).toBe('refused');
    } finally {
      client.close();
    }
  });

  it('reports a dropped connection as reset', async () => {
    handler = (req) => req.socket.destroy();
    const client = new WebDriverHttpClient({ baseUrl, requestTimeoutMs: 2_000, connectTimeoutMs: 1_000 });
    try {
      const error = await client.send({ method: 'POST', path: '/wda/tap', body: {} }).catch((e: unknown) => e);
      expect((error as WebDriverTransportError).failure).toBe('reset');
    } finally {
      client.close();
    }
  });

  it('honours an AbortSignal', async () => {
    handler = () => undefined;
    const client = new WebDriverHttpClient({ baseUrl, requestTimeoutMs: 10_000, connectTimeoutMs: 1_000 });
    try {
      const controller = new AbortController();
      const pending = client.send({ method: 'GET', path: '/status', signal: controller.signal }).catch((e: unknown) => e);
      setTimeout(() => controller.abort(), 20);
      expect(((await pending) as WebDriverTransportError).failure).toBe('aborted');
    } finally {
      client.close();
    }
  });

  it('re-sends a read once when its kept-alive socket was closed, but never a mutation', async () => {
    const answered = new Set<import('node:net').Socket>();
    let attempts = 0;
    // The first request on a socket is answered; a later one on the same socket finds it closed.
    handler = (req, res) => {
      attempts += 1;
      if (answered.has(req.socket)) {
        req.socket.destroy();
        return;
      }
      answered.add(req.socket);
      res.setHeader('Content-Type', 'application/json;charset=UTF-8');
      res.end(JSON.stringify({ value: attempts, sessionId: null }));
    };
    const client = new WebDriverHttpClient({ baseUrl, requestTimeoutMs: 5_000, connectTimeoutMs: 2_000 });
    try {
      await client.send({ method: 'GET', path: '/status' });
      attempts = 0;
      const read = await client.send({ method: 'GET', path: '/status', idempotent: true });
      expect(attempts).toBe(2);
      expect(read.value).toBe(2);

      attempts = 0;
      const error = await client.send({ method: 'POST', path: '/wda/tap', body: {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebDriverTransportError);
      expect(error).toMatchObject({ failure: 'reset', reusedSocket: true });
      expect(attempts).toBe(1);
    } finally {
      client.close();
    }
  });

  it('keeps a base path and names the route and label in errors', async () => {
    const urls: (string | undefined)[] = [];
    handler = (req, res) => {
      urls.push(req.url);
      res.statusCode = 404;
      res.end(JSON.stringify({ value: { error: 'unknown method', message: 'Method is not implemented', stacktrace: 'at x' } }));
    };
    const client = new WebDriverHttpClient({ baseUrl: `${baseUrl}/wd/hub/`, requestTimeoutMs: 5_000, connectTimeoutMs: 2_000 });
    try {
      const error = await client
        .send({ method: 'POST', path: '/session/S/execute/sync', body: {}, label: 'mobile: tap' })
        .catch((e: unknown) => e);
      expect(urls).toEqual(['/wd/hub/session/S/execute/sync']);
      expect(error).toBeInstanceOf(WebDriverProtocolError);
      expect(error).toMatchObject({
        httpStatus: 404,
        error: 'unknown method',
        route: 'POST /wd/hub/session/S/execute/sync (mobile: tap)',
        trace: 'at x',
      });
    } finally {
      client.close();
    }
  });
});
