import type { ErrorCode } from '@apex/errors';
import type { Selector } from '../flows/flow-schema';

export const TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Statuses a task never leaves. */
export const FINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['succeeded', 'failed', 'cancelled']);

/** Why a task did not succeed, beyond its error code. */
export const FAILURE_REASONS = [
  'step_limit',
  'timeout',
  'infeasible',
  'interrupted',
  'loop',
  'target_not_found',
  'device_error',
  'planner_error',
  'cancelled',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export interface TaskError {
  code: ErrorCode;
  message: string;
  reason: FailureReason;
  /** The step (1-based) whose kept screenshot shows the screen the task failed on. */
  screenshotStep?: number;
  /** The device's log of the last 30 s before it failed (typed text redacted), where the device has one. */
  logs?: TaskLogLine[];
  /** The screen recording of the task (`record: true`): what the device showed until it failed. */
  recording?: { id: string; url: string };
}

/** The screen recording a task asked for (`record: true`), kept with its recordings; `url` is where REST serves it. */
export interface TaskRecording {
  id: string;
  url: string;
  /** Video length. */
  seconds: number;
}

/** One line of a failed task's log excerpt. */
export interface TaskLogLine {
  time: string;
  level: string;
  process: string;
  message: string;
}

/** A failed task keeps the device's log of this long before it failed, at most this many lines (the newest). */
export const FAILURE_LOG_WINDOW_MS = 30_000;
export const FAILURE_LOG_MAX_LINES = 100;

/** Tokens a model spent on the task (LLM planners only). */
export interface TaskUsage {
  inputTokens: number;
  outputTokens: number;
}

/** One operation from the catalog, as the planner chose it (the device argument is implied by the task). */
export interface StepAction {
  operation: string;
  arguments: Record<string, unknown>;
}

export const STEP_OUTCOMES = ['ok', 'unexpected', 'error', 'cancelled'] as const;
export type StepOutcomeStatus = (typeof STEP_OUTCOMES)[number];

export interface StepOutcome {
  status: StepOutcomeStatus;
  /** A short human/model-readable account: what changed, or what went wrong. */
  detail: string;
  /** The error code when the operation failed. */
  code?: ErrorCode;
  /** The screen took more than one look to settle after the action, until this text appeared (export waits for it). */
  waitedFor?: string;
}

export interface TaskStep {
  /** 0-based, in order of execution. */
  index: number;
  /** A short account of the screen the action was decided on. */
  observation: string;
  action: StepAction;
  outcome: StepOutcome;
  durationMs: number;
  /** Name of the screenshot file kept for this step (relative to the task's screenshot folder), while retained. */
  screenshotRef?: string;
  /** The element the action touched, as a flow selector that picks it out on that screen (for export). */
  target?: Selector;
}

/** A flow step a planner healed (`heal: agent`): the change that lets the next run pass without healing. */
export interface FlowPatch {
  /** The step's number in the flow, as written (1-based). */
  step: number;
  /** The step as written, and as the planner's action names it (YAML). */
  was: string;
  now: string;
}

/** What a question goal was answered with, and where it was read. */
export interface TaskAnswer {
  /** What was asked about ("iOS version", "Wi-Fi"). */
  subject: string;
  value: string | number | boolean;
  /** Where the value was read: the device's status, or the screen. */
  source: 'device' | 'screen';
}

export interface Task {
  id: string;
  deviceId: string;
  goal: string;
  status: TaskStatus;
  planner: string;
  maxSteps: number;
  timeoutMs: number;
  /** ISO 8601 timestamps. */
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  steps: TaskStep[];
  /** A short answer or summary once the task succeeded. */
  result?: string;
  /** A question's answer as a value, when the goal asked one ("is Wi-Fi on?" → true). */
  answer?: TaskAnswer;
  error?: TaskError;
  usage?: TaskUsage;
  /** A flow task's healed steps, as changes to make to the flow. */
  suggestedPatch?: FlowPatch[];
  /** The screen recording of the run, when the task asked for one (`record: true`), whatever its end. */
  recording?: TaskRecording;
  /**
   * The task asked to be recorded (`record: true`): kept by a shared store, so that the node that runs it
   * records it wherever it was posted. Not shown to clients (`recording` is).
   */
  record?: boolean;
}

/** A task without its step log, as listed. */
export type TaskSummary = Omit<Task, 'steps'> & { stepCount: number };

export const TASK_LIMITS = {
  goalMaxChars: 2_000,
  maxStepsMin: 1,
  maxStepsMax: 100,
  defaultMaxSteps: 20,
  defaultTimeoutMs: 5 * 60_000,
  timeoutMinMs: 1_000,
  timeoutMaxMs: 60 * 60_000,
} as const;
