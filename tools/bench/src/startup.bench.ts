/**
 * Start-up of the CLI: `apex mcp` spawn → `tools/list` answered, and `apex serve` spawn → its banner (listening),
 * for the built package (dist/apps/cli-package, bundled JavaScript) and the in-repo dev path (TypeScript through
 * tsx). Wall time from spawn, and the child's CPU time (user + system, from /proc) at that moment.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ensureBuilt } from './support/built-package';
import { cpuMs } from './support/proc';
import { target, type Section, type SectionResult } from './support/section';
import { round, summarize } from './support/stats';

const ROOT = path.resolve(__dirname, '../../..');
/** A way to start the CLI: its bin, and what its environment adds. */
interface StartPath {
  bin: string;
  env?: Record<string, string>;
}
const BUILT_BIN = path.join(ROOT, 'dist/apps/cli-package/bin/apex.js');
const PATHS: Record<string, StartPath> = {
  // The package keeps V8's code cache of its bundle (apps/cli/src/compile-cache.ts): every start but the first.
  built: { bin: BUILT_BIN },
  // The first start after an install or an upgrade (and any start with the cache turned off).
  'built, no code cache': { bin: BUILT_BIN, env: { NODE_DISABLE_COMPILE_CACHE: '1' } },
  'tsx (dev)': { bin: path.join(ROOT, 'apps/cli/bin/apex.js') },
};
// A before/after in one run: APEX_BENCH_STARTUP_BASELINE names another built package (a copy of
// dist/apps/cli-package made before a change, kept inside the workspace so it finds node_modules).
const BASELINE = process.env.APEX_BENCH_STARTUP_BASELINE;
if (BASELINE) PATHS['built (baseline)'] = { bin: path.join(path.resolve(BASELINE), 'bin/apex.js') };

function childEnv(dataDir: string, start: StartPath, cacheHome: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'APEX_CONFIG') env[key] = value;
  env.APEX_DATA_DIR = dataDir;
  // The bench's own cache directory: the code cache is made by its first (unmeasured) start, not the user's.
  env.XDG_CACHE_HOME = cacheHome;
  return { ...env, ...start.env };
}

async function mcpStart(start: StartPath, cacheHome: string): Promise<{ wall: number; cpu: number }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'apex-startup-'));
  const transport = new StdioClientTransport({ command: process.execPath, args: [start.bin, 'mcp'], env: childEnv(dataDir, start, cacheHome), stderr: 'ignore' });
  const client = new Client({ name: 'apex-bench', version: '1.0.0' });
  const started = performance.now();
  try {
    await client.connect(transport);
    await client.listTools();
    const wall = performance.now() - started;
    return { wall, cpu: cpuMs(transport.pid ?? 0) };
  } finally {
    await client.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function serveStart(start: StartPath, cacheHome: string): Promise<{ wall: number; cpu: number }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'apex-startup-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [start.bin, 'serve', '--port', String(port)], {
    env: childEnv(dataDir, start, cacheHome),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    return await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (out.includes(`127.0.0.1:${port}`)) resolve({ wall: performance.now() - started, cpu: cpuMs(child.pid ?? 0) });
      });
      child.on('exit', (code) => reject(new Error(`apex serve exited (${code}) before it was ready: ${out}`)));
    });
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const startupSection: Section = {
  name: 'startup',
  description: 'apex mcp spawn → tools/list and apex serve spawn → ready: built package vs the tsx dev path',
  async run({ quick, log }): Promise<SectionResult> {
    // A fresh clone has no package yet: build it (nx restores it from its cache when nothing changed).
    await ensureBuilt({
      file: BUILT_BIN,
      command: [process.execPath, path.join(ROOT, 'node_modules/.bin/nx'), 'run', 'cli:build', '--outputStyle=static'],
      display: 'npx nx run cli:build',
      cwd: ROOT,
      env: { ...process.env, NX_DAEMON: process.env.NX_DAEMON ?? 'false' },
      log,
    });
    const runs = quick ? 2 : 9;
    const result: SectionResult = {
      title: `CLI start-up, median of ${runs} runs (wall from spawn; the child's CPU at that moment)`,
      columns: ['command', 'path', 'median wall ms', 'p95 wall ms', 'median CPU ms'],
      rows: [],
      targets: [],
      notes: [],
    };
    const medians: Record<string, number> = {};
    const cacheHome = mkdtempSync(path.join(os.tmpdir(), 'apex-startup-cache-'));
    try {
    for (const [command, start] of [
      ['apex mcp → tools/list', mcpStart],
      ['apex serve → ready', serveStart],
    ] as const) {
      for (const [name, startPath] of Object.entries(PATHS)) {
        await start(startPath, cacheHome); // warm the file cache (and make the code cache)
        const walls: number[] = [];
        const cpus: number[] = [];
        for (let i = 0; i < runs; i++) {
          const { wall, cpu } = await start(startPath, cacheHome);
          walls.push(wall);
          cpus.push(cpu);
        }
        const wall = summarize(walls);
        const cpu = summarize(cpus);
        medians[`${command}/${name}`] = wall.p50;
        log(`${command} ${name}: ${round(wall.p50, 0)} ms wall, ${round(cpu.p50, 0)} ms CPU`);
        result.rows.push({ command, path: name, 'median wall ms': round(wall.p50, 0), 'p95 wall ms': round(wall.p95, 0), 'median CPU ms': round(cpu.p50, 0) });
      }
    }
    } finally {
      rmSync(cacheHome, { recursive: true, force: true });
    }
    if (BASELINE) {
      for (const command of ['apex mcp → tools/list', 'apex serve → ready']) {
        result.notes.push(`${command}: built ${round(medians[`${command}/built`], 0)} ms vs baseline ${round(medians[`${command}/built (baseline)`], 0)} ms.`);
      }
    }
    const mcp = medians['apex mcp → tools/list/built'];
    const serve = medians['apex serve → ready/built'];
    result.targets.push(
      target('apex mcp spawn → tools/list (built)', '≤ 300 ms', mcp, 'ms', mcp <= 300),
      target('apex serve spawn → ready (built)', '≤ 1,000 ms', serve, 'ms', serve <= 1000),
    );
    result.notes.push(
      `built vs tsx, apex mcp: ${round(medians['apex mcp → tools/list/tsx (dev)'] / mcp, 2)}× faster.`,
      `"built" starts from V8's code cache of the bundle (made by the first, unmeasured start); "built, no code cache" is a first start after an install.`,
    );
    return result;
  },
};
