import { ApexError } from '@apex/errors';
import type { TaskLogger } from './task-service';

interface RunningTask {
  taskId: string;
  controller: AbortController;
  done: Promise<void>;
}

export interface TaskSchedulerOptions {
  /** Most tasks waiting per device; a start beyond it is refused with `device_busy`. */
  maxQueuedPerDevice: number;
  /** Runs one task; `signal` aborts to stop it at its next step boundary. */
  run(taskId: string, signal: AbortSignal): Promise<void>;
  /** Hears that a task's run is over (however it ended). */
  onEnd(taskId: string): void;
  logger?: TaskLogger;
}

/** Runs tasks one at a time per device, the rest waiting in order (devices in parallel). */
export class TaskScheduler {
  private readonly waiting = new Map<string, string[]>();
  private readonly running = new Map<string, RunningTask>();
  private stopped = false;

  constructor(private readonly options: TaskSchedulerOptions) {}

  /** `device_busy` when the device's queue is full. */
  assertRoom(deviceId: string): void {
    if ((this.waiting.get(deviceId)?.length ?? 0) < this.options.maxQueuedPerDevice) return;
    throw this.queueFull(deviceId);
  }

  /** The refusal of a task for a device whose queue is full (here, or counted over a cluster by its store). */
  queueFull(deviceId: string): ApexError {
    const limit = this.options.maxQueuedPerDevice;
    return new ApexError('device_busy', `Device ${deviceId} already has ${limit} queued tasks, the most it takes.`, {
      hint: 'Wait for a queued task to start or cancel one (list_tasks with status "queued"), then try again.',
    });
  }

  /** Queues the task on its device; it starts once the device's earlier tasks have ended. */
  enqueue(deviceId: string, taskId: string): void {
    const queue = this.waiting.get(deviceId) ?? [];
    // Already waiting or running here: queued once.
    if (queue.includes(taskId) || this.running.get(deviceId)?.taskId === taskId) return;
    queue.push(taskId);
    this.waiting.set(deviceId, queue);
    queueMicrotask(() => this.pump(deviceId));
  }

  /** Takes a waiting task out of its device's queue. */
  withdraw(deviceId: string, taskId: string): void {
    const queue = this.waiting.get(deviceId) ?? [];
    const at = queue.indexOf(taskId);
    if (at >= 0) queue.splice(at, 1);
  }

  /** Aborts the task's run when it is the one running on its device here. */
  abort(deviceId: string, taskId: string, reason: unknown): void {
    const running = this.running.get(deviceId);
    if (running?.taskId === taskId) running.controller.abort(reason);
  }

  /** Starts nothing more and aborts every running task with `reason`; resolves when their runs are over. */
  async stop(reason: unknown): Promise<void> {
    this.stopped = true;
    const running = [...this.running.values()];
    for (const task of running) task.controller.abort(reason);
    await Promise.all(running.map((task) => task.done));
  }

  /** Starts the device's next queued task when none runs. */
  private pump(deviceId: string): void {
    if (this.stopped || this.running.has(deviceId)) return;
    const queue = this.waiting.get(deviceId);
    const taskId = queue?.shift();
    if (!taskId) return;
    const controller = new AbortController();
    const entry: RunningTask = { taskId, controller, done: Promise.resolve() };
    this.running.set(deviceId, entry);
    entry.done = this.options
      .run(taskId, controller.signal)
      .catch((error: unknown) => {
        this.options.logger?.warn({ taskId, err: error }, 'task ended with an unexpected error');
      })
      .finally(() => {
        this.options.onEnd(taskId);
        this.running.delete(deviceId);
        this.pump(deviceId);
      });
  }
}
