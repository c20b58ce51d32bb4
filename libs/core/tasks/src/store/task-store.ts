import type { FlowPatch, Task, TaskAnswer, TaskError, TaskStatus, TaskStep, TaskRecording, TaskSummary, TaskUsage } from '../model/task';

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
  recording?: TaskRecording;
  /**
   * Applies the patch only while the task is in this status (a shared store: a running one only when this
   * process runs it). A process whose task was recovered by another one cannot overwrite what that one decided.
   */
  from?: TaskStatus;
}

/**
 * Where tasks live, behind one asynchronous interface: SQLite (one machine, the default) or PostgreSQL (many
 * Apex processes, "nodes", sharing one queue). Every process keeps a lease in the store while it lives; a task's
 * `owner` is the process that runs (or will run) it, and a task whose owner's lease ran out is recovered by
 * another process. The store contract suite (store-contract.ts) holds both implementations to the same rules.
 */
export interface TaskStore {
  /**
   * Stores a new task. Resolves true when this process owns it and should queue it (SQLite: always; PostgreSQL:
   * when this process holds the task's device, otherwise the node that holds it adopts it). A store shared by
   * several processes (PostgreSQL) also keeps `maxQueued`: it counts the device's queued tasks of every
   * process, atomically with the insert, and resolves 'full' without storing anything when there are that many
   * (one process's own queue is counted by its scheduler).
   */
  insert(task: Task, limits?: { maxQueued?: number }): Promise<boolean | 'full'>;
  /** Whether a task for the device would be this process's to run (PostgreSQL: no other node holds the device). */
  runsHere(deviceId: string): Promise<boolean>;
  update(id: string, patch: TaskPatch): Promise<void>;
  /** Records a step; a store shared by several processes records it only while this process still runs the task. */
  appendStep(taskId: string, step: TaskStep): Promise<void>;
  setStepScreenshot(taskId: string, index: number, ref: string | undefined): Promise<void>;
  get(id: string): Promise<Task | undefined>;
  list(filter?: TaskFilter): Promise<TaskSummary[]>;
  /** Queued tasks, oldest first. */
  queued(): Promise<TaskSummary[]>;
  /** Writes or pushes forward this process's lease: while it is unexpired, this process owns its tasks. */
  renewLease(): Promise<void>;
  /** Drops this process's lease (on close): its queued tasks are anyone's to adopt at once. */
  releaseLease(): Promise<void>;
  /** When the next lease of another process runs out (ms since the epoch), if any does. */
  nextLeaseExpiry(): Promise<number | undefined>;
  /** Moves one of this process's queued tasks to `running`; false if it is no longer queued or no longer ours. */
  startRun(id: string, startedAt: string): Promise<boolean>;
  /**
   * Recovers the `running` tasks whose owner's lease has expired (or is missing), after a crash, a kill or a
   * hang: they become `failed` with reason `interrupted` (a shared store puts one that had not recorded a step
   * back in the queue instead); returns the ids of those it failed. Tasks of a process whose lease is current
   * are left alone.
   */
  failInterrupted(now: string): Promise<string[]>;
  /** Asks whichever process runs the task to stop it at its next step boundary. */
  requestCancel(id: string): Promise<void>;
  /**
   * Whether the task should stop at its next step boundary: a cancel was asked for, or (shared store) this
   * process no longer runs it, because its lease lapsed and another process recovered the task.
   */
  isCancelRequested(id: string): Promise<boolean>;
  /** The queued tasks this process owns, oldest first (to queue them again after losing track, say the store went away mid-answer). */
  ownQueued(): Promise<TaskSummary[]>;
  /** Takes over the queued tasks this process should run (of processes whose lease has expired; PostgreSQL: of the devices it holds); returns them, oldest first. */
  adoptQueued(): Promise<TaskSummary[]>;
  /**
   * Deletes finished tasks (succeeded, failed, cancelled) with their steps: those finished before
   * `finishedBefore` (ISO time) and those beyond the `keepNewest` most recently finished. At most `limit` per
   * call (bounded work); returns their ids.
   */
  pruneFinished(rule: { finishedBefore: string; keepNewest: number; limit: number }): Promise<string[]>;
  close(): Promise<void>;
}
