import type { Task, TaskError, TaskStatus, TaskStep, TaskSummary, TaskUsage } from '../model/task';

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
  error?: TaskError;
  usage?: TaskUsage;
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
  /**
   * Marks `running` tasks whose process is gone `failed` with reason `interrupted` (after a crash or a kill);
   * returns their ids. Tasks of a process that still runs are left alone.
   */
  failInterrupted(now: string): string[];
  /** Asks whichever process runs the task to stop it at its next step boundary. */
  requestCancel(id: string): void;
  isCancelRequested(id: string): boolean;
  /** Takes over the queued tasks of processes that are gone; returns every queued task this one owns, oldest first. */
  adoptQueued(): TaskSummary[];
  close(): void;
}
