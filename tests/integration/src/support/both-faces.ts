import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { leakedWordsIn } from '@apex/errors/testing';
import { call, DEVICE_PATH, startRestHarness, type JsonAnswer, type RestHarness } from '../rest/harness';

/**
 * The embedded virtual iPhone behind both faces: REST over real HTTP and MCP through the SDK's client at /mcp.
 * Every answer read through `result`, `tool`, `toolError` and `rest` is checked for driver words on `close`.
 */
export interface BothFaces {
  harness: RestHarness;
  /** A tool call, whatever its outcome. */
  result(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** A tool call that must succeed; its structured output. */
  tool(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** A tool call that must fail; its semantic error. */
  toolError(name: string, args?: Record<string, unknown>): Promise<{ code?: string; hint?: string }>;
  /** A REST call on the embedded iPhone, or on `device` (`path` after `/devices/{id}`). */
  rest(method: 'GET' | 'POST', path: string, body?: unknown, device?: string): Promise<JsonAnswer>;
  close(): Promise<void>;
}

export async function startBothFaces(clientName: string): Promise<BothFaces> {
  const harness = await startRestHarness();
  const mcp = new Client({ name: clientName, version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(harness.api.mcpUrl as string)));
  const seen: string[] = [];
  const result = async (name: string, args: Record<string, unknown> = {}) => {
    const answer = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
    seen.push(JSON.stringify(answer));
    return answer;
  };
  return {
    harness,
    result,
    async tool(name, args = {}) {
      const answer = await result(name, args);
      expect({ name, isError: answer.isError ?? false, error: answer._meta?.['apex/error'] }).toEqual({ name, isError: false, error: undefined });
      return answer.structuredContent as Record<string, unknown>;
    },
    async toolError(name, args = {}) {
      const answer = await result(name, args);
      expect(answer.isError).toBe(true);
      return (answer._meta?.['apex/error'] ?? {}) as { code?: string; hint?: string };
    },
    async rest(method, path, body, device) {
      const base = device === undefined ? DEVICE_PATH : `/devices/${encodeURIComponent(device)}`;
      const answer = await call(harness.url, method, `${base}${path}`, body === undefined ? {} : { body });
      seen.push(JSON.stringify(answer.body));
      return answer;
    },
    async close() {
      try {
        for (const text of seen) expect(leakedWordsIn(text)).toEqual([]);
      } finally {
        await mcp.close();
        await harness.close();
      }
    },
  };
}
