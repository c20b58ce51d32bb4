import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const APEX_BIN = path.resolve(__dirname, '../../../../apps/cli/bin/apex.js');

/** A real `apex mcp` child process driven by the SDK's real Client over stdio. */
export interface StdioSession {
  client: Client;
  /** Everything the child wrote on stderr (its logs). */
  stderr(): string;
  /** Errors the client saw on the transport (e.g. a non-protocol line on stdout). */
  transportErrors: Error[];
  /** Every text and structured result seen, for the leakage guard. */
  seen: string[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export function errorCodeOf(result: CallToolResult): string | undefined {
  return (result._meta?.['apex/error'] as { code?: string } | undefined)?.code;
}

/**
 * `bin` is the CLI's entry script: the monorepo's by default, an installed package's in the package test.
 * The child sees this process's environment without APEX_CONFIG and APEX_TOOLSETS, plus `extraEnv`.
 */
export async function startStdioSession(extraArgs: string[] = [], bin = APEX_BIN, extraEnv: Record<string, string> = {}): Promise<StdioSession> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'apex-mcp-'));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'APEX_CONFIG' && key !== 'APEX_TOOLSETS') env[key] = value;
  Object.assign(env, extraEnv);
  env.APEX_DATA_DIR = dataDir;
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...extraArgs], env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const transportErrors: Error[] = [];
  const client = new Client({ name: 'apex-integration', version: '1.0.0' });
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);
  const seen: string[] = [];
  return {
    client,
    stderr: () => stderr,
    transportErrors,
    seen,
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      seen.push(textOf(result), JSON.stringify(result.structuredContent ?? null), JSON.stringify(result._meta ?? null));
      return result;
    },
    async close() {
      await client.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
