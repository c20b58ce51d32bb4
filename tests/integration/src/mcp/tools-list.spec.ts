import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { leakedWordsIn } from '@apex/errors/testing';
import { DEFAULT_TOOLSETS, operationsIn, resolveToolsets } from '@apex/capability';
import { createMcpServer, ENABLE_TOOLSET, LIST_TOOLSETS } from '@apex/mcp';
import { createRuntime, mcpToolsets, type Runtime } from '@apex/runtime';
import { RECORDING_OPERATIONS } from '@apex/recording';
import { ALL_OPERATIONS } from '@apex/tasks';

const SNAPSHOT = path.join(__dirname, '__snapshots__', 'tools-list.json');
/**
 * Characters of the whole `tools/list` result (JSON.stringify of what listTools answers): tool descriptions and
 * schemas cost every client tokens. Issue 15's limit for the 29 tools was 27 K; issue 33 allows 40 K for every
 * toolset together, and 15 K for the default toolsets a client gets unless it asks for more.
 */
const TOOLS_LIST_BUDGET = 40_000;
const DEFAULT_TOOLS_LIST_BUDGET = 15_000;

async function connectedClient(runtime: Runtime, toolsets: ReturnType<typeof resolveToolsets>): Promise<Client> {
  const server = createMcpServer(runtime, { toolsets });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'tools-list', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

/** The reviewed `tools/list` of the product: the catalog the runtime hands the MCP face, with every toolset (`all`). */
describe('the MCP tool list, as the runtime serves it', () => {
  let runtime: Runtime;
  let dataDir: string;
  let client: Client;
  let defaultClient: Client;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'apex-tools-list-'));
    runtime = await createRuntime({ dataDir, env: {} });
    client = await connectedClient(runtime, resolveToolsets(['all']));
    // What `apex mcp` serves with no --toolsets, APEX_TOOLSETS or mcp.toolsets.
    defaultClient = await connectedClient(runtime, mcpToolsets({ env: {}, config: runtime.config }));
  });

  afterAll(async () => {
    await client.close();
    await defaultClient.close();
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists every operation of the catalog with strict schemas and all four annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...[...ALL_OPERATIONS, ...RECORDING_OPERATIONS].map((op) => op.name), LIST_TOOLSETS, ENABLE_TOOLSET]);
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof tool.annotations?.[hint]).toBe('boolean');
      }
    }
  });

  it('matches the committed tools/list snapshot, within the size budget and without driver words', async () => {
    const json = `${JSON.stringify(await client.listTools(), null, 2)}\n`;
    if (process.env.APEX_UPDATE_TOOLS_SNAPSHOT === '1') writeFileSync(SNAPSHOT, json);
    expect(json).toBe(readFileSync(SNAPSHOT, 'utf8'));
    expect(JSON.stringify(await client.listTools()).length).toBeLessThan(TOOLS_LIST_BUDGET);
    expect(leakedWordsIn(json)).toEqual([]);
  });

  it('serves the default toolsets within their budget when nothing chooses others', async () => {
    const listed = await defaultClient.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual([...operationsIn(ALL_OPERATIONS, DEFAULT_TOOLSETS).map((op) => op.name), LIST_TOOLSETS, ENABLE_TOOLSET]);
    expect(JSON.stringify(listed).length).toBeLessThanOrEqual(DEFAULT_TOOLS_LIST_BUDGET);
  });
});
