import type { Lease } from '@apex/hub';
import type { StepImageStore } from '../store/step-images';
import type { TaskStore } from '../store/task-store';
import type { TaskLogger } from './task-service';

/** Finished tasks are deleted once older than `maxAgeMs` or beyond the `maxFinished` newest. */
export interface TaskRetention {
  /** Default 30 days. */
  maxAgeMs?: number;
  /** Default 1000. */
  maxFinished?: number;
}

export const TASK_RETENTION_DEFAULTS = { maxAgeMs: 30 * 24 * 60 * 60_000, maxFinished: 1_000 } as const;

/** How often the age rule is applied besides after each task ends, and how many tasks one pass deletes at most. */
const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 200;

/** Deletes the finished tasks the retention rule no longer keeps, with their steps and screenshots. */
export class TaskPruner {
  private prunedAt = -Infinity;

  constructor(
    private readonly store: TaskStore,
    private readonly images: StepImageStore,
    private readonly lease: Lease,
    private readonly retention: TaskRetention = {},
    private readonly logger?: TaskLogger,
  ) {}

  /** At most PRUNE_BATCH tasks per call (the next call goes on); returns their ids. */
  async prune(): Promise<string[]> {
    this.prunedAt = this.lease.now();
    const maxAgeMs = this.retention.maxAgeMs ?? TASK_RETENTION_DEFAULTS.maxAgeMs;
    const maxFinished = this.retention.maxFinished ?? TASK_RETENTION_DEFAULTS.maxFinished;
    const pruned = await this.store.pruneFinished({ finishedBefore: new Date(this.lease.now() - maxAgeMs).toISOString(), keepNewest: maxFinished, limit: PRUNE_BATCH });
    for (const taskId of pruned) await this.images.removeTask(taskId);
    if (pruned.length > 0) this.logger?.info({ tasks: pruned.length }, 'finished tasks past their retention deleted');
    return pruned;
  }

  /** Prunes when a minute has passed since the last pass (the age rule applies while no task ends). */
  async pruneIfDue(): Promise<void> {
    if (this.lease.now() >= this.prunedAt + PRUNE_EVERY_MS) await this.prune();
  }

  /** Prunes, logging a failure instead of throwing it (after a task ended). */
  async pruneQuietly(): Promise<void> {
    try {
      await this.prune();
    } catch (error) {
      this.logger?.warn({ err: error }, 'deleting finished tasks past their retention failed');
    }
  }
}
