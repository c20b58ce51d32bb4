import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const APEX = resolve(__dirname, '../../../../apps/cli/bin/apex.js');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** An `apex` command run as a user runs it, whose stdout and stderr lines can be awaited as events. */
export interface SpawnedApex {
  child: ChildProcessWithoutNullStreams;
  dataDir: string;
  exited: Promise<Exit>;
  /** Resolves with the match once a line of stdout matches (also one printed earlier). */
  stdoutLine(pattern: RegExp): Promise<RegExpMatchArray>;
  stderrLine(pattern: RegExp): Promise<RegExpMatchArray>;
  stdout(): string;
  stderr(): string;
}

function lineWaiter(stream: NodeJS.ReadableStream, exited: Promise<Exit>, describe: () => string) {
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (match: RegExpMatchArray) => void }> = [];
  createInterface({ input: stream }).on('line', (line) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      const match = line.match(waiter.pattern);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  });
  return {
    lines,
    wait(pattern: RegExp): Promise<RegExpMatchArray> {
      for (const line of lines) {
        const match = line.match(pattern);
        if (match) return Promise.resolve(match);
      }
      return new Promise<RegExpMatchArray>((resolve, reject) => {
        waiters.push({ pattern, resolve });
        void exited.then((exit) => reject(new Error(`apex exited (${JSON.stringify(exit)}) before printing ${pattern}:\n${describe()}`)));
      });
    },
  };
}

/** Spawns `apex <args>` in a temp cwd with its own data dir (and HOME), logging at `logLevel`. */
export function spawnApex(args: string[], options: { env?: Record<string, string>; dataDir?: string; logLevel?: string } = {}): SpawnedApex {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'apex-shutdown-'));
  const child = spawn(process.execPath, [APEX, ...args], {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '', HOME: dataDir, APEX_DATA_DIR: dataDir, APEX_LOG_LEVEL: options.logLevel ?? 'warn', ...options.env },
  });
  const exited = new Promise<Exit>((done) => child.on('exit', (code, signal) => done({ code, signal })));
  const describe = () => `stdout:\n${out.lines.join('\n')}\nstderr:\n${err.lines.join('\n')}`;
  const out = lineWaiter(child.stdout, exited, describe);
  const err = lineWaiter(child.stderr, exited, describe);
  return {
    child,
    dataDir,
    exited,
    stdoutLine: (pattern) => out.wait(pattern),
    stderrLine: (pattern) => err.wait(pattern),
    stdout: () => out.lines.join('\n'),
    stderr: () => err.lines.join('\n'),
  };
}

/** Writes a configuration naming WDA devices by id → URL (each locked by the process that serves it). */
export function writeConfig(dir: string, devices: Record<string, string>): string {
  const file = join(dir, 'apex.json');
  writeFileSync(file, JSON.stringify({ devices: Object.entries(devices).map(([id, url]) => ({ id, driver: 'wda', url })) }));
  return file;
}

export interface JsonAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** One JSON request on a connection of its own (no keep-alive pool to blur which connection is which). */
export function requestJson(base: string, method: string, path: string, body?: unknown): Promise<JsonAnswer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent: false, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The error code of a connection attempt (`ECONNREFUSED` once nothing listens), or 'connected'. */
export function connectOutcome(base: string): Promise<string> {
  return requestJson(base, 'GET', '/healthz').then(
    () => 'connected',
    (error: NodeJS.ErrnoException) => error.code ?? String(error),
  );
}
