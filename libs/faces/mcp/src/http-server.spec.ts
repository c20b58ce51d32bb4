import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import { SERVER_TIMEOUTS } from '@apex/serve-security';
import { startMcpHttpServer, type McpHttpServer } from './http-server';

const TOKEN = 's3cret-token-for-tests';
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'spec', version: '1' } },
});

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Over node:http, because fetch cannot forge `Host`. */
function call(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = (url: string, headers: Record<string, string> = {}) => call(url, 'POST', { ...JSON_HEADERS, ...headers }, INITIALIZE);

describe('standalone MCP HTTP server: serve security', () => {
  const hub = new DeviceHub({ backgroundProbes: false });
  hub.register({ id: 'iphone-a', driver: new FakeDriver() });
  const perception = new Perception(hub);
  let open: McpHttpServer;
  let secured: McpHttpServer;

  beforeAll(async () => {
    open = await startMcpHttpServer({ hub, perception }, { port: 0 });
    secured = await startMcpHttpServer({ hub, perception }, { port: 0, token: TOKEN });
  });

  afterAll(async () => {
    await Promise.all([open.close(), secured.close()]);
    await perception.close();
    await hub.close();
  });

  it('serves a loopback Host and refuses any other name without a token (DNS rebinding)', async () => {
    expect((await initialize(open.url)).status).toBe(200);
    expect((await initialize(open.url, { host: `localhost:${new URL(open.url).port}` })).status).toBe(200);
    for (const host of ['evil.example', `evil.example:${new URL(open.url).port}`, 'evil.example@127.0.0.1']) {
      const refused = await initialize(open.url, { host });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/host/) } });
    }
  });

  it('with a token, serves any Host name but still refuses a foreign Origin', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await initialize(secured.url, { ...auth, host: 'phone-lab.example' })).status).toBe(200);
    expect((await initialize(secured.url, { ...auth, origin: 'https://evil.example' })).status).toBe(403);
  });

  it('gives CORS headers to loopback pages only, never *', async () => {
    const origin = 'http://localhost:5173';
    const preflight = await call(open.url, 'OPTIONS', { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/Content-Type/);
    const read = await initialize(open.url, { origin });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe(origin);
    const foreign = await call(open.url, 'OPTIONS', { origin: 'https://evil.example', 'access-control-request-method': 'POST' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect((await initialize(open.url)).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sets short header, request and keep-alive timeouts instead of Node’s defaults', () => {
    expect(open.server.headersTimeout).toBe(SERVER_TIMEOUTS.headersTimeoutMs);
    expect(open.server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeoutMs);
    expect(open.server.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveTimeoutMs);
  });

  it('answers a request target that is not a URL without dying', async () => {
    const port = Number(new URL(open.url).port);
    const status = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET http://[ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text.split('\r\n')[0]));
      socket.on('error', reject);
    });
    expect(status).toMatch(/^HTTP\/1\.1 (400|404)/);
    expect((await call(open.url.replace(/\/mcp$/, '/healthz'), 'GET', {})).status).toBe(200);
  });
});
