import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnNode, type SpawnedProcess } from '@apex/testing';

const APEX = resolve(__dirname, '../../../../apps/cli/bin/apex.js');
const REST_API_MAIN = resolve(__dirname, '../../../../apps/rest-api/src/main.ts');
// Deadlines for a slow start on a loaded machine, not timing checks.
const WAIT = { timeoutMs: 45_000 };
const BANNER = /REST API\s+(http:\/\/127\.0\.0\.1:\d+)$/;

type Running = SpawnedProcess & { dataDir: string };

/** `apex serve` as a user runs it, with its own data dir and no config (the embedded virtual iPhone). */
function apexServe(args: string[], env: Record<string, string> = {}): Running {
  return spawnServer([APEX, 'serve', ...args], env);
}

function spawnServer(argv: string[], env: Record<string, string> = {}): Running {
  const dataDir = mkdtempSync(join(tmpdir(), 'apex-serve-'));
  const child = spawnNode(argv, {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '', HOME: dataDir, APEX_DATA_DIR: dataDir, APEX_LOG_LEVEL: 'warn', ...env },
  });
  return Object.assign(child, { dataDir });
}

describe('apex serve (spawned)', () => {
  const started: Running[] = [];
  let blocker: Server | undefined;

  afterAll(async () => {
    // The test kit has killed what was still running when its test ended.
    for (const run of started) {
      await run.exited;
      rmSync(run.dataDir, { recursive: true, force: true });
    }
    await new Promise<void>((done) => (blocker ? blocker.close(() => done()) : done()));
  });

  it('prints the URLs of the API, the docs and /mcp, serves them, and stops on SIGINT', async () => {
    const run = apexServe(['--port', '0']);
    started.push(run);
    const [, url] = await run.waitForLine(BANNER, WAIT);
    expect(run.stdout()).toContain(`${url}/docs`);
    expect(run.stdout()).toContain(`${url}/mcp`);
    // The dashboard's address, first; the page (or, unbuilt, how to build it) at / under a strict CSP.
    expect(run.stdout()).toMatch(new RegExp(`^Dashboard\\s+${url}/$`, 'm'));
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");

    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const devices = (await (await fetch(`${url}/devices`)).json()) as { devices: { id: string }[] };
    expect(devices.devices.map((d) => d.id)).toEqual(['iphone-virtual', 'android-virtual']);
    expect((await fetch(`${url}/docs`)).status).toBe(200);

    run.kill('SIGINT');
    expect(await run.waitForExit(WAIT)).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toMatch(/Received SIGINT; shutting down/);
    await expect(fetch(`${url}/healthz`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
  });

  it('says which port it took when the requested one is in use', async () => {
    const server = createServer();
    blocker = server;
    const taken = await new Promise<number>((done) => server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port)));
    const run = apexServe(['--port', String(taken)]);
    started.push(run);
    const [, port] = await run.waitForLine(new RegExp(`Port ${taken} is in use; listening on port (\\d+) instead`), WAIT);
    expect(Number(port)).not.toBe(taken);
    await run.waitForLine(/REST API/, WAIT);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    run.kill('SIGTERM');
    expect(await run.waitForExit(WAIT)).toEqual({ code: 0, signal: null });
  });

  it('refuses a non-loopback host without APEX_TOKEN, before starting anything', async () => {
    const run = apexServe(['--host', '0.0.0.0', '--port', '0']);
    started.push(run);
    expect((await run.waitForExit(WAIT)).code).toBe(1);
    expect(run.stderr()).toMatch(/Refusing to listen on 0\.0\.0\.0 without APEX_TOKEN/);
    expect(run.stdout()).not.toMatch(/REST API/);
  });

  it('runs the same way from apps/rest-api (nx serve rest-api)', async () => {
    const run = spawnServer(['-r', require.resolve('tsx/cjs'), REST_API_MAIN, '--port', '0']);
    started.push(run);
    const [, url] = await run.waitForLine(BANNER, WAIT);
    expect(run.stdout()).toContain(`${url}/mcp`);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    run.kill('SIGTERM');
    expect(await run.waitForExit(WAIT)).toEqual({ code: 0, signal: null });
  });

  it('answers a bad --port with a usage error', async () => {
    const run = apexServe(['--port', 'eighty']);
    started.push(run);
    expect((await run.waitForExit(WAIT)).code).toBe(2);
    expect(run.stderr()).toMatch(/--port must be a whole number/);
  });
});
