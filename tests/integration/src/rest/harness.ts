import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRestLogger, startRestApi, type RestApiHandle } from '@apex/rest';
import { createLogger, createRuntime, EMBEDDED_DEVICE_ID, type Runtime } from '@apex/runtime';
import type { OperationContext } from '@apex/capability';

export const DEVICE = EMBEDDED_DEVICE_ID;
export const DEVICE_PATH = `/devices/${DEVICE}`;

export interface RestHarness {
  url: string;
  api: RestApiHandle;
  runtime: Runtime;
  ctx: OperationContext;
  close(): Promise<void>;
}

/**
 * The whole stack as `apex serve` builds it: the runtime with its embedded virtual phones (the iPhone through the
 * WDA driver over HTTP, DEVICE here; the Android phone through the ADB driver straight to its adbd), the REST
 * server on 127.0.0.1:0 with MCP at /mcp. Data goes to a temp dir.
 */
export async function startRestHarness(options: { token?: string; bodyLimitBytes?: number; dashboardDir?: string } = {}): Promise<RestHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'apex-rest-'));
  const runtime = await createRuntime({ dataDir, env: {}, logger: createLogger({ level: 'silent' }) });
  const api = await startRestApi(runtime, {
    port: 0,
    token: options.token,
    bodyLimitBytes: options.bodyLimitBytes,
    dashboardDir: options.dashboardDir,
    logger: createRestLogger({ level: 'silent' }),
  });
  return {
    url: api.url,
    api,
    runtime,
    ctx: runtime,
    async close() {
      await api.close();
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** fetch + JSON body; `body` objects are sent as application/json. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<JsonAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
