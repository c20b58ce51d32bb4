import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApexError, invalidArgument, invalidInput, toPublicError } from '@apex/errors';
import { resolveLease, type Lease, type LeaseOptions } from '@apex/hub';
import type { ImageAttachment, StepScreenshots } from '@apex/operations';
import { runAgent, SHUTDOWN, type AgentOptions, type AgentOutcome } from '../agent/agent-loop';
import { FINAL_STATUSES, TASK_LIMITS, type Task, type TaskStep, type TaskSummary } from '../model/task';
import { taskIdSchema } from '../model/schemas';
import { FLOW_PLANNER_NAME } from '../flows/flow-planner';
import type { Flow } from '../flows/flow-schema';
import type { Planner } from '../agent/planner';
import type { PlannerRegistry } from '../planners/planner-registry';
import { ScreenshotStore, type ScreenshotRetention } from '../store/screenshot-store';
import { SqliteTaskStore } from '../store/sqlite-task-store';
import type { TaskFilter, TaskStore } from '../store/task-store';
import type { TaskDevices } from './task-devices';
import { AS_TYPED, TypedTextRedactor, type TypedTextFilter } from './typed-text-redactor';

/** What start() takes, already within the start_task operation's bounds. */
export interface StartTaskRequest {
  /** The device, as the operation pipeline resolved it (a registered id). */
  deviceId: string;
  goal: string;
  maxSteps?: number;
  /** A registered planner's name (default: the registry's default). */
  planner?: string;
  timeoutMs?: number;
  /** A flow to replay: the task runs with the flow planner. */
  flow?: Flow;
  /** A flow with `heal: agent`: the planner that heals a step the flow cannot find (default: the registry's default). */
  healPlanner?: string;
}

/** Structural subset of a pino logger. */
export interface TaskLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface TaskServiceOptions {
  /** Where tasks.db and the step screenshots live. */
  dataDir: string;
  devices: TaskDevices;
  planners: PlannerRegistry;
  /** Defaults for tasks that do not say. */
  defaultMaxSteps?: number;
  defaultTimeoutMs?: number;
  /** Step screenshots: on by default, kept under a retention limit. */
  screenshots?: ScreenshotRetention & { enabled?: boolean };
  /** Tuning of the agent loop (settling, loop detection, OCR in observations, the old way: coordinates and separate observations). */
  agent?: Pick<AgentOptions, 'settleMaxObservations' | 'settlePollMs' | 'repeatLimit' | 'observeWithOcr' | 'observeFromActions' | 'actByRef'>;
  /** This process as the owner of its tasks (the runtime's instance), the lease period and the clock. */
  lease?: LeaseOptions;
  /** How long close() lets running tasks reach a step boundary (default 15 s). */
  closeGraceMs?: number;
  /** Most tasks waiting per device; a start beyond it is refused with `device_busy` (default 50). */
  maxQueuedPerDevice?: number;
  /** Store and show typed text as typed (default false: `{"text":"•••","length":7}`, it may be a password). */
  keepTypedText?: boolean;
  /** How long finished tasks (with their steps and screenshots) are kept, and how many at most. */
  retention?: TaskRetention;
  logger?: TaskLogger;
}

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

interface RunningTask {
  taskId: string;
  controller: AbortController;
  done: Promise<void>;
}

const SCREENSHOTS_DIR = 'screenshots';

/** Default of `maxQueuedPerDevice`. */
const DEFAULT_MAX_QUEUED_PER_DEVICE = 50;

/**
 * Agent tasks: created queued, run one at a time per device (the rest wait in order), persisted as they go.
 * Processes sharing a data directory each run their own tasks and renew a lease in the store while they live.
 * At start-up and whenever another process's lease runs out, the `running` tasks of a process whose lease has
 * expired become `failed` (`interrupted`), and its queued tasks are adopted and run here.
 */
export class TaskService implements StepScreenshots {
  readonly store: TaskStore;
  readonly screenshots: ScreenshotStore;
  private readonly waiting = new Map<string, string[]>();
  private readonly running = new Map<string, RunningTask>();
  /**
   * The flows of this process's flow tasks, until they end. Kept in memory only: a flow holds the values of its
   * variables (passwords too), which no file should. A flow task adopted after a restart fails saying so.
   */
  private readonly flows = new Map<string, { flow: Flow; healer?: Planner }>();
  private readonly settledListeners = new Map<string, Array<(task: Task) => void>>();
  private readonly lease: Lease;
  private leaseTimer?: NodeJS.Timeout;
  private renewedAt = 0;
  private prunedAt = -Infinity;
  private closed = false;

  constructor(private readonly options: TaskServiceOptions) {
    this.lease = resolveLease(options.lease);
    this.store = new SqliteTaskStore(options.dataDir, { lease: this.lease });
    this.screenshots = new ScreenshotStore(join(options.dataDir, SCREENSHOTS_DIR), options.screenshots);
    this.keepLease();
  }

  /**
   * Creates a task and queues it on its device. The input's bounds were checked and its device resolved by
   * the start_task operation's pipeline (its schema is the only one); what only the service knows — the
   * planner — is checked here. A refused task creates nothing.
   */
  start(input: StartTaskRequest): Task {
    this.assertOpen();
    const { deviceId, goal, maxSteps, timeoutMs } = input;
    const planner = this.options.planners.get(input.flow ? FLOW_PLANNER_NAME : input.planner);
    if (planner.name === FLOW_PLANNER_NAME && !input.flow) {
      throw invalidArgument('The flow planner replays flows: run one with run_flow.', [{ path: 'planner', message: 'flow is only for run_flow' }]);
    }
    const healer = input.flow?.heal === 'agent' ? this.options.planners.get(input.healPlanner) : undefined;
    if (healer?.name === FLOW_PLANNER_NAME) {
      throw invalidArgument('A flow is healed by a planner that can think: offline or a model.', [{ path: 'healPlanner', message: 'must not be flow' }]);
    }
    this.assertQueueRoom(deviceId);
    const task: Task = {
      id: randomUUID(),
      deviceId,
      goal,
      status: 'queued',
      planner: planner.name,
      maxSteps: maxSteps ?? this.options.defaultMaxSteps ?? TASK_LIMITS.defaultMaxSteps,
      timeoutMs: timeoutMs ?? this.options.defaultTimeoutMs ?? TASK_LIMITS.defaultTimeoutMs,
      createdAt: this.now(),
      steps: [],
    };
    if (input.flow) this.flows.set(task.id, { flow: input.flow, healer });
    this.store.insert(task);
    this.options.logger?.info({ taskId: task.id, deviceId, planner: task.planner }, 'task queued');
    this.enqueue(deviceId, task.id);
    queueMicrotask(() => this.pump(deviceId));
    return task;
  }

  /** The task with its steps (`task_not_found` otherwise). `taskId` was checked by the operation's schema. */
  get(taskId: string): Task {
    const task = this.store.get(taskId);
    if (!task) throw notFound(taskId);
    return task;
  }

  /** Newest first. */
  list(filter: TaskFilter = {}): TaskSummary[] {
    return this.store.list(filter);
  }

  /**
   * A queued task is cancelled at once; a running one at its next step boundary (the returned task is still
   * `running` then: poll `get`). Cancelling a finished task changes nothing.
   */
  cancel(taskId: string): Task {
    const task = this.get(taskId);
    if (FINAL_STATUSES.has(task.status)) return task;
    if (task.status === 'queued') {
      const queue = this.waiting.get(task.deviceId) ?? [];
      const at = queue.indexOf(task.id);
      if (at >= 0) queue.splice(at, 1);
      this.flows.delete(task.id);
      this.store.update(task.id, { status: 'cancelled', finishedAt: this.now() });
      this.options.logger?.info({ taskId: task.id }, 'queued task cancelled');
      const cancelled = this.get(task.id);
      this.notifySettled(cancelled);
      return cancelled;
    }
    // Recorded in the store, so that the process running it sees it at its next step boundary even if that
    // is another process; when it is this one, the abort also stops a model request at once.
    this.store.requestCancel(task.id);
    const running = this.running.get(task.deviceId);
    if (running?.taskId === task.id) running.controller.abort('cancel');
    return task;
  }

  /** Resolves once the task is succeeded, failed or cancelled. */
  whenSettled(taskId: string): Promise<Task> {
    const task = this.get(taskId);
    if (FINAL_STATUSES.has(task.status)) return Promise.resolve(task);
    return new Promise((resolve) => {
      const listeners = this.settledListeners.get(task.id) ?? [];
      listeners.push(resolve);
      this.settledListeners.set(task.id, listeners);
    });
  }

  /**
   * The kept screenshot of step `step` (1-based: the step whose `index` is step − 1). The file is found by the
   * store's own reference, never by a name from the caller. `task_not_found` when the task, the step or its
   * screenshot is not there (retention removes the oldest).
   */
  async stepScreenshot(taskId: string, step: number): Promise<ImageAttachment> {
    // The one door to a task that is not an operation: its id comes straight from a path.
    const task = this.get(this.checkId(taskId));
    const found = Number.isInteger(step) && step >= 1 ? task.steps.find((s) => s.index === step - 1) : undefined;
    if (!found) {
      throw new ApexError('task_not_found', `Task ${task.id} has no step ${step}; it has ${task.steps.length}.`, {
        hint: 'Steps are numbered from 1; get_task lists them.',
      });
    }
    const gone = () =>
      new ApexError('task_not_found', `The screenshot of step ${step} of task ${task.id} is no longer kept.`, {
        hint: 'Only the newest step screenshots are kept; the step itself is still in get_task.',
      });
    if (!found.screenshotRef) throw gone();
    try {
      const data = await readFile(this.screenshots.pathOf(task.id, found.screenshotRef));
      return { data, mimeType: found.screenshotRef.endsWith('.png') ? 'image/png' : 'image/jpeg' };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw gone();
      throw error;
    }
  }

  /** Absolute path of a step's screenshot file, while it is retained. */
  screenshotPath(taskId: string, ref: string): string {
    return this.screenshots.pathOf(taskId, ref);
  }

  /**
   * Stops taking tasks, asks running ones to stop at their next step boundary (they end `failed`,
   * `interrupted`), waits for them a bounded time and closes the store. Queued tasks stay queued for the
   * next start. Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.leaseTimer);
    const running = [...this.running.values()];
    for (const task of running) task.controller.abort(SHUTDOWN);
    const grace = new Promise<void>((resolve) => setTimeout(resolve, this.options.closeGraceMs ?? 15_000).unref());
    await Promise.race([Promise.all(running.map((task) => task.done)), grace]);
    try {
      this.store.releaseLease();
    } catch (error) {
      // Then peers wait out the lease before adopting the queued tasks.
      this.options.logger?.warn({ err: error }, 'giving the task lease up failed');
    }
    this.store.close();
  }

  /**
   * Renews this process's lease when due, recovers the tasks of processes whose lease has run out, and
   * schedules itself again: at the next renewal or the moment another process's lease expires, if sooner.
   */
  private keepLease(): void {
    if (this.closed) return;
    try {
      if (this.lease.now() >= this.renewedAt + this.lease.renewMs) {
        this.store.renewLease();
        this.renewedAt = this.lease.now();
      }
      this.recoverOrphans();
      if (this.lease.now() >= this.prunedAt + PRUNE_EVERY_MS) this.prune();
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'renewing the task lease failed; retrying');
    }
    let wakeAt = this.renewedAt + this.lease.renewMs;
    try {
      // +1: a lease is over once `expires_at <= now`.
      wakeAt = Math.min(wakeAt, (this.store.nextLeaseExpiry() ?? Infinity) + 1);
    } catch {
      // The renewal schedule stands.
    }
    this.leaseTimer = setTimeout(() => this.keepLease(), Math.max(0, wakeAt - this.lease.now()));
    this.leaseTimer.unref();
  }

  private recoverOrphans(): void {
    const interrupted = this.store.failInterrupted(this.now());
    if (interrupted.length > 0) {
      this.options.logger?.warn({ taskIds: interrupted }, 'tasks of a stopped process marked failed (interrupted)');
    }
    const adopted = this.store.adoptQueued();
    if (adopted.length > 0) {
      this.options.logger?.info({ taskIds: adopted.map((t) => t.id) }, 'adopted the queued tasks of a stopped process');
    }
    for (const task of adopted) {
      this.enqueue(task.deviceId, task.id);
      queueMicrotask(() => this.pump(task.deviceId));
    }
  }

  private enqueue(deviceId: string, taskId: string): void {
    const queue = this.waiting.get(deviceId) ?? [];
    queue.push(taskId);
    this.waiting.set(deviceId, queue);
  }

  /** Starts the device's next queued task when none runs. */
  private pump(deviceId: string): void {
    if (this.closed || this.running.has(deviceId)) return;
    const queue = this.waiting.get(deviceId);
    const taskId = queue?.shift();
    if (!taskId) return;
    const controller = new AbortController();
    const entry: RunningTask = { taskId, controller, done: Promise.resolve() };
    this.running.set(deviceId, entry);
    entry.done = this.execute(taskId, controller.signal)
      .catch((error: unknown) => {
        this.options.logger?.warn({ taskId, err: error }, 'task ended with an unexpected error');
      })
      .finally(() => {
        this.flows.delete(taskId);
        this.running.delete(deviceId);
        this.pump(deviceId);
      });
  }

  private async execute(taskId: string, signal: AbortSignal): Promise<void> {
    const task = this.store.get(taskId);
    // Only a queued task this process still owns (a peer may have adopted it while this one hung).
    if (!task || !this.store.startRun(taskId, this.now())) return;
    this.options.logger?.info({ taskId, deviceId: task.deviceId }, 'task started');
    const records = this.options.keepTypedText ? AS_TYPED : new TypedTextRedactor();
    let outcome: AgentOutcome;
    try {
      // The device is not looked up again here: the task's first operation finds it gone (device_error).
      outcome = await runAgent({
        task: { ...task, flow: this.flows.get(taskId)?.flow },
        healer: this.flows.get(taskId)?.healer,
        planner: this.options.planners.get(task.planner),
        device: {
          deviceId: task.deviceId,
          run: (operation, args, options) => this.options.devices.run(task.deviceId, operation, args, options),
          isReadOnly: (operation) => this.options.devices.isReadOnly(operation),
          observes: (operation) => this.options.devices.observes(operation),
        },
        cancelSignal: signal,
        cancelRequested: () => this.store.isCancelRequested(taskId),
        onStep: (step, screenshot) => this.saveStep(taskId, step, screenshot, records),
        stepScreenshots: this.options.screenshots?.enabled ?? true,
        ...this.options.agent,
      });
    } catch (error) {
      const pub = toPublicError(error);
      outcome = { status: 'failed', error: { code: pub.code, message: pub.message, reason: 'planner_error' } };
    }
    if (this.closed && !this.storeOpen()) return;
    this.store.update(taskId, {
      status: outcome.status,
      finishedAt: this.now(),
      result: outcome.status === 'succeeded' ? records.text(outcome.result) : undefined,
      error: outcome.status === 'failed' ? { ...outcome.error, message: records.text(outcome.error.message) } : undefined,
      usage: outcome.usage,
      suggestedPatch: outcome.status === 'cancelled' ? undefined : outcome.suggestedPatch,
    });
    this.options.logger?.info({ taskId, status: outcome.status, reason: outcome.status === 'failed' ? outcome.error.reason : undefined }, 'task finished');
    this.notifySettled(this.get(taskId));
  }

  /** The one place steps are recorded: typed text is redacted here unless `keepTypedText`. */
  private saveStep(taskId: string, step: TaskStep, screenshot: Buffer | undefined, records: TypedTextFilter): void {
    if (screenshot) {
      const ref = `step-${String(step.index).padStart(3, '0')}.jpg`;
      try {
        const evicted = this.screenshots.save(taskId, ref, screenshot);
        step.screenshotRef = ref;
        for (const gone of evicted) {
          if (gone.taskId === taskId && gone.ref === ref) step.screenshotRef = undefined;
          else this.store.setStepScreenshot(gone.taskId, stepIndexOf(gone.ref), undefined);
        }
      } catch (error) {
        this.options.logger?.warn({ taskId, err: error }, 'could not keep a step screenshot');
      }
    }
    this.store.appendStep(taskId, records.step(step));
  }

  /**
   * Deletes the finished tasks the retention rule no longer keeps, with their steps and screenshots (at most
   * PRUNE_BATCH per call; the next call goes on). Runs after each task ends and every minute; returns their ids.
   */
  prune(): string[] {
    this.prunedAt = this.lease.now();
    const maxAgeMs = this.options.retention?.maxAgeMs ?? TASK_RETENTION_DEFAULTS.maxAgeMs;
    const maxFinished = this.options.retention?.maxFinished ?? TASK_RETENTION_DEFAULTS.maxFinished;
    const pruned = this.store.pruneFinished({ finishedBefore: new Date(this.lease.now() - maxAgeMs).toISOString(), keepNewest: maxFinished, limit: PRUNE_BATCH });
    for (const taskId of pruned) this.screenshots.removeTask(taskId);
    if (pruned.length > 0) this.options.logger?.info({ tasks: pruned.length }, 'finished tasks past their retention deleted');
    return pruned;
  }

  /** Timestamps on the lease's clock (injectable for tests). */
  private now(): string {
    return new Date(this.lease.now()).toISOString();
  }

  private notifySettled(task: Task): void {
    if (FINAL_STATUSES.has(task.status)) this.pruneQuietly();
    const listeners = this.settledListeners.get(task.id);
    this.settledListeners.delete(task.id);
    for (const listener of listeners ?? []) listener(task);
  }

  private pruneQuietly(): void {
    try {
      this.prune();
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'deleting finished tasks past their retention failed');
    }
  }

  private storeOpen(): boolean {
    try {
      this.store.list({ limit: 1 });
      return true;
    } catch {
      return false;
    }
  }

  private checkId(taskId: string): string {
    const parsed = taskIdSchema.safeParse(taskId);
    if (!parsed.success) throw invalidInput(parsed.error.issues, 'task id');
    return parsed.data;
  }

  private assertQueueRoom(deviceId: string): void {
    const limit = this.options.maxQueuedPerDevice ?? DEFAULT_MAX_QUEUED_PER_DEVICE;
    if ((this.waiting.get(deviceId)?.length ?? 0) < limit) return;
    throw new ApexError('device_busy', `Device ${deviceId} already has ${limit} queued tasks, the most it takes.`, {
      hint: 'Wait for a queued task to start or cancel one (list_tasks with status "queued"), then try again.',
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new ApexError('internal', 'The task service is shutting down.', { retryable: true });
  }
}

function notFound(taskId: string): ApexError {
  return new ApexError('task_not_found', `No task with id "${taskId}".`, { hint: 'Call list_tasks to see the task ids.' });
}

function stepIndexOf(ref: string): number {
  return Number(/(\d+)/.exec(ref)?.[1] ?? -1);
}


