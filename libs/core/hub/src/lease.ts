import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/** Who holds a phone or runs a task, in the words a person reads: process id, host, and since when (ISO time). */
export interface LeaseOwner {
  pid: number;
  host: string;
  since: string;
}

/**
 * One Apex process as an owner. Ownership goes by the random `id` and a renewed lease, never by the pid: a
 * zombie's pid still answers `kill(pid, 0)`, and in a container a restarted process gets the same pid again.
 */
export interface ProcessInstance extends LeaseOwner {
  id: string;
}

/** How ownership is kept: an owner renews its lease every `renewMs`; one not renewed for `leaseMs` is gone. */
export interface Lease {
  instance: ProcessInstance;
  leaseMs: number;
  renewMs: number;
  /** Clock (ms since the epoch), injectable for tests. */
  now: () => number;
}

export type LeaseOptions = Partial<Lease>;

const DEFAULT_LEASE_MS = 15_000;
const DEFAULT_RENEW_MS = 5_000;

/** A fresh owner identity for this process (one per runtime). */
function newProcessInstance(now: () => number = Date.now): ProcessInstance {
  return { id: randomUUID(), pid: process.pid, host: hostname(), since: new Date(now()).toISOString() };
}

/** The lease with every default filled in: a new instance, 15 s leases renewed every 5 s, the wall clock. */
export function resolveLease(options: LeaseOptions = {}): Lease {
  const now = options.now ?? Date.now;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  // A renewal period as long as the lease would let it lapse between renewals.
  const renewMs = Math.min(options.renewMs ?? DEFAULT_RENEW_MS, leaseMs / 2);
  return { instance: options.instance ?? newProcessInstance(now), leaseMs, renewMs, now };
}

/** The public part of an owner (no instance id). */
export function ownerOf(owner: LeaseOwner): LeaseOwner {
  return { pid: owner.pid, host: owner.host, since: owner.since };
}
