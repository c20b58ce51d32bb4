import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Task, TaskError, TaskStatus, TaskStep, TaskSummary, TaskUsage } from '../model/task';
import { createPrivateDir, makeFilePrivate, PRIVATE_FILE_MODE } from './private-files';
import { currentOwner, ownerAlive } from './process-owner';
import type { TaskFilter, TaskPatch, TaskStore } from './task-store';

export const DATABASE_FILE = 'tasks.db';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  device_id TEXT NOT NULL,
  goal TEXT NOT NULL,
  status TEXT NOT NULL,
  planner TEXT NOT NULL,
  max_steps INTEGER NOT NULL,
  timeout_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  result TEXT,
  error_json TEXT,
  usage_json TEXT,
  owner TEXT NOT NULL DEFAULT '',
  cancel_requested INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tasks_status ON tasks (status, seq);
CREATE INDEX IF NOT EXISTS tasks_device ON tasks (device_id, seq);
CREATE TABLE IF NOT EXISTS steps (
  task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  observation TEXT NOT NULL,
  operation TEXT NOT NULL,
  arguments_json TEXT NOT NULL,
  outcome_json TEXT NOT NULL,
  duration_ms REAL NOT NULL,
  screenshot_ref TEXT,
  PRIMARY KEY (task_id, idx)
);
`;

interface TaskRow {
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
  step_count?: number;
}

interface StepRow {
  idx: number;
  observation: string;
  operation: string;
  arguments_json: string;
  outcome_json: string;
  duration_ms: number;
  screenshot_ref: string | null;
}

export interface SqliteTaskStoreOptions {
  /** The process that runs the tasks it creates (default this one, `pid@host`). */
  owner?: string;
  /** Whether a task's owning process still runs (default: a signal-0 probe of its pid on this host). */
  isAlive?: (owner: string) => boolean;
}

/** Tasks and their steps in one SQLite file (WAL) in the data directory. Every write commits at once. */
export class SqliteTaskStore implements TaskStore {
  private readonly db: Database.Database;
  private readonly owner: string;
  private readonly isAlive: (owner: string) => boolean;

  constructor(dataDir: string, options: SqliteTaskStoreOptions = {}) {
    this.owner = options.owner ?? currentOwner();
    this.isAlive = options.isAlive ?? ownerAlive;
    createPrivateDir(dataDir);
    const file = join(dataDir, DATABASE_FILE);
    // Created owner-only before SQLite opens it: SQLite gives the -wal and -shm files the database's mode.
    closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
    makeFilePrivate(file);
    this.db = new Database(file, { timeout: 5_000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(SCHEMA);
    // Journal files an older version left with a wider mode.
    for (const journal of [`${file}-wal`, `${file}-shm`]) if (existsSync(journal)) makeFilePrivate(journal);
  }

  insert(task: Task): void {
    this.db
      .prepare(
        `INSERT INTO tasks (id, device_id, goal, status, planner, max_steps, timeout_ms, created_at, started_at, finished_at, result, error_json, usage_json, owner)
         VALUES (@id, @deviceId, @goal, @status, @planner, @maxSteps, @timeoutMs, @createdAt, @startedAt, @finishedAt, @result, @error, @usage, @owner)`,
      )
      .run({
        id: task.id,
        deviceId: task.deviceId,
        goal: task.goal,
        status: task.status,
        planner: task.planner,
        maxSteps: task.maxSteps,
        timeoutMs: task.timeoutMs,
        createdAt: task.createdAt,
        startedAt: task.startedAt ?? null,
        finishedAt: task.finishedAt ?? null,
        result: task.result ?? null,
        error: task.error ? JSON.stringify(task.error) : null,
        usage: task.usage ? JSON.stringify(task.usage) : null,
        owner: this.owner,
      });
  }

  update(id: string, patch: TaskPatch): void {
    const columns: string[] = [];
    const values: Record<string, unknown> = { id };
    const set = (column: string, value: unknown) => {
      columns.push(`${column} = @${column}`);
      values[column] = value;
    };
    if (patch.status !== undefined) set('status', patch.status);
    if (patch.startedAt !== undefined) set('started_at', patch.startedAt);
    if (patch.finishedAt !== undefined) set('finished_at', patch.finishedAt);
    if (patch.result !== undefined) set('result', patch.result);
    if (patch.error !== undefined) set('error_json', JSON.stringify(patch.error));
    if (patch.usage !== undefined) set('usage_json', JSON.stringify(patch.usage));
    if (columns.length === 0) return;
    this.db.prepare(`UPDATE tasks SET ${columns.join(', ')} WHERE id = @id`).run(values);
  }

  appendStep(taskId: string, step: TaskStep): void {
    this.db
      .prepare(
        `INSERT INTO steps (task_id, idx, observation, operation, arguments_json, outcome_json, duration_ms, screenshot_ref)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        taskId,
        step.index,
        step.observation,
        step.action.operation,
        JSON.stringify(step.action.arguments),
        JSON.stringify(step.outcome),
        step.durationMs,
        step.screenshotRef ?? null,
      );
  }

  setStepScreenshot(taskId: string, index: number, ref: string | undefined): void {
    this.db.prepare('UPDATE steps SET screenshot_ref = ? WHERE task_id = ? AND idx = ?').run(ref ?? null, taskId, index);
  }

  get(id: string): Task | undefined {
    const row = this.db.prepare('SELECT * FROM tasks WHERE id = ?').get(id) as TaskRow | undefined;
    if (!row) return undefined;
    const steps = this.db
      .prepare('SELECT * FROM steps WHERE task_id = ? ORDER BY idx')
      .all(id) as StepRow[];
    return { ...taskFrom(row), steps: steps.map(stepFrom) };
  }

  list(filter: TaskFilter = {}): TaskSummary[] {
    const where: string[] = [];
    const values: Record<string, unknown> = { limit: filter.limit ?? 100 };
    if (filter.status) {
      where.push('status = @status');
      values['status'] = filter.status;
    }
    if (filter.deviceId) {
      where.push('device_id = @deviceId');
      values['deviceId'] = filter.deviceId;
    }
    const rows = this.db
      .prepare(
        `SELECT t.*, (SELECT COUNT(*) FROM steps s WHERE s.task_id = t.id) AS step_count FROM tasks t
         ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT @limit`,
      )
      .all(values) as TaskRow[];
    return rows.map(summaryFrom);
  }

  queued(): TaskSummary[] {
    const rows = this.db
      .prepare(
        `SELECT t.*, 0 AS step_count FROM tasks t WHERE status = 'queued' ORDER BY seq ASC`,
      )
      .all() as TaskRow[];
    return rows.map(summaryFrom);
  }

  failInterrupted(now: string): string[] {
    const error: TaskError = {
      code: 'internal',
      message: 'The task was interrupted: the Apex process running it stopped.',
      reason: 'interrupted',
    };
    return this.db.transaction(() => {
      const rows = this.db.prepare(`SELECT id, owner FROM tasks WHERE status = 'running' ORDER BY seq`).all() as { id: string; owner: string }[];
      const gone = rows.filter((row) => row.owner !== this.owner && !this.isAlive(row.owner)).map((row) => row.id);
      const mark = this.db.prepare(`UPDATE tasks SET status = 'failed', finished_at = ?, error_json = ? WHERE id = ? AND status = 'running'`);
      for (const id of gone) mark.run(now, JSON.stringify(error), id);
      return gone;
    }).immediate();
  }

  requestCancel(id: string): void {
    this.db.prepare('UPDATE tasks SET cancel_requested = 1 WHERE id = ?').run(id);
  }

  isCancelRequested(id: string): boolean {
    const row = this.db.prepare('SELECT cancel_requested FROM tasks WHERE id = ?').get(id) as { cancel_requested: number } | undefined;
    return row?.cancel_requested === 1;
  }

  adoptQueued(): TaskSummary[] {
    return this.db.transaction(() => {
      const rows = this.db.prepare(`SELECT id, owner FROM tasks WHERE status = 'queued' ORDER BY seq`).all() as { id: string; owner: string }[];
      const adopt = this.db.prepare(`UPDATE tasks SET owner = ? WHERE id = ?`);
      for (const row of rows) if (row.owner !== this.owner && !this.isAlive(row.owner)) adopt.run(this.owner, row.id);
      const mine = this.db
        .prepare(`SELECT t.*, 0 AS step_count FROM tasks t WHERE status = 'queued' AND owner = ? ORDER BY seq ASC`)
        .all(this.owner) as TaskRow[];
      return mine.map(summaryFrom);
    }).immediate();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function taskFrom(row: TaskRow): Omit<Task, 'steps'> {
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
  return task;
}

function summaryFrom(row: TaskRow): TaskSummary {
  return { ...taskFrom(row), stepCount: row.step_count ?? 0 };
}

function stepFrom(row: StepRow): TaskStep {
  const step: TaskStep = {
    index: row.idx,
    observation: row.observation,
    action: { operation: row.operation, arguments: JSON.parse(row.arguments_json) as Record<string, unknown> },
    outcome: JSON.parse(row.outcome_json) as TaskStep['outcome'],
    durationMs: row.duration_ms,
  };
  if (row.screenshot_ref !== null) step.screenshotRef = row.screenshot_ref;
  return step;
}
