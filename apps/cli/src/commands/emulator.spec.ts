import * as net from 'node:net';
import * as path from 'node:path';
import { spawnNode } from '@apex/testing';
import { findAdb, startRealAdbServer } from '@apex/virtual-device/testing';

const bin = path.resolve(__dirname, '../../bin/apex.js');
// Deadlines for a slow start on a loaded machine, not timing checks.
const START = { timeoutMs: 60_000 };
const EXIT = { timeoutMs: 60_000 };

const apex = (...args: string[]) => spawnNode([bin, ...args]);

describe('apex emulator', () => {
  it('prints its URL, serves WDA there and stops cleanly on SIGINT', async () => {
    const run = apex('emulator', '--port', '0', '--profile', 'iphone-se');
    const [url] = await run.waitForLine(/http:\/\/127\.0\.0\.1:\d+/, START);
    const status = await fetch(`${url}/status`);
    expect(status.status).toBe(200);
    expect(((await status.json()) as { value: { ready: boolean } }).value.ready).toBe(true);
    const screen = (await (await fetch(`${url}/wda/screen`)).json()) as { value: { scale: number } };
    expect(screen.value.scale).toBe(2);
    // No fault admin path without --faults.
    expect((await fetch(`${url}/__apex/faults`)).status).toBe(404);
    run.kill('SIGINT');
    expect(await run.waitForExit(EXIT)).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toMatch(/stopped/);
  }, 120_000);

  it('rejects bad values with a usage error and exit code 2', async () => {
    const runs = [['--port', 'abc'], ['--port', '70000'], ['--profile', 'pixel'], ['--appearance', 'blue'], ['extra']].map((args) => apex('emulator', ...args));
    for (const run of runs) {
      expect((await run.waitForExit(EXIT)).code).toBe(2);
      expect(run.stderr()).toMatch(/Usage: apex emulator/);
    }
  }, 120_000);

  it('mounts the fault admin path with --faults', async () => {
    const run = apex('emulator', '--port', '0', '--faults', '--allow-remote', '--host', '127.0.0.1');
    const [url] = await run.waitForLine(/http:\/\/127\.0\.0\.1:\d+/, START);
    const faults = await fetch(`${url}/__apex/faults`);
    expect(faults.status).toBe(200);
    expect(((await faults.json()) as { faults: { failNext: number } }).faults.failNext).toBe(0);
    expect(run.stdout()).toMatch(/Fault admin at .*\/__apex\/faults/);
    run.kill('SIGINT');
    expect((await run.waitForExit(EXIT)).code).toBe(0);
  }, 120_000);

  it('refuses --host beyond loopback without --allow-remote: exit code 2 and why', async () => {
    const runs = [apex('emulator', '--host', '0.0.0.0'), apex('emulator', '--host', '::', '--faults')];
    for (const run of runs) {
      expect((await run.waitForExit(EXIT)).code).toBe(2);
      expect(run.stderr()).toMatch(/Refusing to listen on (0\.0\.0\.0|::): the virtual iPhone has no authentication/);
      expect(run.stderr()).toMatch(/--allow-remote/);
      expect(run.stdout()).not.toMatch(/speaks WebDriverAgent/);
    }
  }, 120_000);

  it.each(['ios', 'android'])('says clearly when the port is taken and exits with 1 (%s)', async (platform) => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const run = apex('emulator', '--platform', platform, '--port', String(port));
      expect((await run.waitForExit(EXIT)).code).toBe(1);
      expect(run.stderr()).toMatch(new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use`));
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 120_000);
});

describe('apex emulator --platform android', () => {
  it('serves a virtual Android phone that the real adb connects to, and stops cleanly on SIGINT', async () => {
    const run = apex('emulator', '--platform', 'android', '--port', '0', '--profile', 'small-phone');
    const [, serial] = await run.waitForLine(/adb connect (127\.0\.0\.1:\d+)/, START);
    if (findAdb()) {
      const adb = await startRealAdbServer();
      try {
        expect((await adb.run(['connect', serial])).stdout.toString()).toContain(`connected to ${serial}`);
        expect((await adb.run(['-s', serial, 'shell', 'wm', 'size'])).stdout.toString().trim()).toBe('Physical size: 720x1600');
      } finally {
        await adb.stop();
      }
    } else {
      process.stdout.write('adb is not installed: the adb half of this test is skipped (CI installs it)\n');
    }
    run.kill('SIGINT');
    expect(await run.waitForExit(EXIT)).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toMatch(/Virtual Android phone stopped/);
  }, 120_000);

  it('refuses iPhone-only flags, a non-loopback host and an iPhone profile with a usage error', async () => {
    const runs = [['--faults'], ['--host', '0.0.0.0'], ['--profile', 'iphone-se'], ['--platform', 'windows']].map((args) =>
      apex('emulator', '--platform', 'android', ...args),
    );
    for (const run of runs) {
      expect((await run.waitForExit(EXIT)).code).toBe(2);
      expect(run.stderr()).toMatch(/Usage: apex emulator/);
    }
  }, 120_000);

});
