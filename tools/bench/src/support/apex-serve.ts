import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnNode, type SpawnedProcess } from '@apex/testing';
import { APEX_BIN } from './stack';

/** An `apex serve` process started as a user starts it, on a free port, with a config file of its own. */
export interface ServeNode {
  name: string;
  /** The REST API, e.g. http://127.0.0.1:PORT */
  url: string;
  child: SpawnedProcess;
  /** Ends it (SIGTERM, then SIGKILL if it does not end in time) and waits for it. */
  close(): Promise<void>;
}

/**
 * Spawns `apex serve --port 0 --config <dir>/<name>.json` with a data dir (and HOME) of its own under `dir` and
 * no inherited environment beyond PATH (no model keys: the offline planner; no user config), as the cluster tests
 * do; resolves once it prints its REST address.
 */
export async function startApexServe(name: string, config: object, dir: string, options: { logLevel?: string } = {}): Promise<ServeNode> {
  const configPath = path.join(dir, `${name}.json`);
  writeFileSync(configPath, JSON.stringify(config));
  const dataDir = mkdtempSync(path.join(dir, `${name}-data-`));
  const child = spawnNode([APEX_BIN, 'serve', '--port', '0', '--config', configPath], {
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH ?? '', HOME: dataDir, APEX_DATA_DIR: dataDir, APEX_LOG_LEVEL: options.logLevel ?? 'warn' },
  });
  const close = async () => {
    child.kill('SIGTERM');
    try {
      await child.waitForExit({ timeoutMs: 30_000 });
    } catch {
      child.kill('SIGKILL');
      await child.exited;
    }
  };
  try {
    const [, url] = await child.waitForLine(/REST API\s+(http:\/\/127\.0\.0\.1:\d+)/, { timeoutMs: 120_000 });
    return { name, url: url as string, child, close };
  } catch (error) {
    child.kill('SIGKILL');
    await child.exited;
    throw error;
  }
}

/** A JSON request to a node; the body parsed (an empty object for an empty body). */
export async function nodeJson(base: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL(route, base), {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
