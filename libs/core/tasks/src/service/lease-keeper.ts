import type { Lease } from '@apex/hub';
import type { TaskSummary } from '../model/task';
import type { TaskStore } from '../store/task-store';
import type { TaskLogger } from './task-service';

export interface LeaseKeeperOptions {
  store: TaskStore;
  lease: Lease;
  /** Takes on a queued task this process should run (a stopped process's, or one for a device it holds). */
  adopt(task: TaskSummary): void;
  /** Runs at each wake-up, after the renewal (time-based chores such as retention). */
  onWake(): Promise<void>;
  /** Also wake at least this often (a shared store: tasks posted on other nodes for this one's devices). */
  pollMs?: number;
  logger?: TaskLogger;
}

/**
 * Keeps this process's task lease in the store while it lives, and recovers the tasks of processes whose
 * lease has run out: their `running` tasks become `failed` (`interrupted`) or go back to the queue, their
 * queued ones are adopted. Wakes at the next renewal, the moment another process's lease expires, every
 * `pollMs`, or when asked (`wake()`), whichever comes first; one wake-up at a time.
 */
export class LeaseKeeper {
  private timer?: NodeJS.Timeout;
  private renewedAt = 0;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();
  private again = false;
  private busy = false;
  /** The last wake-up could not reach the store. */
  private outage = false;
  /** No recovery before this instant: after an outage, peers get time to renew too (ms since the epoch). */
  private quietUntil = 0;
  /** The first wake-up is over: the tasks of stopped processes are recovered (what they show is current). */
  readonly started: Promise<void>;

  constructor(private readonly options: LeaseKeeperOptions) {
    this.wake();
    this.started = this.running;
  }

  /** Runs a wake-up now (or right after the one under way). */
  wake(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.busy = true;
    this.running = this.keep().finally(() => {
      this.busy = false;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Stops renewing (after the wake-up under way); `release` also gives the lease up. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Gives the lease up (after stop()): peers may adopt this process's queued tasks at once. */
  async release(): Promise<void> {
    try {
      await this.options.store.releaseLease();
    } catch (error) {
      // Then peers wait out the lease before adopting the queued tasks.
      this.options.logger?.warn({ err: error }, 'giving the task lease up failed');
    }
  }

  private async keep(): Promise<void> {
    if (this.stopped) return;
    const { store, lease } = this.options;
    let failed = false;
    try {
      if (this.outage || lease.now() >= this.renewedAt + lease.renewMs) {
        await store.renewLease();
        this.renewedAt = lease.now();
      }
      if (this.outage) {
        // Back after the store was unreachable: every process's lease looks lapsed until it renews too.
        this.outage = false;
        this.quietUntil = lease.now() + 2 * lease.renewMs;
        // A claim may have been stored while its answer was lost: queue this process's own tasks again (once each).
        for (const task of await store.ownQueued()) this.options.adopt(task);
      }
      if (lease.now() >= this.quietUntil) await this.recoverOrphans();
      await this.options.onWake();
    } catch (error) {
      failed = true;
      this.outage = true;
      this.options.logger?.warn({ err: error }, 'renewing the task lease failed; retrying');
    }
    const poll = lease.now() + (this.options.pollMs ?? Infinity);
    // After a failure (the store unreachable) the next try comes a renewal period later, not at once.
    let wakeAt = failed ? Math.min(lease.now() + lease.renewMs, poll) : Math.min(this.renewedAt + lease.renewMs, poll);
    if (this.quietUntil > lease.now()) wakeAt = Math.min(wakeAt, this.quietUntil);
    try {
      // +1: a lease is over once `expires_at <= now`.
      wakeAt = Math.min(wakeAt, ((await store.nextLeaseExpiry()) ?? Infinity) + 1);
    } catch {
      // The renewal schedule stands.
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => this.wake(), Math.max(0, wakeAt - lease.now()));
    this.timer.unref();
  }

  private async recoverOrphans(): Promise<void> {
    const { store, lease, logger } = this.options;
    const interrupted = await store.failInterrupted(new Date(lease.now()).toISOString());
    if (interrupted.length > 0) {
      logger?.warn({ taskIds: interrupted }, 'tasks of a stopped process marked failed (interrupted)');
    }
    const adopted = await store.adoptQueued();
    if (adopted.length > 0) {
      logger?.info({ taskIds: adopted.map((t) => t.id) }, 'adopted queued tasks');
    }
    for (const task of adopted) this.options.adopt(task);
  }
}
