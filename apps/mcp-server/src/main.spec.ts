import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawnNode } from '@apex/testing';

const main = path.resolve(__dirname, 'main.ts');
// Deadlines for a slow start on a loaded machine, not timing checks.
const WAIT = { timeoutMs: 60_000 };

describe('mcp-server (spawned)', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'apex-mcp-server-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  /** `nx serve mcp-server` with no configuration: the embedded virtual iPhone, its own data dir. */
  const start = (...args: string[]) =>
    spawnNode(['--require', require.resolve('tsx/cjs'), main, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: dataDir, APEX_DATA_DIR: dataDir, APEX_LOG_LEVEL: 'warn' },
    });

  it('prints its URL on a free port, serves MCP to the SDK client there, and stops on SIGTERM', async () => {
    const server = start('--port', '0');
    const [, url] = await server.waitForLine(/^Apex MCP \(Streamable HTTP\) at (http:\/\/127\.0\.0\.1:\d+\/mcp)$/, WAIT);

    const client = new Client({ name: 'mcp-server-smoke', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url as string)));
    try {
      expect(client.getServerVersion()?.name).toBe('apex');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_devices', 'tap', 'take_screenshot']));
      const devices = (await client.callTool({ name: 'list_devices', arguments: {} })) as CallToolResult;
      expect(devices.isError).toBeFalsy();
      expect(devices.structuredContent).toEqual({
        devices: [
          { id: 'iphone-virtual', name: 'Virtual iPhone', platform: 'ios', state: 'online' },
          { id: 'android-virtual', name: 'Virtual Android', platform: 'android', state: 'online' },
        ],
      });
    } finally {
      await client.close();
    }

    server.kill('SIGTERM');
    expect(await server.waitForExit(WAIT)).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('answers a bad --port with its usage and exit code 1, before starting anything', async () => {
    const server = start('--port', 'eighty');
    expect((await server.waitForExit(WAIT)).code).toBe(1);
    expect(server.stderr()).toMatch(/--port must be an integer 0–65535, got "eighty"/);
    expect(server.stderr()).toMatch(/Usage: mcp-server/);
    expect(server.stdoutLines).toEqual([]);
  }, 120_000);
});
