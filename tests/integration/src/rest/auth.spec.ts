import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createRestServer, createRestLogger, startRestApi } from '@apex/rest';
import { call, DEVICE_PATH, startRestHarness, type RestHarness } from './harness';

const TOKEN = 'test-token-0123456789abcdef';

describe('REST auth with APEX_TOKEN', () => {
  let h: RestHarness;

  beforeAll(async () => {
    h = await startRestHarness({ token: TOKEN });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('leaves /healthz open', async () => {
    expect((await call(h.url, 'GET', '/healthz')).status).toBe(200);
  });

  it.each([
    ['no header', {}],
    ['a wrong token', { authorization: 'Bearer wrong-token' }],
    ['a longer token', { authorization: `Bearer ${TOKEN}x` }],
    ['the token without Bearer', { authorization: TOKEN }],
    ['Basic auth', { authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` }],
  ])('answers 401 problem+json for %s', async (_name, headers: Record<string, string>) => {
    for (const [method, path] of [
      ['GET', '/devices'],
      ['POST', `${DEVICE_PATH}/tap`],
      ['GET', '/openapi.json'],
      ['GET', '/docs'],
      ['GET', '/nowhere'],
    ]) {
      const res = await call(h.url, method, path, { headers, ...(method === 'POST' ? { body: { x: 1, y: 1 } } : {}) });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.body).toMatchObject({ code: 'unauthorized', status: 401, type: 'https://apex.dev/problems/unauthorized' });
    }
  });

  it('serves every route with the token', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await call(h.url, 'GET', '/devices', { headers: auth })).status).toBe(200);
    expect((await call(h.url, 'GET', DEVICE_PATH, { headers: auth })).status).toBe(200);
    const doc = await call(h.url, 'GET', '/openapi.json', { headers: auth });
    expect(doc.body.components).toMatchObject({ securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } });
  });

  it('protects /mcp with the same token', async () => {
    const anonymous = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(anonymous.status).toBe(401);

    const refused = new Client({ name: 'no-token', version: '1.0.0' });
    await expect(refused.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`)))).rejects.toThrow();
    await refused.close();

    const client = new Client({ name: 'with-token', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
    );
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('tap');
    await client.close();
  });
});

describe('REST without a token', () => {
  let h: RestHarness;

  beforeAll(async () => {
    h = await startRestHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('needs no Authorization header, on the API and /mcp', async () => {
    expect((await call(h.url, 'GET', '/devices')).status).toBe(200);
    const client = new Client({ name: 'open', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`)));
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    await client.close();
  });

  // (fetch cannot forge Host; the Host check is covered in libs/faces/rest's server.spec over node:http.)
  it('refuses requests from a foreign browser origin (DNS rebinding), accepts loopback origins', async () => {
    const origin = await call(h.url, 'GET', '/devices', { headers: { origin: 'https://evil.example' } });
    expect(origin).toMatchObject({ status: 403, body: { code: 'forbidden_origin' } });
    const local = await call(h.url, 'GET', '/devices', { headers: { origin: 'http://localhost:5173' } });
    expect(local.status).toBe(200);
  });

  it('refuses to listen on a non-loopback address without a token', async () => {
    await expect(startRestApi(h.ctx, { port: 0, host: '0.0.0.0', logger: createRestLogger({ level: 'silent' }) })).rejects.toThrow(
      /Refusing to listen on 0\.0\.0\.0 without APEX_TOKEN/,
    );
    const server = createRestServer(h.ctx, { logger: createRestLogger({ level: 'silent' }) });
    await expect(server.listen(0, '0.0.0.0')).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(server.server.listening).toBe(false);
  });

  it('listens on a non-loopback address when a token is set', async () => {
    const api = await startRestApi(h.ctx, { port: 0, host: '0.0.0.0', token: TOKEN, logger: createRestLogger({ level: 'silent' }) });
    try {
      const url = `http://127.0.0.1:${api.port}`;
      expect((await call(url, 'GET', '/healthz')).status).toBe(200);
      expect((await call(url, 'GET', '/devices')).status).toBe(401);
    } finally {
      await api.close();
    }
  });
});
