import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const APEX = resolve(__dirname, '../../../../apps/cli/bin/apex.js');
const REST_API_MAIN = resolve(__dirname, '../../../../apps/rest-api/src/main.ts');

interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `apex serve` as a user runs it, with its own data dir and no config (the embedded virtual iPhone). */
function apexServe(args: string[], env: Record<string, string> = {}): Running & { dataDir: string } {
  return spawnServer([APEX, 'serve', ...args], env);
}

function spawnServer(argv: string[], env: Record<string, string> = {}): Running & { dataDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'apex-serve-'));
  const child = spawn(process.execPath, argv, {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '', HOME: dataDir, APEX_DATA_DIR: dataDir, APEX_LOG_LEVEL: 'warn', ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, dataDir, stdout: () => out, stderr: () => err, exited };
}

async function waitFor(what: () => string, pattern: RegExp, running: Running, timeoutMs = 45_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = what().match(pattern);
    if (match) return match;
    if (running.child.exitCode !== null) throw new Error(`apex serve exited: ${running.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no ${pattern} in: ${what()}\n${running.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('apex serve (spawned)', () => {
  const started: (Running & { dataDir: string })[] = [];
  let blocker: Server | undefined;

  afterAll(async () => {
    for (const run of started) {
      if (run.child.exitCode === null) {
        run.child.kill('SIGKILL');
        await run.exited;
      }
      rmSync(run.dataDir, { recursive: true, force: true });
    }
    await new Promise<void>((done) => (blocker ? blocker.close(() => done()) : done()));
  });

  it('prints the URLs of the API, the docs and /mcp, serves them, and stops on SIGINT', async () => {
    const run = apexServe(['--port', '0']);
    started.push(run);
    const [, url] = await waitFor(run.stdout, /REST API\s+(http:\/\/127\.0\.0\.1:\d+)\n/, run);
    expect(run.stdout()).toContain(`${url}/docs`);
    expect(run.stdout()).toContain(`${url}/mcp`);

    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const devices = (await (await fetch(`${url}/devices`)).json()) as { devices: { id: string }[] };
    expect(devices.devices.map((d) => d.id)).toEqual(['iphone-virtual']);
    expect((await fetch(`${url}/docs`)).status).toBe(200);

    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toMatch(/Received SIGINT; shutting down/);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('says which port it took when the requested one is in use', async () => {
    const server = createServer();
    blocker = server;
    const taken = await new Promise<number>((done) => server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port)));
    const run = apexServe(['--port', String(taken)]);
    started.push(run);
    const [, port] = await waitFor(run.stdout, new RegExp(`Port ${taken} is in use; listening on port (\\d+) instead`), run);
    expect(Number(port)).not.toBe(taken);
    await waitFor(run.stdout, /REST API/, run);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('refuses a non-loopback host without APEX_TOKEN, before starting anything', async () => {
    const run = apexServe(['--host', '0.0.0.0', '--port', '0']);
    started.push(run);
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toMatch(/Refusing to listen on 0\.0\.0\.0 without APEX_TOKEN/);
    expect(run.stdout()).not.toMatch(/REST API/);
  });

  it('runs the same way from apps/rest-api (nx serve rest-api)', async () => {
    const run = spawnServer(['-r', require.resolve('tsx/cjs'), REST_API_MAIN, '--port', '0']);
    started.push(run);
    const [, url] = await waitFor(run.stdout, /REST API\s+(http:\/\/127\.0\.0\.1:\d+)\n/, run);
    expect(run.stdout()).toContain(`${url}/mcp`);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('answers a bad --port with a usage error', async () => {
    const run = apexServe(['--port', 'eighty']);
    started.push(run);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(/--port must be a whole number/);
  });
});
