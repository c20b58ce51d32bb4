import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createLogger, createRuntime } from '@apex/runtime';
import { spawnNode } from '@apex/testing';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';

const bin = path.resolve(__dirname, '../../../../apps/cli/bin/apex.js');

describe('apex devices (spawned as a process)', () => {
  let dir: string;
  let iphone: VirtualIPhone;

  /** Runs `apex …args` to its end (a deadline for a slow machine, not a timing check). */
  async function apex(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const run = spawnNode([bin, ...args], { env: { ...process.env, APEX_CONFIG: '', APEX_DATA_DIR: path.join(dir, 'data') } });
    const { code } = await run.waitForExit({ timeoutMs: 60_000 });
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'apex-cli-devices-'));
    iphone = await startVirtualIPhone({ port: 0 });
  });
  afterAll(async () => {
    await iphone.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the embedded virtual phones online, with model and OS, and exits 0', async () => {
    const { code, stdout } = await apex('devices');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ID\s+NAME\s+STATE\s+DETAILS$/m);
    expect(stdout).toMatch(/^iphone-virtual\s+Virtual iPhone\s+online\s+.*iOS \d+/m);
    expect(stdout).toMatch(/^android-virtual\s+Virtual Android\s+online\s+.*Android 14/m);
  });

  it('prints JSON with --json, and reports an unreachable device as offline', async () => {
    // A port that was just free: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const deadPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const file = path.join(dir, 'two.json');
    await writeFile(
      file,
      JSON.stringify({
        devices: [
          { id: 'iphone-a', name: 'Phone A', driver: 'wda', url: iphone.url },
          { id: 'iphone-gone', driver: 'wda', url: `http://127.0.0.1:${deadPort}`, timeouts: { connectMs: 500 } },
        ],
      }),
    );
    const { code, stdout } = await apex('devices', '--config', file, '--json');
    expect(code).toBe(0);
    const { devices } = JSON.parse(stdout);
    expect(devices).toEqual([
      expect.objectContaining({ id: 'iphone-a', name: 'Phone A', state: 'online', status: expect.objectContaining({ osVersion: iphone.phone.profile.osVersion }) }),
      expect.objectContaining({ id: 'iphone-gone', state: 'offline', error: expect.objectContaining({ code: 'device_offline' }) }),
    ]);
  });

  it('lists the bad fields of a configuration and exits 2', async () => {
    const file = path.join(dir, 'bad.json');
    await writeFile(file, JSON.stringify({ devices: [{ id: 'x', driver: 'wda', url: 'nope' }], colour: 'red' }));
    const { code, stdout, stderr } = await apex('devices', '--config', file);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/devices\.0\.url: Invalid URL/);
    expect(stderr).toMatch(/colour/);
  });

  it('lists a device another process holds as busy, naming the owner, and exits 0', async () => {
    const file = path.join(dir, 'owned.json');
    await writeFile(file, JSON.stringify({ devices: [{ id: 'iphone-owned', driver: 'wda', url: iphone.url }] }));
    const owner = await createRuntime({ configPath: file, env: {}, dataDir: path.join(dir, 'data'), logger: createLogger({ level: 'silent' }) });
    try {
      const { code, stdout } = await apex('devices', '--config', file);
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^iphone-owned\\s+iphone-owned\\s+busy\\s+.*in use by another Apex process \\(pid ${process.pid}`, 'm'));
    } finally {
      await owner.close();
    }
  });
});
