import { open, readFile, unlink } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApexError } from '@apex/errors';
import { createPrivateDir, ensureApexDir, PRIVATE_FILE_MODE } from '@apex/tasks';

/** What a lock file holds. */
export interface LockOwner {
  pid: number;
  /** When the owning process took the lock (ISO time). */
  startedAt: string;
  host: string;
  deviceId: string;
}

export interface DeviceLock {
  readonly file: string;
  release(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

async function readOwner(file: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await readFile(file, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' ? (owner as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One lock per device endpoint: the same phone under two ids in two configs is still one phone. `phone`
 * tells apart phones behind one shared endpoint (several phones behind one automation server).
 */
export function lockFileFor(dataDir: string, url: string, phone?: string): string {
  const endpoint = new URL(url);
  const base = `${endpoint.hostname}_${endpoint.port || (endpoint.protocol === 'https:' ? '443' : '80')}`;
  const name = (phone ? `${base}_${phone}` : base).replace(/[^A-Za-z0-9._-]/g, '_');
  return path.join(dataDir, 'locks', `${name}.lock`);
}

/**
 * Takes ownership of a device for this process. A lock held by a live process → `device_busy` naming it;
 * a lock left by a dead process (or unreadable) is taken over.
 */
export async function acquireDeviceLock(dataDir: string, deviceId: string, url: string, phone?: string): Promise<DeviceLock> {
  const file = lockFileFor(dataDir, url, phone);
  createPrivateDir(dataDir);
  ensureApexDir(path.dirname(file));
  const me: LockOwner = { pid: process.pid, startedAt: new Date().toISOString(), host: os.hostname(), deviceId };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const handle = await open(file, 'wx', PRIVATE_FILE_MODE);
      await handle.chmod(PRIVATE_FILE_MODE);
      await handle.writeFile(JSON.stringify(me));
      await handle.close();
      return {
        file,
        async release() {
          const owner = await readOwner(file);
          if (owner?.pid === me.pid && owner.startedAt === me.startedAt) await unlink(file).catch(() => undefined);
        },
      };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(file);
    const sameHost = owner === undefined || owner.host === me.host;
    if (owner && (!sameHost || isAlive(owner.pid))) {
      throw new ApexError(
        'device_busy',
        `Device ${deviceId} is in use by another Apex process (pid ${owner.pid}${sameHost ? '' : ` on ${owner.host}`}, since ${owner.startedAt}).`,
        {
          hint: `Stop that process, or mark the device "shared": true in the configuration if several processes may use it. Lock file: ${file}`,
        },
      );
    }
    // The owner is gone: take the lock over.
    await unlink(file).catch(() => undefined);
  }
  throw new ApexError('device_busy', `Device ${deviceId} could not be locked for this process.`, {
    hint: `Another process keeps taking it; lock file: ${file}`,
  });
}
