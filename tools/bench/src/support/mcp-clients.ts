import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '@apex/mcp';
import type { OperationContext } from '@apex/capability';
import { APEX_BIN } from './stack';

export interface McpCaller {
  /** Calls a tool; a tool error becomes a thrown Error (benchmarks measure successes only). */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

function caller(client: Client, close: () => Promise<void>): McpCaller {
  return {
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
      return result;
    },
    close,
  };
}

/** The SDK's real client against `createMcpServer(ctx)` in this process, over the in-memory transport. */
export async function inMemoryMcp(ctx: OperationContext): Promise<McpCaller> {
  const server = createMcpServer(ctx);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'apex-bench', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return caller(client, async () => {
    await client.close();
    await server.close();
  });
}

/** A spawned `apex mcp --config <file>` (the command an MCP client configures), over stdio, with every toolset. */
export async function stdioMcp(configPath: string, dataDir: string): Promise<McpCaller> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [APEX_BIN, 'mcp', '--config', configPath, '--toolsets', 'all'],
    env: { ...(process.env as Record<string, string>), APEX_DATA_DIR: path.resolve(dataDir), APEX_LOG_LEVEL: 'warn' },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'apex-bench', version: '1.0.0' });
  await client.connect(transport);
  return caller(client, () => client.close());
}
