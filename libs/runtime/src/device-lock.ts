import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { ownerOf, type Lease, type LeaseOwner } from '@apex/hub';
import { createPrivateDir, ensureApexDir, PRIVATE_FILE_MODE } from '@apex/tasks';

/** What a lock file holds: the lease of the process that holds the phone. */
export interface LockRecord extends LeaseOwner {
  instanceId: string;
  deviceId: string;
  /** When the lease ends unless renewed (ms since the epoch). */
  expiresAt: number;
}

/** The outcome of one claim: this process holds the phone, or another one does (until `holder.expiresAt`). */
export type LockClaim = { held: true } | { held: false; holder: LockRecord };

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

async function readRaw(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function parseRecord(raw: string | undefined): LockRecord | undefined {
  if (raw === undefined) return undefined;
  try {
    const record = JSON.parse(raw) as Partial<LockRecord>;
    const { instanceId, expiresAt, pid } = record;
    const complete = typeof instanceId === 'string' && typeof expiresAt === 'number' && typeof pid === 'number';
    return complete ? (record as LockRecord) : undefined;
  } catch {
    return undefined;
  }
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown }).code;
}

/** Creates `target` as a hard link to `source`; false if `target` exists. Atomic: no one sees it half-written. */
async function linkIfAbsent(source: string, target: string): Promise<boolean> {
  try {
    await link(source, target);
    return true;
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return false;
    throw error;
  }
}

/** How long a claimant waits for another one's take-over (a read and a rename) to finish. */
const TAKEOVER_WAIT_MS = 1_000;
const TAKEOVER_POLL_MS = 2;

/** Whether `file` is gone within the take-over wait. */
async function gone(file: string): Promise<boolean> {
  for (const deadline = Date.now() + TAKEOVER_WAIT_MS; Date.now() < deadline; ) {
    if ((await readRaw(file)) === undefined) return true;
    await new Promise((resolve) => setTimeout(resolve, TAKEOVER_POLL_MS));
  }
  return false;
}

/**
 * Replaces a lock whose lease ran out (or that is unreadable) with `mine`, so that of several processes that
 * saw the same stale content exactly one wins: the stale content names a marker file that each tries to
 * create (`link` fails if it exists); the one that does checks that the lock still holds that content, then
 * renames its complete record over it. A marker left by a process that died mid-way is skipped once its own
 * lease has run out. Returns true when taken, false when the lock changed meanwhile or another process has just
 * taken it over (look again), or the record of a process still taking it over after the wait.
 */
async function takeOver(file: string, stale: string, mine: string, now: number): Promise<boolean | LockRecord> {
  const generation = createHash('sha256').update(stale).digest('hex').slice(0, 16);
  for (let attempt = 0; ; attempt += 1) {
    const marker = `${file}.takeover-${generation}-${attempt}`;
    if (!(await linkIfAbsent(mine, marker))) {
      const contender = parseRecord(await readRaw(marker));
      if (!contender || contender.expiresAt <= now) continue;
      // The contender may still find the lock changed and lose: wait for it to finish, then look again, so a
      // loser names the real holder. A marker that outlives the wait names the best guess.
      return (await gone(marker)) ? false : contender;
    }
    try {
      if ((await readRaw(file)) !== stale) return false;
      await rename(mine, file);
      return true;
    } finally {
      await unlink(marker).catch(() => undefined);
    }
  }
}

/**
 * One attempt to take, renew or take over the lock for `record`, with the clock reading `now`. A lock whose
 * lease is current belongs to its holder, whatever its pid says (a zombie's pid looks alive, a restarted
 * container gets the same pid); one whose lease ran out is taken over. The file is only ever created or
 * replaced whole (a complete temp file, then `link` or `rename`): a reader never sees it empty or half-written.
 */
export async function claimDeviceLock(
  file: string,
  record: LockRecord,
  now: number,
  renewMarginMs = 0,
): Promise<LockClaim> {
  await mkdir(path.dirname(file), { recursive: true });
  const mine = `${file}.${randomUUID()}.tmp`;
  await writeFile(mine, JSON.stringify(record), { flag: 'wx', mode: PRIVATE_FILE_MODE });
  try {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const current = await readRaw(file);
      if (current === undefined) {
        if (await linkIfAbsent(mine, file)) return { held: true };
        continue;
      }
      const holder = parseRecord(current);
      if (holder && holder.expiresAt > now) {
        if (holder.instanceId !== record.instanceId) return { held: false, holder };
        // Renewing in place is safe while no one else may take the lock: well before it would expire.
        if (holder.expiresAt > now + renewMarginMs) {
          await rename(mine, file);
          return { held: true };
        }
      }
      const taken = await takeOver(file, current, mine, now);
      if (taken === true) return { held: true };
      if (taken !== false) return { held: false, holder: taken };
    }
    throw new Error(`The device lock ${file} kept changing while this process tried to take it.`);
  } finally {
    await unlink(mine).catch(() => undefined);
  }
}

/**
 * Gives the lock up if this instance holds it. The lock is moved aside first, so that a record another
 * process wrote meanwhile is put back instead of deleted.
 */
export async function releaseDeviceLock(file: string, instanceId: string): Promise<void> {
  const aside = `${file}.${randomUUID()}.released`;
  try {
    await rename(file, aside);
  } catch {
    return;
  }
  if (parseRecord(await readRaw(aside))?.instanceId !== instanceId) await linkIfAbsent(aside, file).catch(() => false);
  await unlink(aside).catch(() => undefined);
}

/** Structural subset of a pino logger. */
export interface LockLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Where a phone's lease is kept: a lock file in the data directory (one machine), or the shared database of
 * a cluster (runtime's cluster-devices). One claim takes, renews or takes over the lease.
 */
export interface DeviceLeaseBackend {
  /** Where the lease is kept, for logs and tests (a lock file's path). */
  readonly where: string;
  claim(record: LockRecord, now: number, renewMarginMs: number): Promise<LockClaim>;
  release(instanceId: string): Promise<void>;
}

/** The lock file of the phone in the data directory. */
export function fileLeaseBackend(file: string): DeviceLeaseBackend {
  return {
    where: file,
    claim: (record, now, renewMarginMs) => claimDeviceLock(file, record, now, renewMarginMs),
    release: (instanceId) => releaseDeviceLock(file, instanceId),
  };
}

export interface DeviceLeaseOptions {
  dataDir: string;
  deviceId: string;
  /** What identifies the phone: its automation server, and the phone behind a shared server. */
  url: string;
  phone?: string;
  lease: Lease;
  logger?: LockLogger;
  /** Where the lease is kept (default: the lock file of `url` and `phone` in `dataDir`). */
  backend?: DeviceLeaseBackend;
}

/** This process's hold on one phone, kept by a background timer (unref'd) until `close()`. */
export interface DeviceLease {
  /** Where the lease is kept: the lock file, by default. */
  readonly file: string;
  /** The process that holds the phone while it is not this one. */
  heldBy(): LeaseOwner | undefined;
  /** Stops renewing or waiting and gives the phone up if this process holds it. */
  close(): Promise<void>;
}

/**
 * Takes the phone's lock for this process, or waits for it: while another process holds it, `heldBy()` names
 * that process, and the phone is taken over on its own once that lease lapses or is released (checked at the
 * lease's expiry and every `renewMs`). While held, the lease is renewed every `renewMs`.
 */
export async function openDeviceLease(options: DeviceLeaseOptions): Promise<DeviceLease> {
  const { lease, deviceId, logger } = options;
  let backend = options.backend;
  if (!backend) {
    const lockFile = lockFileFor(options.dataDir, options.url, options.phone);
    createPrivateDir(options.dataDir);
    ensureApexDir(path.dirname(lockFile));
    backend = fileLeaseBackend(lockFile);
  }
  const store = backend;
  const file = store.where;
  let holder: LockRecord | undefined;
  let held = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let claiming: Promise<void> = Promise.resolve();

  /** One claim; the first one's failure (say an unwritable data directory) fails the start-up. */
  const claim = async (first: boolean): Promise<void> => {
    const now = lease.now();
    const { instance, leaseMs } = lease;
    const record: LockRecord = { ...ownerOf(instance), instanceId: instance.id, deviceId, expiresAt: now + leaseMs };
    let next = lease.renewMs;
    try {
      const result = await store.claim(record, now, lease.renewMs);
      if (result.held) {
        if (holder) logger?.info({ deviceId, previousOwner: ownerOf(holder) }, 'took the device over');
        held = true;
        holder = undefined;
      } else {
        const owner = ownerOf(result.holder);
        if (!holder) logger?.warn({ deviceId, owner, file }, 'another process holds the device');
        held = false;
        holder = result.holder;
        // Look again the moment that lease would run out, if that comes before the next regular look.
        next = Math.min(next, Math.max(0, result.holder.expiresAt - lease.now()) + 1);
      }
    } catch (error) {
      if (first) throw error;
      logger?.warn({ deviceId, err: error, file }, 'could not renew the device lock; retrying');
    }
    if (closed) return;
    timer = setTimeout(() => {
      claiming = claim(false);
    }, next);
    timer.unref();
  };

  claiming = claim(true);
  await claiming;
  return {
    file,
    heldBy: () => (holder ? ownerOf(holder) : undefined),
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      await claiming;
      if (held) await store.release(lease.instance.id);
    },
  };
}
