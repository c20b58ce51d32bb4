import type Database from 'better-sqlite3';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { resolveLease, type Lease, type LeaseOptions } from '@apex/hub';
import type { Task, TaskError, TaskStep, TaskSummary } from '../model/task';
import { patchColumns, stepFrom, summaryFrom, taskFrom, type StepRow, type TaskRow } from './task-rows';
import { createPrivateDir, makeFilePrivate, PRIVATE_FILE_MODE } from './private-files';
import type { TaskFilter, TaskPatch, TaskStore } from './task-store';

export const DATABASE_FILE = 'tasks.db';

/** The statuses a task never leaves, as SQL. */
const FINISHED = `'succeeded', 'failed', 'cancelled'`;

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
  patch_json TEXT,
  answer_json TEXT,
  recording_json TEXT,
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
  target_json TEXT,
  PRIMARY KEY (task_id, idx)
);
CREATE TABLE IF NOT EXISTS leases (
  instance_id TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  since TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
`;

export interface SqliteTaskStoreOptions {
  /** This process as the owner of the tasks it creates, its lease period and clock (default: a new instance). */
  lease?: LeaseOptions;
}

/**
 * Tasks and their steps in one SQLite file (WAL) in the data directory. Every write commits at once. A task's
 * `owner` is the instance id of the process that runs it; that process keeps a row in `leases` whose
 * `expires_at` it pushes forward while it lives. A task whose owner has no unexpired lease belongs to nobody.
 */
export class SqliteTaskStore implements TaskStore {
  private readonly db: Database.Database;
  private readonly lease: Lease;
  private readonly owner: string;

  constructor(dataDir: string, options: SqliteTaskStoreOptions = {}) {
    this.lease = resolveLease(options.lease);
    this.owner = this.lease.instance.id;
    createPrivateDir(dataDir);
    const file = join(dataDir, DATABASE_FILE);
    // Created owner-only before SQLite opens it: SQLite gives the -wal and -shm files the database's mode.
    closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
    makeFilePrivate(file);
    // Required here, not at the top: `apex mcp` answers tools/list before any task store is opened.
    const SqliteDatabase = require('better-sqlite3') as typeof Database;
    this.db = new SqliteDatabase(file, { timeout: 5_000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(SCHEMA);
    addMissingColumns(this.db);
    // Journal files an older version left with a wider mode.
    for (const journal of [`${file}-wal`, `${file}-shm`]) if (existsSync(journal)) makeFilePrivate(journal);
  }

  async insert(task: Task): Promise<boolean> {
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
    return true;
  }

  async runsHere(): Promise<boolean> {
    return true;
  }

  async update(id: string, patch: TaskPatch): Promise<void> {
    const values: Record<string, unknown> = { id };
    const columns = patchColumns(patch).map(([column, value]) => {
      values[column] = value;
      return `${column} = @${column}`;
    });
    if (columns.length === 0) return;
    if (patch.from !== undefined) values['from'] = patch.from;
    this.db.prepare(`UPDATE tasks SET ${columns.join(', ')} WHERE id = @id${patch.from !== undefined ? ' AND status = @from' : ''}`).run(values);
  }

  async appendStep(taskId: string, step: TaskStep): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO steps (task_id, idx, observation, operation, arguments_json, outcome_json, duration_ms, screenshot_ref, target_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        step.target ? JSON.stringify(step.target) : null,
      );
  }

  async setStepScreenshot(taskId: string, index: number, ref: string | undefined): Promise<void> {
    this.db.prepare('UPDATE steps SET screenshot_ref = ? WHERE task_id = ? AND idx = ?').run(ref ?? null, taskId, index);
  }

  async get(id: string): Promise<Task | undefined> {
    const row = this.db.prepare('SELECT * FROM tasks WHERE id = ?').get(id) as TaskRow | undefined;
    if (!row) return undefined;
    const steps = this.db
      .prepare('SELECT * FROM steps WHERE task_id = ? ORDER BY idx')
      .all(id) as StepRow[];
    return { ...taskFrom(row), steps: steps.map(stepFrom) };
  }

  async list(filter: TaskFilter = {}): Promise<TaskSummary[]> {
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

  async queued(): Promise<TaskSummary[]> {
    const rows = this.db
      .prepare(
        `SELECT t.*, 0 AS step_count FROM tasks t WHERE status = 'queued' ORDER BY seq ASC`,
      )
      .all() as TaskRow[];
    return rows.map(summaryFrom);
  }

  async ownQueued(): Promise<TaskSummary[]> {
    const rows = this.db
      .prepare(`SELECT t.*, 0 AS step_count FROM tasks t WHERE status = 'queued' AND owner = ? ORDER BY seq ASC`)
      .all(this.owner) as TaskRow[];
    return rows.map(summaryFrom);
  }

  async renewLease(): Promise<void> {
    const { instance, leaseMs, now } = this.lease;
    this.db
      .prepare(
        `INSERT INTO leases (instance_id, pid, host, since, expires_at) VALUES (@id, @pid, @host, @since, @expiresAt)
         ON CONFLICT (instance_id) DO UPDATE SET expires_at = excluded.expires_at`,
      )
      .run({ ...instance, expiresAt: now() + leaseMs });
  }

  async releaseLease(): Promise<void> {
    this.db.prepare('DELETE FROM leases WHERE instance_id = ?').run(this.owner);
  }

  async nextLeaseExpiry(): Promise<number | undefined> {
    const row = this.db
      .prepare('SELECT MIN(expires_at) AS at FROM leases WHERE instance_id != ? AND expires_at > ?')
      .get(this.owner, this.lease.now()) as { at: number | null };
    return row.at ?? undefined;
  }

  async startRun(id: string, startedAt: string): Promise<boolean> {
    const claimed = this.db
      .prepare(`UPDATE tasks SET status = 'running', started_at = ? WHERE id = ? AND status = 'queued' AND owner = ?`)
      .run(startedAt, id, this.owner);
    return claimed.changes === 1;
  }

  async failInterrupted(now: string): Promise<string[]> {
    const error: TaskError = {
      code: 'internal',
      message: 'The task was interrupted: the Apex process running it stopped.',
      reason: 'interrupted',
    };
    return this.db.transaction(() => {
      const rows = this.db
        .prepare(`SELECT id FROM tasks t WHERE status = 'running' AND ${NO_LIVE_OWNER} ORDER BY seq`)
        .all(this.leaseArgs()) as { id: string }[];
      const gone = rows.map((row) => row.id);
      const mark = this.db.prepare(`UPDATE tasks SET status = 'failed', finished_at = ?, error_json = ? WHERE id = ? AND status = 'running'`);
      for (const id of gone) mark.run(now, JSON.stringify(error), id);
      return gone;
    }).immediate();
  }

  async requestCancel(id: string): Promise<void> {
    this.db.prepare('UPDATE tasks SET cancel_requested = 1 WHERE id = ?').run(id);
  }

  async isCancelRequested(id: string): Promise<boolean> {
    const row = this.db.prepare('SELECT cancel_requested FROM tasks WHERE id = ?').get(id) as { cancel_requested: number } | undefined;
    return row?.cancel_requested === 1;
  }

  async adoptQueued(): Promise<TaskSummary[]> {
    return this.db.transaction(() => {
      const args = this.leaseArgs();
      const rows = this.db
        .prepare(`SELECT t.*, 0 AS step_count FROM tasks t WHERE status = 'queued' AND ${NO_LIVE_OWNER} ORDER BY seq ASC`)
        .all(args) as TaskRow[];
      const adopt = this.db.prepare('UPDATE tasks SET owner = ? WHERE id = ?');
      for (const row of rows) adopt.run(this.owner, row.id);
      // Expired leases that no longer own a running task have nothing left to tell.
      this.db
        .prepare(`DELETE FROM leases WHERE instance_id != @me AND expires_at <= @now
                  AND NOT EXISTS (SELECT 1 FROM tasks WHERE owner = leases.instance_id AND status = 'running')`)
        .run(args);
      return rows.map(summaryFrom);
    }).immediate();
  }

  async pruneFinished(rule: { finishedBefore: string; keepNewest: number; limit: number }): Promise<string[]> {
    return this.db.transaction(() => {
      const rows = this.db
        .prepare(
          `SELECT id FROM tasks WHERE status IN (${FINISHED}) AND (finished_at < @finishedBefore OR id NOT IN
             (SELECT id FROM tasks WHERE status IN (${FINISHED}) ORDER BY finished_at DESC, seq DESC LIMIT @keepNewest))
           ORDER BY seq LIMIT @limit`,
        )
        .all(rule) as { id: string }[];
      // Their steps go with them (ON DELETE CASCADE).
      const remove = this.db.prepare('DELETE FROM tasks WHERE id = ?');
      for (const row of rows) remove.run(row.id);
      return rows.map((row) => row.id);
    }).immediate();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private leaseArgs(): { me: string; now: number } {
    return { me: this.owner, now: this.lease.now() };
  }
}

/** Columns later versions added to tables an earlier version created. */
function addMissingColumns(db: Database.Database): void {
  const columns = (db.pragma('table_info(steps)') as { name: string }[]).map((c) => c.name);
  if (!columns.includes('target_json')) db.exec('ALTER TABLE steps ADD COLUMN target_json TEXT');
  const taskColumns = (db.pragma('table_info(tasks)') as { name: string }[]).map((c) => c.name);
  if (!taskColumns.includes('patch_json')) db.exec('ALTER TABLE tasks ADD COLUMN patch_json TEXT');
  if (!taskColumns.includes('answer_json')) db.exec('ALTER TABLE tasks ADD COLUMN answer_json TEXT');
  if (!taskColumns.includes('recording_json')) db.exec('ALTER TABLE tasks ADD COLUMN recording_json TEXT');
}

/** A task (`t`) whose owner is another process with no unexpired lease: a pid proves nothing, a lease does. */
const NO_LIVE_OWNER = `t.owner != @me
  AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.instance_id = t.owner AND l.expires_at > @now)`;
