import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ApexError, invalidArgument, invalidInput, toPublicError } from '@apex/errors';
import { resolveLease, type Lease, type LeaseOptions } from '@apex/hub';
import type { ImageAttachment, StepScreenshots } from '@apex/capability';
import { runAgent, SHUTDOWN, type AgentOptions, type AgentOutcome } from '../agent/agent-loop';
import { FAILURE_LOG_MAX_LINES, FAILURE_LOG_WINDOW_MS, FINAL_STATUSES, TASK_LIMITS, type Task, type TaskLogLine, type TaskRecording, type TaskSummary } from '../model/task';
import { taskIdSchema } from '../model/schemas';
import { FLOW_PLANNER_NAME } from '../flows/flow-planner';
import type { Flow } from '../flows/flow-schema';
import type { Planner } from '../agent/planner';
import type { PlannerRegistry } from '../planners/planner-registry';
import { ScreenshotStore, type ScreenshotRetention } from '../store/screenshot-store';
import { fileStepImages, type StepImageStore } from '../store/step-images';
import { SqliteTaskStore } from '../store/sqlite-task-store';
import type { TaskFilter, TaskStore } from '../store/task-store';
import { LeaseKeeper } from './lease-keeper';
import { readStepScreenshot, SCREENSHOTS_DIR } from './step-screenshots';
import { StepRecorder } from './step-recorder';
import type { TaskDevices } from './task-devices';
import { TaskPruner, type TaskRetention } from './task-retention';
import { TaskScheduler } from './task-scheduler';
import { AS_TYPED, TypedTextRedactor } from './typed-text-redactor';

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
  /** Record the device's screen while the task runs (needs `TaskServiceOptions.recorder`). */
  record?: boolean;
}

/**
 * Records a device's screen for a task that asks (`record: true`): the runtime's screen recordings, passed in
 * (the task service knows nothing of encoders). `stop` answers once the file is complete.
 */
export interface TaskScreenRecorder {
  start(deviceId: string, maxSeconds: number): Promise<void>;
  stop(deviceId: string): Promise<TaskRecording>;
}

/** Structural subset of a pino logger. */
export interface TaskLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface TaskServiceOptions {
  /** Where tasks.db and the step screenshots live (unless `store` says otherwise). */
  dataDir: string;
  /**
   * Another task store and its image store (PostgreSQL: many nodes share one queue), opened with this
   * service's lease. Default: SQLite and screenshot files in `dataDir`.
   */
  store?: (lease: Lease, retention: ScreenshotRetention) => OpenedTaskStore;
  devices: TaskDevices;
  planners: PlannerRegistry;
  /** Defaults for tasks that do not say. */
  defaultMaxSteps?: number;
  defaultTimeoutMs?: number;
  /** Step screenshots: on by default, kept under a retention limit. */
  screenshots?: ScreenshotRetention & { enabled?: boolean };
  /** Screen recording for tasks that ask for it; without it `record: true` is unsupported_operation. */
  recorder?: TaskScreenRecorder;
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

/** A task store as `TaskServiceOptions.store` opens it. */
export interface OpenedTaskStore {
  tasks: TaskStore;
  images: StepImageStore;
  /** Look for tasks posted on other nodes at least this often. */
  pollMs?: number;
  /** Calls `wake` whenever another node announces a task; returns the unsubscribe. */
  subscribe?(wake: () => void): () => void;
}

/** Default of `maxQueuedPerDevice`. */
const DEFAULT_MAX_QUEUED_PER_DEVICE = 50;

/**
 * Agent tasks: created queued, run one at a time per device (the rest wait in order: task-scheduler),
 * persisted as they go (step-recorder, step-screenshots). Processes sharing a data directory each run their
 * own tasks and renew a lease in the store while they live (lease-keeper): at start-up and whenever another
 * process's lease runs out, the `running` tasks of a process whose lease has expired become `failed`
 * (`interrupted`), and its queued tasks are adopted and run here. Finished tasks go after their retention
 * (task-retention).
 */
export class TaskService implements StepScreenshots {
  readonly store: TaskStore;
  readonly images: StepImageStore;
  /** The screenshot files, when screenshots are kept as files (the default store). */
  readonly screenshots?: ScreenshotStore;
  private readonly scheduler: TaskScheduler;
  private readonly pruner: TaskPruner;
  private readonly leaseKeeper: LeaseKeeper;
  /**
   * The flows of this process's flow tasks, until they end. Kept in memory only: a flow holds the values of its
   * variables (passwords too), which no file should. A flow task adopted after a restart fails saying so.
   */
  private readonly flows = new Map<string, { flow: Flow; healer?: Planner }>();
  /**
   * The tasks of this process that asked to be recorded, until they end (a task adopted after a restart is not,
   * unless a shared store kept its `record`: then the node that runs it records it).
   */
  private readonly recorded = new Set<string>();
  private readonly settledListeners = new Map<string, Array<(task: Task) => void>>();
  private readonly lease: Lease;
  private readonly maxQueuedPerDevice: number;
  private readonly unsubscribe?: () => void;
  private closed = false;

  constructor(private readonly options: TaskServiceOptions) {
    this.lease = resolveLease(options.lease);
    this.maxQueuedPerDevice = options.maxQueuedPerDevice ?? DEFAULT_MAX_QUEUED_PER_DEVICE;
    let opened: OpenedTaskStore | undefined;
    if (options.store) {
      opened = options.store(this.lease, options.screenshots ?? {});
      this.store = opened.tasks;
      this.images = opened.images;
    } else {
      this.store = new SqliteTaskStore(options.dataDir, { lease: this.lease });
      this.screenshots = new ScreenshotStore(join(options.dataDir, SCREENSHOTS_DIR), options.screenshots);
      this.images = fileStepImages(this.screenshots);
    }
    this.scheduler = new TaskScheduler({
      maxQueuedPerDevice: this.maxQueuedPerDevice,
      run: (taskId, signal) => this.execute(taskId, signal),
      onEnd: (taskId) => {
        this.flows.delete(taskId);
        this.recorded.delete(taskId);
      },
      logger: options.logger,
    });
    this.pruner = new TaskPruner(this.store, this.images, this.lease, options.retention, options.logger);
    this.leaseKeeper = new LeaseKeeper({
      store: this.store,
      lease: this.lease,
      adopt: (task) => this.scheduler.enqueue(task.deviceId, task.id),
      onWake: () => this.pruner.pruneIfDue(),
      pollMs: opened?.pollMs,
      logger: options.logger,
    });
    const keeper = this.leaseKeeper;
    this.unsubscribe = opened?.subscribe?.(() => keeper.wake());
  }

  /**
   * Creates a task and queues it on its device. The input's bounds were checked and its device resolved by
   * the start_task operation's pipeline (its schema is the only one); what only the service knows — the
   * planner — is checked here. A refused task creates nothing.
   */
  async start(input: StartTaskRequest): Promise<Task> {
    this.assertOpen();
    await this.leaseKeeper.started;
    const { deviceId, goal, maxSteps, timeoutMs } = input;
    const planner = this.options.planners.get(input.flow ? FLOW_PLANNER_NAME : input.planner);
    if (planner.name === FLOW_PLANNER_NAME && !input.flow) {
      throw invalidArgument('The flow planner replays flows: run one with run_flow.', [{ path: 'planner', message: 'flow is only for run_flow' }]);
    }
    const healer = input.flow?.heal === 'agent' ? this.options.planners.get(input.healPlanner) : undefined;
    if (healer?.name === FLOW_PLANNER_NAME) {
      throw invalidArgument('A flow is healed by a planner that can think: offline or a model.', [{ path: 'healPlanner', message: 'must not be flow' }]);
    }
    if (input.record && !this.options.recorder) {
      throw new ApexError('unsupported_operation', 'This server cannot record the screen, so it cannot record a task.', {
        hint: 'Start the task without record, or through a server with screen recording (the apex runtime).',
      });
    }
    this.scheduler.assertRoom(deviceId);
    // A flow's variables (passwords too) stay in this process's memory: it runs here or nowhere.
    if (input.flow && !(await this.store.runsHere(deviceId))) {
      throw new ApexError('unsupported_operation', `Device ${deviceId} is held by another Apex node; a flow runs on the node that holds its device.`, {
        hint: 'Post the flow to the node that holds the device (list_devices names it), or use start_task with a goal.',
      });
    }
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
      // Kept by a shared store, so that the node that holds the device records it.
      ...(input.record ? { record: true } : {}),
    };
    if (input.flow) this.flows.set(task.id, { flow: input.flow, healer });
    if (input.record) this.recorded.add(task.id);
    let ours: boolean | 'full';
    try {
      // A shared store counts the device's queue over every node, with the same limit.
      ours = await this.store.insert(task, { maxQueued: this.maxQueuedPerDevice });
      if (ours === 'full') throw this.scheduler.queueFull(deviceId);
    } catch (error) {
      this.flows.delete(task.id);
      this.recorded.delete(task.id);
      throw error;
    }
    this.options.logger?.info({ taskId: task.id, deviceId, planner: task.planner }, 'task queued');
    if (ours) this.scheduler.enqueue(deviceId, task.id);
    else {
      this.flows.delete(task.id);
      this.recorded.delete(task.id);
    }
    return task;
  }

  /** The task with its steps (`task_not_found` otherwise). `taskId` was checked by the operation's schema. */
  async get(taskId: string): Promise<Task> {
    await this.leaseKeeper.started;
    const task = await this.store.get(taskId);
    if (!task) throw notFound(taskId);
    return task;
  }

  /** Newest first. */
  async list(filter: TaskFilter = {}): Promise<TaskSummary[]> {
    await this.leaseKeeper.started;
    return this.store.list(filter);
  }

  /**
   * A queued task is cancelled at once; a running one at its next step boundary (the returned task is still
   * `running` then: poll `get`). Cancelling a finished task changes nothing.
   */
  async cancel(taskId: string): Promise<Task> {
    let task = await this.get(taskId);
    if (FINAL_STATUSES.has(task.status)) return task;
    if (task.status === 'queued') {
      await this.store.update(task.id, { status: 'cancelled', finishedAt: this.now(), from: 'queued' });
      task = await this.get(task.id);
      if (task.status !== 'running') {
        this.scheduler.withdraw(task.deviceId, task.id);
        this.flows.delete(task.id);
        this.recorded.delete(task.id);
        this.options.logger?.info({ taskId: task.id }, 'queued task cancelled');
        this.notifySettled(task);
        return task;
      }
      // It started meanwhile (on another node): it is cancelled as a running task.
    }
    // Recorded in the store, so that the process running it sees it at its next step boundary even if that
    // is another process; when it is this one, the abort also stops a model request at once.
    await this.store.requestCancel(task.id);
    this.scheduler.abort(task.deviceId, task.id, 'cancel');
    return task;
  }

  /** Resolves once the task is succeeded, failed or cancelled. */
  async whenSettled(taskId: string): Promise<Task> {
    const task = await this.get(taskId);
    if (FINAL_STATUSES.has(task.status)) return task;
    return new Promise((resolve) => {
      const listeners = this.settledListeners.get(task.id) ?? [];
      listeners.push(resolve);
      this.settledListeners.set(task.id, listeners);
      // A task another node runs (a shared store) ends there: look at the store now and then.
      const look = setInterval(() => {
        void this.store.get(task.id).then(
          (now) => now && FINAL_STATUSES.has(now.status) && this.notifySettled(now),
          () => undefined,
        );
      }, this.lease.renewMs);
      look.unref();
      listeners.push(() => clearInterval(look));
    });
  }

  /**
   * The kept screenshot of step `step` (1-based). `invalid_argument` for a malformed id; `task_not_found`
   * when the task, the step or its screenshot is not there (retention removes the oldest).
   */
  async stepScreenshot(taskId: string, step: number): Promise<ImageAttachment> {
    // The one door to a task that is not an operation: its id comes straight from a path.
    return readStepScreenshot(this.images, await this.get(this.checkId(taskId)), step);
  }

  /** Absolute path of a step's screenshot file, while it is retained. */
  screenshotPath(taskId: string, ref: string): string {
    if (!this.screenshots) throw new ApexError('unsupported_operation', 'Step screenshots are kept in the task database, not as files.');
    return this.screenshots.pathOf(taskId, ref);
  }

  /**
   * Deletes the finished tasks the retention rule no longer keeps, with their steps and screenshots (a bounded
   * batch per call; the next call goes on). Runs after each task ends and every minute; returns their ids.
   */
  prune(): Promise<string[]> {
    return this.pruner.prune();
  }

  /**
   * Stops taking tasks, asks running ones to stop at their next step boundary (they end `failed`,
   * `interrupted`), waits for them a bounded time and closes the store. Queued tasks stay queued for the
   * next start. Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe?.();
    await this.leaseKeeper.stop();
    const grace = new Promise<void>((resolve) => setTimeout(resolve, this.options.closeGraceMs ?? 15_000).unref());
    await Promise.race([this.scheduler.stop(SHUTDOWN), grace]);
    await this.leaseKeeper.release();
    await this.store.close();
  }

  private async execute(taskId: string, signal: AbortSignal): Promise<void> {
    // Only a queued task this process still owns (a peer may have adopted it while this one hung).
    const claimed: { task?: Task } = {};
    await this.whileUnavailable(async () => {
      const found = await this.store.get(taskId);
      if (found && (await this.store.startRun(taskId, this.now()))) claimed.task = found;
    }, 'starting a task');
    const task = claimed.task;
    if (!task) return;
    this.options.logger?.info({ taskId, deviceId: task.deviceId }, 'task started');
    const recorder = new StepRecorder(taskId, this.store, this.images, this.options.keepTypedText ? AS_TYPED : new TypedTextRedactor(), this.options.logger);
    const recording = this.recorded.has(taskId) || task.record ? await this.startRecording(task) : false;
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
        // A store that cannot be reached for a moment does not stop the task (its step records wait for it).
        cancelRequested: () => this.store.isCancelRequested(taskId).catch(() => false),
        onStep: (step, screenshot) => this.whileUnavailable(() => recorder.save(step, screenshot), 'recording a step'),
        stepScreenshots: this.options.screenshots?.enabled ?? true,
        ...this.options.agent,
      });
    } catch (error) {
      const pub = toPublicError(error);
      outcome = { status: 'failed', error: { code: pub.code, message: pub.message, reason: 'planner_error' } };
    }
    const video = recording ? await this.stopRecording(task) : undefined;
    if (this.closed && !(await this.storeOpen())) return;
    if (outcome.status === 'failed' && !this.closed) {
      const logs = await this.failureLogs(task.deviceId);
      if (logs) outcome.error.logs = logs;
    }
    if (outcome.status === 'failed' && video) outcome.error.recording = { id: video.id, url: video.url };
    await this.whileUnavailable(() => recorder.finish(outcome, this.now(), video), 'recording the end of a task');
    this.options.logger?.info({ taskId, status: outcome.status, reason: outcome.status === 'failed' ? outcome.error.reason : undefined }, 'task finished');
    this.notifySettled(await this.get(taskId));
  }

  /**
   * Runs a write, trying again every renewal period while the store answers `unavailable` (a restarting
   * database), until it succeeds or the service closes.
   */
  private async whileUnavailable(write: () => Promise<void>, what: string): Promise<void> {
    for (;;) {
      try {
        return await write();
      } catch (error) {
        if (!(error instanceof ApexError && error.code === 'unavailable') || this.closed) throw error;
        this.options.logger?.warn({ err: error }, `${what} failed; trying again`);
        await new Promise((resolve) => setTimeout(resolve, this.lease.renewMs));
      }
    }
  }

  /**
   * Starts recording the task's device, for at most the task's timeout; false when it cannot (the device is
   * recorded already, it shows no screen): the task runs anyway, unrecorded, and says so in the log.
   */
  private async startRecording(task: Task): Promise<boolean> {
    try {
      await this.options.recorder?.start(task.deviceId, Math.ceil(task.timeoutMs / 1000));
      return true;
    } catch (error) {
      this.options.logger?.warn({ taskId: task.id, code: toPublicError(error).code }, 'the task could not be recorded; it runs unrecorded');
      return false;
    }
  }

  /** Ends the task's recording once its file is complete; undefined when it could not be completed. */
  private async stopRecording(task: Task): Promise<TaskRecording | undefined> {
    try {
      return await this.options.recorder?.stop(task.deviceId);
    } catch (error) {
      this.options.logger?.warn({ taskId: task.id, code: toPublicError(error).code }, 'the recording of the task could not be completed');
      return undefined;
    }
  }

  /**
   * The device's log of the last FAILURE_LOG_WINDOW_MS (its newest FAILURE_LOG_MAX_LINES lines), for a failed
   * task's error; undefined when the device has no log or cannot be read now (the failure stands without it).
   */
  private async failureLogs(deviceId: string): Promise<TaskLogLine[] | undefined> {
    try {
      const { output } = await this.options.devices.run(deviceId, 'get_logs', { since: FAILURE_LOG_WINDOW_MS, limit: FAILURE_LOG_MAX_LINES });
      return (output['entries'] as TaskLogLine[]).map(({ time, level, process, message }) => ({ time, level, process, message }));
    } catch (error) {
      this.options.logger?.info({ deviceId, code: toPublicError(error).code }, 'no log excerpt for the failed task');
      return undefined;
    }
  }

  /** Timestamps on the lease's clock (injectable for tests). */
  private now(): string {
    return new Date(this.lease.now()).toISOString();
  }

  private notifySettled(task: Task): void {
    if (FINAL_STATUSES.has(task.status)) void this.pruner.pruneQuietly();
    const listeners = this.settledListeners.get(task.id);
    this.settledListeners.delete(task.id);
    for (const listener of listeners ?? []) listener(task);
  }

  private async storeOpen(): Promise<boolean> {
    try {
      await this.store.list({ limit: 1 });
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

  private assertOpen(): void {
    if (this.closed) throw new ApexError('internal', 'The task service is shutting down.', { retryable: true });
  }
}

function notFound(taskId: string): ApexError {
  return new ApexError('task_not_found', `No task with id "${taskId}".`, { hint: 'Call list_tasks to see the task ids.' });
}
