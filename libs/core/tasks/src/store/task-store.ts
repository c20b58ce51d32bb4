import type { FlowPatch, Task, TaskAnswer, TaskError, TaskStatus, TaskStep, TaskSummary, TaskUsage } from '../model/task';

export interface TaskFilter {
  status?: TaskStatus;
  deviceId?: string;
  /** Newest first; default 100. */
  limit?: number;
}

/** The fields that change while a task runs. */
export interface TaskPatch {
  status?: TaskStatus;
  startedAt?: string;
  finishedAt?: string;
  result?: string;
  answer?: TaskAnswer;
  error?: TaskError;
  usage?: TaskUsage;
  suggestedPatch?: FlowPatch[];
}

/**
 * Where tasks live. Kept behind an interface: the SQLite store serves one machine; a shared store
 * (e.g. for a Redis-backed queue) can replace it later.
 */
export interface TaskStore {
  insert(task: Task): void;
  update(id: string, patch: TaskPatch): void;
  appendStep(taskId: string, step: TaskStep): void;
  setStepScreenshot(taskId: string, index: number, ref: string | undefined): void;
  get(id: string): Task | undefined;
  list(filter?: TaskFilter): TaskSummary[];
  /** Queued tasks, oldest first. */
  queued(): TaskSummary[];
  /** Writes or pushes forward this process's lease: while it is unexpired, this process owns its tasks. */
  renewLease(): void;
  /** Drops this process's lease (on close): its queued tasks are anyone's to adopt at once. */
  releaseLease(): void;
  /** When the next lease of another process runs out (ms since the epoch), if any does. */
  nextLeaseExpiry(): number | undefined;
  /** Moves one of this process's queued tasks to `running`; false if it is no longer queued or no longer ours. */
  startRun(id: string, startedAt: string): boolean;
  /**
   * Marks `running` tasks whose owner's lease has expired (or is missing) `failed` with reason `interrupted`
   * (after a crash, a kill or a hang); returns their ids. Tasks of a process whose lease is current are left alone.
   */
  failInterrupted(now: string): string[];
  /** Asks whichever process runs the task to stop it at its next step boundary. */
  requestCancel(id: string): void;
  isCancelRequested(id: string): boolean;
  /** Takes over the queued tasks of processes whose lease has expired; returns the tasks it took, oldest first. */
  adoptQueued(): TaskSummary[];
  /**
   * Deletes finished tasks (succeeded, failed, cancelled) with their steps: those finished before
   * `finishedBefore` (ISO time) and those beyond the `keepNewest` most recently finished. At most `limit` per
   * call (bounded work); returns their ids.
   */
  pruneFinished(rule: { finishedBefore: string; keepNewest: number; limit: number }): string[];
  close(): void;
}
