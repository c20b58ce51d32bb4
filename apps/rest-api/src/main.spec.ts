import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { spawnNode } from '@apex/testing';

const main = path.resolve(__dirname, 'main.ts');
// Deadlines for a slow start on a loaded machine, not timing checks.
const WAIT = { timeoutMs: 60_000 };

describe('rest-api (spawned)', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'apex-rest-api-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  /** `nx serve rest-api` with no configuration: the embedded virtual iPhone, its own data dir. */
  const start = (...args: string[]) =>
    spawnNode(['--require', require.resolve('tsx/cjs'), main, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: dataDir, APEX_DATA_DIR: dataDir, APEX_LOG_LEVEL: 'warn' },
    });

  it('prints its URL on a free port, answers /healthz and /devices there, and stops on SIGTERM', async () => {
    const server = start('--port', '0');
    const [, url] = await server.waitForLine(/REST API\s+(http:\/\/127\.0\.0\.1:\d+)$/, WAIT);

    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const devices = await fetch(`${url}/devices`);
    expect(devices.status).toBe(200);
    expect(((await devices.json()) as { devices: { id: string; state: string }[] }).devices).toEqual([
      expect.objectContaining({ id: 'iphone-virtual', state: 'online' }),
      expect.objectContaining({ id: 'android-virtual', state: 'online' }),
    ]);

    server.kill('SIGTERM');
    expect(await server.waitForExit(WAIT)).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('answers an unknown flag with its usage and exit code 1, before starting anything', async () => {
    const server = start('--frobnicate');
    expect((await server.waitForExit(WAIT)).code).toBe(1);
    expect(server.stderr()).toMatch(/Unknown option '--frobnicate'/);
    expect(server.stderr()).toMatch(/Usage: rest-api/);
    expect(server.stdoutLines).toEqual([]);
  }, 120_000);
});
