import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import { leakedWordsIn } from '@apex/errors/testing';
import { DEFAULT_TOOLSETS, DEVICE_OPERATIONS, operationsIn, type Toolset } from '@apex/capability';
import { createMcpHttpHandler, ERROR_META_KEY } from './index';

const TOKEN = 's3cret-token-for-tests';

describe('Streamable HTTP handler', () => {
  let hub: DeviceHub;
  let perception: Perception;
  const servers: HttpServer[] = [];
  const clients: Client[] = [];

  beforeAll(() => {
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: 'iphone-a', name: 'iPhone A', driver: new FakeDriver() });
    perception = new Perception(hub);
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await perception.close();
    await hub.close();
  });

  async function serve(token?: string, toolsets?: readonly Toolset[]): Promise<URL> {
    const handler = createMcpHttpHandler({ hub, perception }, { token, toolsets });
    const server = createServer((req, res) => void handler(req, res));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  }

  async function connect(url: URL, headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

  function post(url: URL, headers: Record<string, string>): Promise<Response> {
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: initialize,
    });
  }

  it('serves several clients at once without a token', async () => {
    const url = await serve();
    const [a, b] = await Promise.all([connect(url), connect(url)]);
    const results = (await Promise.all([
      a.callTool({ name: 'tap', arguments: { x: 1, y: 2, observe: 'none' } }),
      b.callTool({ name: 'list_devices', arguments: {} }),
      a.callTool({ name: 'tap', arguments: { x: -1, y: 2 } }),
    ])) as CallToolResult[];
    expect(results[0].structuredContent).toEqual({ tapped: { x: 1, y: 2 } });
    expect(results[1].structuredContent).toMatchObject({ devices: [{ id: 'iphone-a' }] });
    expect(results[2].isError).toBe(true);
    for (const r of results) expect(leakedWordsIn(JSON.stringify(r))).toEqual([]);
  });

  it('requires the bearer token when one is set', async () => {
    const url = await serve(TOKEN);
    const missing = await post(url, {});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(/^unauthorized/);
    expect((await post(url, { authorization: 'Bearer wrong' })).status).toBe(401);
    await expect(connect(url)).rejects.toMatchObject({ code: 401 });

    const client = await connect(url, { authorization: `Bearer ${TOKEN}` });
    const result = (await client.callTool({ name: 'list_devices', arguments: {} })) as CallToolResult;
    expect(result.isError).toBeFalsy();
  });

  it('rejects a foreign Origin (DNS rebinding) and accepts a loopback one', async () => {
    const url = await serve();
    const foreign = await post(url, { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect((await post(url, { origin: `http://localhost:${url.port}` })).status).toBe(200);
  });

  it('is stateless: no session id, and GET is not offered', async () => {
    const url = await serve();
    const response = await post(url, {});
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    await response.text();
    expect((await fetch(url, { headers: { accept: 'text/event-stream' } })).status).toBe(405);
  });

  it('serves its toolsets without enable_toolset (a session lasts one POST); ?toolsets= chooses others', async () => {
    const url = await serve(undefined, DEFAULT_TOOLSETS);
    const lean = await connect(url);
    expect(lean.getServerCapabilities()?.tools?.listChanged).toBeUndefined();
    expect((await lean.listTools()).tools.map((t) => t.name)).toEqual([...operationsIn(DEVICE_OPERATIONS, DEFAULT_TOOLSETS).map((op) => op.name), 'list_toolsets']);
    const refused = (await lean.callTool({ name: 'pinch', arguments: { scale: 2 } })) as CallToolResult;
    expect(refused._meta?.[ERROR_META_KEY]).toMatchObject({
      code: 'invalid_argument',
      hint: "Add ?toolsets=default,gestures to this endpoint's URL (or start Apex with --toolsets default,gestures).",
    });

    const wider = await connect(new URL(`${url.href}?toolsets=default,gestures`));
    expect((await wider.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['tap', 'pinch', 'long_press']));
    const pinched = (await wider.callTool({ name: 'pinch', arguments: { scale: 2, observe: 'none' } })) as CallToolResult;
    expect(pinched.isError).toBeFalsy();

    const bad = await post(new URL(`${url.href}?toolsets=gestures,zoom`), {});
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid params: \?toolsets: unknown toolset "zoom"; valid: devices, /);
  });
});
