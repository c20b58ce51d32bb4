import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';

const bin = path.resolve(__dirname, '../../bin/apex.js');

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function apex(...args: string[]): Run {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

async function until<T>(read: () => T | undefined, what: string, run: Run): Promise<T> {
  for (let i = 0; i < 2000; i++) {
    const value = read();
    if (value !== undefined) return value;
    if (run.child.exitCode !== null) throw new Error(`apex exited before ${what}: ${run.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('apex emulator', () => {
  const running: Run[] = [];

  afterAll(async () => {
    for (const run of running) if (run.child.exitCode === null) run.child.kill('SIGKILL');
    await Promise.all(running.map((run) => run.exit));
  });

  it('prints its URL, serves WDA there and stops cleanly on SIGINT', async () => {
    const run = apex('emulator', '--port', '0', '--profile', 'iphone-se');
    running.push(run);
    const url = await until(() => /http:\/\/127\.0\.0\.1:\d+/.exec(run.stdout())?.[0], 'the URL', run);
    const status = await fetch(`${url}/status`);
    expect(status.status).toBe(200);
    expect(((await status.json()) as { value: { ready: boolean } }).value.ready).toBe(true);
    const screen = (await (await fetch(`${url}/wda/screen`)).json()) as { value: { scale: number } };
    expect(screen.value.scale).toBe(2);
    // No fault admin path without --faults.
    expect((await fetch(`${url}/__apex/faults`)).status).toBe(404);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toMatch(/stopped/);
  }, 120_000);

  it('rejects bad values with a usage error and exit code 2', async () => {
    const runs = [['--port', 'abc'], ['--port', '70000'], ['--profile', 'pixel'], ['--appearance', 'blue'], ['extra']].map((args) => apex('emulator', ...args));
    running.push(...runs);
    for (const run of runs) {
      expect(await run.exit).toBe(2);
      expect(run.stderr()).toMatch(/Usage: apex emulator/);
    }
  }, 120_000);

  it('mounts the fault admin path with --faults', async () => {
    const run = apex('emulator', '--port', '0', '--faults', '--allow-remote', '--host', '127.0.0.1');
    running.push(run);
    const url = await until(() => /http:\/\/127\.0\.0\.1:\d+/.exec(run.stdout())?.[0], 'the URL', run);
    const faults = await fetch(`${url}/__apex/faults`);
    expect(faults.status).toBe(200);
    expect(((await faults.json()) as { faults: { failNext: number } }).faults.failNext).toBe(0);
    expect(run.stdout()).toMatch(/Fault admin at .*\/__apex\/faults/);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
  }, 120_000);

  it('refuses --host beyond loopback without --allow-remote: exit code 2 and why', async () => {
    const runs = [apex('emulator', '--host', '0.0.0.0'), apex('emulator', '--host', '::', '--faults')];
    running.push(...runs);
    for (const run of runs) {
      expect(await run.exit).toBe(2);
      expect(run.stderr()).toMatch(/Refusing to listen on (0\.0\.0\.0|::): the virtual iPhone has no authentication/);
      expect(run.stderr()).toMatch(/--allow-remote/);
      expect(run.stdout()).not.toMatch(/speaks WebDriverAgent/);
    }
  }, 120_000);

  it('says clearly when the port is taken and exits with 1', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const run = apex('emulator', '--port', String(port));
      running.push(run);
      expect(await run.exit).toBe(1);
      expect(run.stderr()).toMatch(new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use`));
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 120_000);
});
