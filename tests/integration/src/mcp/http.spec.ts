import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { leakedWordsIn } from '@apex/errors/testing';
import { startMcpHttpServer, type McpHttpServer } from '@apex/mcp';
import { createRuntime, type Runtime } from '@apex/runtime';

const TOKEN = 'integration-token-1234';

describe('MCP over Streamable HTTP, against the embedded virtual iPhone', () => {
  let runtime: Runtime;
  let open: McpHttpServer;
  let secured: McpHttpServer;
  let dataDir: string;
  const clients: Client[] = [];
  const seen: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'apex-mcp-http-'));
    runtime = await createRuntime({ env: {}, dataDir });
    const ctx = { hub: runtime.hub, perception: runtime.perception };
    open = await startMcpHttpServer(ctx, { port: 0 });
    secured = await startMcpHttpServer(ctx, { port: 0, token: TOKEN });
  }, 60_000);

  afterAll(async () => {
    for (const text of seen) expect(leakedWordsIn(text)).toEqual([]);
    await Promise.all(clients.map((c) => c.close()));
    await open.close();
    await secured.close();
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'http-integration', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    seen.push(JSON.stringify(result).slice(0, 20_000));
    return result;
  }

  function rawPost(url: string, headers: Record<string, string>): Promise<Response> {
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
  }

  it('serves two clients at once without a token', async () => {
    const [a, b] = await Promise.all([connect(open.url), connect(open.url)]);
    const [shot, devices, tapped, offScreen] = await Promise.all([
      call(a, 'take_screenshot'),
      call(b, 'list_devices'),
      call(b, 'tap', { x: 196, y: 700 }),
      call(a, 'tap', { x: 196, y: 9000 }),
    ]);
    expect(shot.content.map((c) => c.type)).toEqual(['text', 'image']);
    expect(devices.structuredContent).toMatchObject({
      devices: [
        { id: 'iphone-virtual', state: expect.any(String) },
        { id: 'android-virtual', state: expect.any(String) },
      ],
    });
    expect(tapped.isError).toBeFalsy();
    expect(offScreen.isError).toBe(true);
    expect((offScreen.content[0] as { text: string }).text).toMatch(/^invalid_argument: /);
  });

  it('requires the bearer token when APEX_TOKEN is set', async () => {
    const missing = await rawPost(secured.url, {});
    expect(missing.status).toBe(401);
    seen.push(await missing.text());
    expect((await rawPost(secured.url, { authorization: 'Bearer not-the-token' })).status).toBe(401);
    await expect(connect(secured.url)).rejects.toMatchObject({ code: 401 });
    const client = await connect(secured.url, { authorization: `Bearer ${TOKEN}` });
    expect((await call(client, 'device_status')).isError).toBeFalsy();
  });

  it('rejects a foreign Origin with 403 and accepts a loopback one', async () => {
    const foreign = await rawPost(open.url, { origin: 'http://attacker.example' });
    expect(foreign.status).toBe(403);
    seen.push(await foreign.text());
    const local = await rawPost(open.url, { origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    seen.push(await local.text());
    // The token check does not let a foreign page through either.
    expect((await rawPost(secured.url, { origin: 'http://attacker.example', authorization: `Bearer ${TOKEN}` })).status).toBe(403);
  });
});
