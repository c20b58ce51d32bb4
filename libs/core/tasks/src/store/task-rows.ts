import type { Selector } from '../flows/flow-schema';
import type { TaskPatch } from './task-store';
import type { FlowPatch, Task, TaskAnswer, TaskError, TaskRecording, TaskStatus, TaskStep, TaskSummary, TaskUsage } from '../model/task';

/** The statuses a task never leaves, as SQL (both stores). */
export const FINISHED_SQL = `'succeeded', 'failed', 'cancelled'`;

/** A task and a step as both stores keep them (the same columns in SQLite and PostgreSQL). */
export interface TaskRow {
  id: string;
  device_id: string;
  goal: string;
  status: TaskStatus;
  planner: string;
  max_steps: number;
  timeout_ms: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  result: string | null;
  error_json: string | null;
  usage_json: string | null;
  patch_json: string | null;
  answer_json: string | null;
  /** Absent in a row read before the column was added. */
  recording_json?: string | null;
  /** PostgreSQL only: the task asked to be recorded. */
  record?: boolean | null;
  /** A COUNT: a string from PostgreSQL (bigint). */
  step_count?: number | string;
}

export interface StepRow {
  idx: number;
  observation: string;
  operation: string;
  arguments_json: string;
  outcome_json: string;
  duration_ms: number;
  screenshot_ref: string | null;
  target_json: string | null;
}

/** The columns a patch changes, with their stored values (the same in both stores); `from` is a guard, not a column. */
export function patchColumns(patch: TaskPatch): Array<[column: string, value: unknown]> {
  const columns: Array<[string, unknown]> = [];
  if (patch.status !== undefined) columns.push(['status', patch.status]);
  if (patch.startedAt !== undefined) columns.push(['started_at', patch.startedAt]);
  if (patch.finishedAt !== undefined) columns.push(['finished_at', patch.finishedAt]);
  if (patch.result !== undefined) columns.push(['result', patch.result]);
  if (patch.error !== undefined) columns.push(['error_json', JSON.stringify(patch.error)]);
  if (patch.usage !== undefined) columns.push(['usage_json', JSON.stringify(patch.usage)]);
  if (patch.suggestedPatch !== undefined) columns.push(['patch_json', JSON.stringify(patch.suggestedPatch)]);
  if (patch.answer !== undefined) columns.push(['answer_json', JSON.stringify(patch.answer)]);
  if (patch.recording !== undefined) columns.push(['recording_json', JSON.stringify(patch.recording)]);
  return columns;
}

export function taskFrom(row: TaskRow): Omit<Task, 'steps'> {
  const task: Omit<Task, 'steps'> = {
    id: row.id,
    deviceId: row.device_id,
    goal: row.goal,
    status: row.status,
    planner: row.planner,
    maxSteps: row.max_steps,
    timeoutMs: row.timeout_ms,
    createdAt: row.created_at,
  };
  if (row.started_at !== null) task.startedAt = row.started_at;
  if (row.finished_at !== null) task.finishedAt = row.finished_at;
  if (row.result !== null) task.result = row.result;
  if (row.error_json !== null) task.error = JSON.parse(row.error_json) as TaskError;
  if (row.usage_json !== null) task.usage = JSON.parse(row.usage_json) as TaskUsage;
  if (row.patch_json) task.suggestedPatch = JSON.parse(row.patch_json) as FlowPatch[];
  if (row.answer_json) task.answer = JSON.parse(row.answer_json) as TaskAnswer;
  if (row.recording_json) task.recording = JSON.parse(row.recording_json) as TaskRecording;
  if (row.record) task.record = true;
  return task;
}

export function summaryFrom(row: TaskRow): TaskSummary {
  return { ...taskFrom(row), stepCount: Number(row.step_count ?? 0) };
}

export function stepFrom(row: StepRow): TaskStep {
  const step: TaskStep = {
    index: row.idx,
    observation: row.observation,
    action: { operation: row.operation, arguments: JSON.parse(row.arguments_json) as Record<string, unknown> },
    outcome: JSON.parse(row.outcome_json) as TaskStep['outcome'],
    durationMs: row.duration_ms,
  };
  if (row.screenshot_ref !== null) step.screenshotRef = row.screenshot_ref;
  if (row.target_json) step.target = JSON.parse(row.target_json) as Selector;
  return step;
}
