import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApexError } from '@apex/errors';
import { acquireDeviceLock, lockFileFor } from './device-lock';

describe('device locks', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'apex-lock-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('holds pid and start time, answers device_busy to a second owner, and releases', async () => {
    const lock = await acquireDeviceLock(dataDir, 'iphone-a', 'http://127.0.0.1:8100');
    const content = JSON.parse(await readFile(lock.file, 'utf8'));
    expect(content).toMatchObject({ pid: process.pid, deviceId: 'iphone-a', startedAt: expect.any(String) });

    const second = await acquireDeviceLock(dataDir, 'other-name', 'http://127.0.0.1:8100/').catch((e: unknown) => e);
    expect(second).toBeInstanceOf(ApexError);
    expect((second as ApexError).code).toBe('device_busy');
    expect((second as ApexError).message).toContain(`pid ${process.pid}`);

    await lock.release();
    expect(existsSync(lock.file)).toBe(false);
    const again = await acquireDeviceLock(dataDir, 'iphone-a', 'http://127.0.0.1:8100');
    await again.release();
  });

  it('takes over a lock left by a dead process', async () => {
    // A pid that surely exited: a child we ran to completion.
    const child = spawnSync(process.execPath, ['-e', '0']);
    const deadPid = child.pid as number;
    const file = lockFileFor(dataDir, 'http://127.0.0.1:8100');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ pid: deadPid, startedAt: '2020-01-01T00:00:00.000Z', host: os.hostname(), deviceId: 'x' }));
    const lock = await acquireDeviceLock(dataDir, 'iphone-a', 'http://127.0.0.1:8100');
    expect(JSON.parse(await readFile(lock.file, 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('takes over an unreadable lock file', async () => {
    const file = lockFileFor(dataDir, 'http://127.0.0.1:8100');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, 'garbage');
    const lock = await acquireDeviceLock(dataDir, 'iphone-a', 'http://127.0.0.1:8100');
    await lock.release();
  });

  it('keys locks by endpoint', () => {
    expect(lockFileFor('/d', 'http://127.0.0.1:8100')).toBe(path.join('/d', 'locks', '127.0.0.1_8100.lock'));
    expect(lockFileFor('/d', 'http://[::1]:8100')).toBe(path.join('/d', 'locks', '___1__8100.lock'));
    expect(lockFileFor('/d', 'http://127.0.0.1:4723', '00008110-000A')).toBe(path.join('/d', 'locks', '127.0.0.1_4723_00008110-000A.lock'));
  });
});
