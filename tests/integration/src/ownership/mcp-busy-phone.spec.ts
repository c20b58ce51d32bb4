import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createLogger, createRuntime, type Runtime } from '@apex/runtime';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { APEX_BIN, errorCodeOf, textOf } from '../mcp/stdio-client';

interface Listed {
  id: string;
  state: string;
  owner?: { pid: number; host: string; since: string };
}

describe('apex mcp with a phone that another Apex process holds', () => {
  let dir: string;
  let held: VirtualIPhone;
  let free: VirtualIPhone;
  let holder: Runtime | undefined;
  let client: Client | undefined;
  let stderr = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apex-mcp-busy-'));
    [held, free] = await Promise.all([startVirtualIPhone({ port: 0 }), startVirtualIPhone({ port: 0 })]);
  });
  afterAll(async () => {
    await client?.close();
    await holder?.close();
    await Promise.all([held.close(), free.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await (client as Client).callTool({ name, arguments: args })) as CallToolResult;
  const listed = async () => ((await call('list_devices')).structuredContent as { devices: Listed[] }).devices;

  it('starts, completes the handshake, lists it busy with its owner, and takes it over once the holder exits', async () => {
    const dataDir = join(dir, 'data');
    const holderConfig = join(dir, 'holder.json');
    writeFileSync(holderConfig, JSON.stringify({ devices: [{ id: 'iphone-held', driver: 'wda', url: held.url }] }));
    holder = await createRuntime({ configPath: holderConfig, env: {}, dataDir, logger: createLogger({ level: 'silent' }) });
    const since = holder.lease.instance.since;

    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        devices: [
          { id: 'iphone-held', driver: 'wda', url: held.url },
          { id: 'iphone-free', driver: 'wda', url: free.url },
        ],
      }),
    );
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'APEX_CONFIG') env[key] = value;
    env.APEX_DATA_DIR = dataDir;
    const transport = new StdioClientTransport({ command: process.execPath, args: [APEX_BIN, 'mcp', '--config', config], env, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    client = new Client({ name: 'apex-ownership', version: '1.0.0' });
    await client.connect(transport);

    expect(await listed()).toEqual([
      expect.objectContaining({ id: 'iphone-held', state: 'busy', owner: { pid: process.pid, host: hostname(), since } }),
      expect.objectContaining({ id: 'iphone-free', state: 'online' }),
    ]);
    expect(Object.keys((await listed())[1])).not.toContain('owner');

    const refused = await call('tap', { device: 'iphone-held', x: 100, y: 100 });
    expect(refused.isError).toBe(true);
    expect(errorCodeOf(refused)).toBe('device_busy');
    expect(textOf(refused)).toContain(`pid ${process.pid}`);
    // The other device is unaffected.
    expect((await call('tap', { device: 'iphone-free', x: 100, y: 100 })).isError).toBeFalsy();

    await holder.close();
    holder = undefined;
    const deadline = Date.now() + 30_000;
    while ((await listed())[0].state !== 'online') {
      if (Date.now() > deadline) throw new Error(`the phone was never taken over: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await call('tap', { device: 'iphone-held', x: 100, y: 100 })).isError).toBeFalsy();
  }, 90_000);
});
