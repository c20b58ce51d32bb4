import type { AgentOutcome } from '../agent/agent-loop';
import type { TaskRecording, TaskStep } from '../model/task';
import type { StepImageStore } from '../store/step-images';
import type { TaskStore } from '../store/task-store';
import { keepStepScreenshot } from './step-screenshots';
import type { TaskLogger } from './task-service';
import type { TypedTextFilter } from './typed-text-redactor';

/**
 * Where one task's steps and its end are written: the one place they are recorded, typed text redacted here
 * (unless kept as typed); each step's screenshot kept in the image store.
 */
export class StepRecorder {
  constructor(
    private readonly taskId: string,
    private readonly store: TaskStore,
    private readonly images: StepImageStore,
    private readonly records: TypedTextFilter,
    private readonly logger?: TaskLogger,
  ) {}

  async save(step: TaskStep, screenshot: Buffer | undefined): Promise<void> {
    if (screenshot) {
      try {
        await keepStepScreenshot(this.images, this.store, this.taskId, step, screenshot);
      } catch (error) {
        this.logger?.warn({ taskId: this.taskId, err: error }, 'could not keep a step screenshot');
      }
    }
    await this.store.appendStep(this.taskId, this.records.step(step));
  }

  /** The task's end as the agent loop reported it, at `finishedAt`, with its screen recording if it had one. */
  async finish(outcome: AgentOutcome, finishedAt: string, recording?: TaskRecording): Promise<void> {
    await this.store.update(this.taskId, {
      status: outcome.status,
      finishedAt,
      result: outcome.status === 'succeeded' ? this.records.text(outcome.result) : undefined,
      answer: outcome.status === 'succeeded' ? outcome.answer : undefined,
      error:
        outcome.status === 'failed'
          ? {
              ...outcome.error,
              message: this.records.text(outcome.error.message),
              ...(outcome.error.logs ? { logs: outcome.error.logs.map((line) => ({ ...line, message: this.records.text(line.message) })) } : {}),
            }
          : undefined,
      usage: outcome.usage,
      suggestedPatch: outcome.status === 'cancelled' ? undefined : outcome.suggestedPatch,
      recording,
      from: 'running',
    });
  }
}
