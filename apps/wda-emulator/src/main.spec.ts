import * as path from 'node:path';
import { spawnNode } from '@apex/testing';

const main = path.resolve(__dirname, 'main.ts');
// Deadlines for a slow start on a loaded machine, not timing checks.
const WAIT = { timeoutMs: 45_000 };

describe('wda-emulator', () => {
  it('prints its URL, answers /status there and exits 0 on SIGTERM', async () => {
    const child = spawnNode(['--require', 'tsx/cjs', main, '--port', '0', '--appearance', 'dark']);
    const [url] = await child.waitForLine(/http:\/\/127\.0\.0\.1:\d+/, WAIT);
    const info = (await (await fetch(`${url}/wda/device/info`)).json()) as { value: { userInterfaceStyle: string } };
    expect(info.value.userInterfaceStyle).toBe('dark');
    expect((await fetch(`${url}/__apex/faults`)).status).toBe(404);
    child.kill('SIGTERM');
    expect(await child.waitForExit(WAIT)).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('refuses --host 0.0.0.0 without --allow-remote with exit code 2', async () => {
    const child = spawnNode(['--require', 'tsx/cjs', main, '--host', '0.0.0.0']);
    expect((await child.waitForExit(WAIT)).code).toBe(2);
    expect(child.stderr()).toMatch(/Refusing to listen on 0\.0\.0\.0: the virtual iPhone has no authentication.*--allow-remote/);
  }, 60_000);

  it('answers a bad flag value with exit code 2', async () => {
    const child = spawnNode(['--require', 'tsx/cjs', main, '--profile', 'pixel-9']);
    expect((await child.waitForExit(WAIT)).code).toBe(2);
    expect(child.stderr()).toMatch(/--profile must be one of iphone-15, iphone-15-plus, iphone-se/);
  }, 60_000);
});
