import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ownerOf, resolveLease, type Lease } from '@apex/hub';
import { claimDeviceLock, lockFileFor, openDeviceLease, releaseDeviceLock, type LockRecord } from './device-lock';

const URL_A = 'http://127.0.0.1:8100';

async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('device leases', () => {
  let dataDir: string;
  let clock: number;
  const now = () => clock;
  /** A process's lease on a fake clock; its pid is this live process's unless told (a zombie, a reused pid). */
  const leaseOf = (id: string, pid = process.pid): Lease =>
    resolveLease({ instance: { id, pid, host: os.hostname(), since: new Date(clock).toISOString() }, leaseMs: 15_000, renewMs: 5_000, now });
  const recordOf = (lease: Lease, deviceId = 'iphone-a'): LockRecord => ({
    ...ownerOf(lease.instance),
    instanceId: lease.instance.id,
    deviceId,
    expiresAt: clock + lease.leaseMs,
  });

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'apex-lock-'));
    clock = Date.parse('2026-01-01T00:00:00.000Z');
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('holds the lease in the lock file; another instance sees the holder until it releases', async () => {
    const file = lockFileFor(dataDir, URL_A);
    const a = leaseOf('instance-a');
    expect(await claimDeviceLock(file, recordOf(a), clock)).toEqual({ held: true });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      instanceId: 'instance-a',
      pid: process.pid,
      host: os.hostname(),
      since: '2026-01-01T00:00:00.000Z',
      deviceId: 'iphone-a',
      expiresAt: clock + 15_000,
    });

    const b = leaseOf('instance-b');
    const busy = await claimDeviceLock(file, recordOf(b, 'other-name'), clock);
    expect(busy).toEqual({ held: false, holder: expect.objectContaining({ instanceId: 'instance-a', pid: process.pid }) });

    await releaseDeviceLock(file, 'instance-b');
    expect(existsSync(file)).toBe(true);
    await releaseDeviceLock(file, 'instance-a');
    expect(existsSync(file)).toBe(false);
    expect(await claimDeviceLock(file, recordOf(b), clock)).toEqual({ held: true });
    // Nothing is left behind but the lock itself.
    expect(await readdir(path.dirname(file))).toEqual([path.basename(file)]);
  });

  it('takes over a lock naming a live pid (pid reuse, a zombie) once its lease has expired, not before', async () => {
    const file = lockFileFor(dataDir, URL_A);
    // The same pid as this process, another instance: what a restarted container finds.
    const previous = leaseOf('before-restart', process.pid);
    await claimDeviceLock(file, recordOf(previous), clock);
    clock += 14_999;
    const me = leaseOf('after-restart', process.pid);
    expect(await claimDeviceLock(file, recordOf(me), clock)).toMatchObject({ held: false, holder: { instanceId: 'before-restart' } });
    clock += 1;
    expect(await claimDeviceLock(file, recordOf(me), clock)).toEqual({ held: true });
    expect(JSON.parse(await readFile(file, 'utf8')).instanceId).toBe('after-restart');
  });

  it('keeps a lock whose lease is current even if its pid is gone', async () => {
    const file = lockFileFor(dataDir, URL_A);
    await claimDeviceLock(file, recordOf(leaseOf('elsewhere', 2147483646)), clock);
    expect(await claimDeviceLock(file, recordOf(leaseOf('me')), clock + 1_000)).toMatchObject({ held: false, holder: { pid: 2147483646 } });
  });

  it('takes over an unreadable or empty lock file (left by an older Apex)', async () => {
    const file = lockFileFor(dataDir, URL_A);
    await mkdir(path.dirname(file), { recursive: true });
    for (const content of ['garbage', '', JSON.stringify({ pid: 1, startedAt: '2020-01-01T00:00:00.000Z' })]) {
      await writeFile(file, content);
      expect(await claimDeviceLock(file, recordOf(leaseOf('me')), clock)).toEqual({ held: true });
      await releaseDeviceLock(file, 'me');
    }
  });

  it('of many claims racing over the same stale lock, exactly one wins', async () => {
    const file = lockFileFor(dataDir, URL_A);
    await mkdir(path.dirname(file), { recursive: true });
    for (let round = 0; round < 50; round += 1) {
      await writeFile(file, JSON.stringify({ ...recordOf(leaseOf(`stale-${round}`)), expiresAt: clock - 1 }));
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => claimDeviceLock(file, recordOf(leaseOf(`racer-${round}-${i}`)), clock)),
      );
      const winners = results.filter((r) => r.held);
      expect(winners).toHaveLength(1);
      const holder = JSON.parse(await readFile(file, 'utf8')).instanceId as string;
      expect(holder).toMatch(new RegExp(`^racer-${round}-`));
      for (const loser of results.filter((r) => !r.held)) expect(loser).toMatchObject({ held: false, holder: { instanceId: holder } });
    }
    expect((await readdir(path.dirname(file))).filter((name) => name !== path.basename(file))).toEqual([]);
  });

  it('keeps the lease renewed in the background, and a waiting process takes over once it lapses or is released', async () => {
    // Real time here: short leases.
    const short = (id: string) => resolveLease({ instance: { id, pid: process.pid, host: os.hostname(), since: new Date().toISOString() }, leaseMs: 300, renewMs: 60 });
    const options = { dataDir, deviceId: 'iphone-a', url: URL_A };
    const first = await openDeviceLease({ ...options, lease: short('first') });
    expect(first.heldBy()).toBeUndefined();
    const second = await openDeviceLease({ ...options, lease: short('second') });
    try {
      expect(second.heldBy()).toEqual({ pid: process.pid, host: os.hostname(), since: expect.any(String) });
      // The holder renews: several lease periods later it still holds the phone.
      const renewedPast = JSON.parse(await readFile(first.file, 'utf8')).expiresAt as number;
      await eventually(async () => (JSON.parse(await readFile(first.file, 'utf8')).expiresAt as number) > renewedPast + 600, 'renewals');
      expect(second.heldBy()).toBeDefined();
      await first.close();
      await eventually(() => second.heldBy() === undefined, 'the take-over');
      expect(JSON.parse(await readFile(first.file, 'utf8')).instanceId).toBe('second');
    } finally {
      await first.close();
      await second.close();
    }
    expect(existsSync(first.file)).toBe(false);
  });

  it('keys locks by endpoint', () => {
    expect(lockFileFor('/d', 'http://127.0.0.1:8100')).toBe(path.join('/d', 'locks', '127.0.0.1_8100.lock'));
    expect(lockFileFor('/d', 'http://[::1]:8100')).toBe(path.join('/d', 'locks', '___1__8100.lock'));
    expect(lockFileFor('/d', 'http://127.0.0.1:4723', '00008110-000A')).toBe(path.join('/d', 'locks', '127.0.0.1_4723_00008110-000A.lock'));
  });
});
