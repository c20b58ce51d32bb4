import { spawn } from 'node:child_process';
import * as path from 'node:path';

const main = path.resolve(__dirname, 'main.ts');

describe('wda-emulator', () => {
  it('prints its URL, answers /status there and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', main, '--port', '0', '--appearance', 'dark'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let url: string | undefined;
      for (let i = 0; i < 1200 && !url; i++) {
        url = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)?.[0];
        if (!url) {
          if (child.exitCode !== null) throw new Error(`exited early: ${stderr}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      expect(url).toBeDefined();
      const info = (await (await fetch(`${url}/wda/device/info`)).json()) as { value: { userInterfaceStyle: string } };
      expect(info.value.userInterfaceStyle).toBe('dark');
      expect((await fetch(`${url}/__apex/faults`)).status).toBe(404);
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exit;
    }
  }, 60_000);

  it('refuses --host 0.0.0.0 without --allow-remote with exit code 2', async () => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', main, '--host', '0.0.0.0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr).toMatch(/Refusing to listen on 0\.0\.0\.0: the virtual iPhone has no authentication.*--allow-remote/);
  }, 60_000);

  it('answers a bad flag value with exit code 2', async () => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', main, '--profile', 'pixel-9'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--profile must be one of iphone-15, iphone-se/);
  }, 60_000);
});
