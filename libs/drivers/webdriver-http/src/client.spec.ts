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
  /** A signal that never aborts. */
  const live = new AbortController().signal;
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
    const client = new WebDriverHttpClient({ baseUrl, connectTimeoutMs: 2_000 });
    try {
      await client.send({ method: 'POST', path: '/wda/tap', body: { x: 1, y: 2 }, signal: live });
      const reply = await client.send({ method: 'GET', path: '/status', signal: live });
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

  it('sends the configured Authorization header on every request (a device cloud), and none otherwise', async () => {
    const seen: (string | undefined)[] = [];
    handler = (req, res) => {
      seen.push(req.headers.authorization);
      res.setHeader('Content-Type', 'application/json;charset=UTF-8');
      res.end(JSON.stringify({ value: null, sessionId: null }));
    };
    const withKey = new WebDriverHttpClient({ baseUrl, connectTimeoutMs: 2_000, authorization: 'Basic YWxpY2U6a2V5' });
    const without = new WebDriverHttpClient({ baseUrl, connectTimeoutMs: 2_000 });
    try {
      await withKey.send({ method: 'POST', path: '/session', body: {}, signal: live });
      await withKey.send({ method: 'GET', path: '/status', signal: live });
      await without.send({ method: 'GET', path: '/status', signal: live });
      expect(seen).toEqual(['Basic YWxpY2U6a2V5', 'Basic YWxpY2U6a2V5', undefined]);
    } finally {
      withKey.close();
      without.close();
    }
  });

  it('reads an abort by a time limit as a response_timeout', async () => {
    handler = () => undefined; // never answers
    const client = new WebDriverHttpClient({ baseUrl, connectTimeoutMs: 2_000 });
    try {
      const error = await client.send({ method: 'GET', path: '/status', signal: AbortSignal.timeout(100) }).catch((e: unknown) => e);
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
    const client = new WebDriverHttpClient({ baseUrl: `http://127.0.0.1:${port}`, connectTimeoutMs: 1_000 });
    try {
      const error = await client.send({ method: 'GET', path: '/status', signal: live }).catch((e: unknown) => e);
      expect((error as WebDriverTransportError).failure).toBe('refused');
    } finally {
      client.close();
    }
  });

  it('reports a dropped connection as reset', async () => {
    handler = (req) => req.socket.destroy();
    const client = new WebDriverHttpClient({ baseUrl, connectTimeoutMs: 1_000 });
    try {
      const error = await client.send({ method: 'POST', path: '/wda/tap', body: {}, signal: live }).catch((e: unknown) => e);
      expect((error as WebDriverTransportError).failure).toBe('reset');
    } finally {
      client.close();
    }
  });

  it('an abort ends the request at once: the call rejects and the server sees its socket close', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    let serverSocketClosed!: Promise<void>;
    handler = (req) => {
      serverSocketClosed = new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
      arrived(); // ... and never answers
    };
    // No connect bound could end this: only the abort can.
    const client = new WebDriverHttpClient({ baseUrl, connectTimeoutMs: 60_000 });
    try {
      const controller = new AbortController();
      const pending = client.send({ method: 'POST', path: '/wda/tap', body: {}, signal: controller.signal }).catch((e: unknown) => e);
      await requestArrived;
      controller.abort();
      const error = await pending;
      expect(error).toBeInstanceOf(WebDriverTransportError);
      expect((error as WebDriverTransportError).failure).toBe('aborted');
      await serverSocketClosed;
    } finally {
      client.close();
    }
  });

  it('does not send a request whose signal has already aborted', async () => {
    let requests = 0;
    handler = (_req, res) => {
      requests += 1;
      res.end(JSON.stringify({ value: null }));
    };
    const client = new WebDriverHttpClient({ baseUrl, connectTimeoutMs: 1_000 });
    try {
      const error = await client.send({ method: 'POST', path: '/wda/tap', body: {}, signal: AbortSignal.abort() }).catch((e: unknown) => e);
      expect((error as WebDriverTransportError).failure).toBe('aborted');
      await client.send({ method: 'GET', path: '/status', signal: new AbortController().signal });
      expect(requests).toBe(1);
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
    const client = new WebDriverHttpClient({ baseUrl, connectTimeoutMs: 2_000 });
    try {
      await client.send({ method: 'GET', path: '/status', signal: live });
      attempts = 0;
      const read = await client.send({ method: 'GET', path: '/status', idempotent: true, signal: live });
      expect(attempts).toBe(2);
      expect(read.value).toBe(2);

      attempts = 0;
      const error = await client.send({ method: 'POST', path: '/wda/tap', body: {}, signal: live }).catch((e: unknown) => e);
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
    const client = new WebDriverHttpClient({ baseUrl: `${baseUrl}/wd/hub/`, connectTimeoutMs: 2_000 });
    try {
      const error = await client
        .send({ method: 'POST', path: '/session/S/execute/sync', body: {}, label: 'mobile: tap', signal: live })
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
