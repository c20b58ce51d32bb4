import type { Lease } from '@apex/hub';
import type { TaskSummary } from '../model/task';
import type { TaskStore } from '../store/task-store';
import type { TaskLogger } from './task-service';

export interface LeaseKeeperOptions {
  store: TaskStore;
  lease: Lease;
  /** Takes on a queued task of a process whose lease ran out. */
  adopt(task: TaskSummary): void;
  /** Runs at each wake-up, after the renewal (time-based chores such as retention). */
  onWake(): void;
  logger?: TaskLogger;
}

/**
 * Keeps this process's task lease in the store while it lives, and recovers the tasks of processes whose
 * lease has run out: their `running` tasks become `failed` (`interrupted`), their queued ones are adopted.
 * Wakes at the next renewal or the moment another process's lease expires, if sooner.
 */
export class LeaseKeeper {
  private timer?: NodeJS.Timeout;
  private renewedAt = 0;
  private stopped = false;

  constructor(private readonly options: LeaseKeeperOptions) {
    this.keep();
  }

  /** Stops renewing; `release` also gives the lease up, so peers adopt the queued tasks at once. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Gives the lease up (after stop()): peers may adopt this process's queued tasks at once. */
  release(): void {
    try {
      this.options.store.releaseLease();
    } catch (error) {
      // Then peers wait out the lease before adopting the queued tasks.
      this.options.logger?.warn({ err: error }, 'giving the task lease up failed');
    }
  }

  private keep(): void {
    if (this.stopped) return;
    const { store, lease } = this.options;
    try {
      if (lease.now() >= this.renewedAt + lease.renewMs) {
        store.renewLease();
        this.renewedAt = lease.now();
      }
      this.recoverOrphans();
      this.options.onWake();
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'renewing the task lease failed; retrying');
    }
    let wakeAt = this.renewedAt + lease.renewMs;
    try {
      // +1: a lease is over once `expires_at <= now`.
      wakeAt = Math.min(wakeAt, (store.nextLeaseExpiry() ?? Infinity) + 1);
    } catch {
      // The renewal schedule stands.
    }
    this.timer = setTimeout(() => this.keep(), Math.max(0, wakeAt - lease.now()));
    this.timer.unref();
  }

  private recoverOrphans(): void {
    const { store, lease, logger } = this.options;
    const interrupted = store.failInterrupted(new Date(lease.now()).toISOString());
    if (interrupted.length > 0) {
      logger?.warn({ taskIds: interrupted }, 'tasks of a stopped process marked failed (interrupted)');
    }
    const adopted = store.adoptQueued();
    if (adopted.length > 0) {
      logger?.info({ taskIds: adopted.map((t) => t.id) }, 'adopted the queued tasks of a stopped process');
    }
    for (const task of adopted) this.options.adopt(task);
  }
}
