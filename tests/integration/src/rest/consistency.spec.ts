import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import { call, DEVICE, DEVICE_PATH, startRestHarness, type RestHarness } from './harness';

/**
 * The same operation through both faces of one server — REST routes and MCP at /mcp (the SDK's real client
 * over Streamable HTTP) — on the same device state gives the same structured result.
 */
describe('REST and MCP agree', () => {
  let h: RestHarness;
  let client: Client;

  beforeAll(async () => {
    h = await startRestHarness();
    client = new Client({ name: 'rest-consistency', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await h?.close();
  });

  async function tool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  const READS: [string, string, string, Record<string, unknown>][] = [
    ['list_devices', 'GET', '/devices', {}],
    ['device_status', 'GET', DEVICE_PATH, {}],
    ['list_apps', 'GET', `${DEVICE_PATH}/apps`, {}],
    ['describe_screen', 'GET', `${DEVICE_PATH}/describe`, {}],
    ['get_ui_tree', 'GET', `${DEVICE_PATH}/ui-tree?format=flat&maxDepth=3`, { format: 'flat', maxDepth: 3 }],
    ['find_text', 'POST', `${DEVICE_PATH}/find-text`, { text: 'Settings' }],
    ['find_icon', 'POST', `${DEVICE_PATH}/find-icon`, { name: 'Settings' }],
  ];

  it.each(READS)('%s', async (name, method, path, args) => {
    const rest = await call(h.url, method, path, method === 'POST' ? { body: args } : {});
    const mcp = await tool(name, name === 'list_devices' ? args : { ...args, device: DEVICE });
    expect(rest.status).toBe(200);
    expect(mcp.isError).toBeFalsy();
    expect(rest.body).toEqual(mcp.structuredContent);
  });

  it('take_screenshot: same structured result, and images equal in size and pixels', async () => {
    for (const args of [{}, { format: 'png' }, { format: 'png', resolution: 'native', maxWidth: 500 }]) {
      const rest = await call(h.url, 'POST', `${DEVICE_PATH}/screenshot`, { body: args, headers: { accept: 'application/json' } });
      const mcp = await tool('take_screenshot', { ...args, device: DEVICE });
      const { data, ...restStructured } = rest.body;
      expect(restStructured).toEqual(mcp.structuredContent);
      const image = mcp.content.find((c) => c.type === 'image');
      expect(image).toBeDefined();
      const mcpBytes = Buffer.from((image as { data: string }).data, 'base64');
      const restBytes = Buffer.from(String(data), 'base64');
      const [a, b] = await Promise.all([restBytes, mcpBytes].map((bytes) => sharp(bytes).raw().toBuffer({ resolveWithObject: true })));
      expect(a.info).toEqual(b.info);
      expect(a.data.equals(b.data)).toBe(true);
    }
  });

  it('an action gives the same result through both faces', async () => {
    const rest = await call(h.url, 'POST', `${DEVICE_PATH}/press-button`, { body: { button: 'home' } });
    const mcp = await tool('press_button', { button: 'home', device: DEVICE });
    expect(rest.body).toEqual(mcp.structuredContent);
  });

  it('a failure gives the same code and message through both faces', async () => {
    for (const [name, path, args] of [
      ['tap', `${DEVICE_PATH}/tap`, { x: -5, y: 10 }],
      ['launch_app', `${DEVICE_PATH}/launch`, { appId: 'com.nope.Missing' }],
    ] as const) {
      const rest = await call(h.url, 'POST', path, { body: args });
      const mcp = await tool(name, { ...args, device: DEVICE });
      expect(mcp.isError).toBe(true);
      const mcpError = (mcp._meta as Record<string, { code: string; message: string }>)['apex/error'];
      expect(rest.body.code).toBe(mcpError.code);
      expect(rest.body.detail).toBe(mcpError.message);
    }
  });
});
