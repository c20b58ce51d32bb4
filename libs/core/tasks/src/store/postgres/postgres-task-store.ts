import { resolveLease, type Lease, type LeaseOptions } from '@apex/hub';
import type { Task, TaskError, TaskStep, TaskSummary } from '../../model/task';
import type { TaskFilter, TaskPatch, TaskStore } from '../task-store';
import { FINISHED_SQL, patchColumns, stepFrom, summaryFrom, taskFrom, type StepRow, type TaskRow } from '../task-rows';
import { TASKS_CHANNEL, type PostgresDatabase } from './postgres-database';

export interface PostgresTaskStoreOptions {
  /** This process as a node: its instance id, lease period and clock. */
  lease?: LeaseOptions;
}

/** A task (`t`) whose owner is no live node: never claimed (''), or its node's lease ran out. */
const NO_LIVE_OWNER = `NOT EXISTS (SELECT 1 FROM apex_nodes n WHERE n.instance_id = t.owner AND n.expires_at > $2)`;
/** The task's device is held by this node ($1) now ($2). */
const DEVICE_HELD_HERE = `EXISTS (SELECT 1 FROM apex_device_leases d WHERE d.device_id = t.device_id AND d.instance_id = $1 AND d.expires_at > $2)`;
/** The task's device was never held through a lease by any node (a shared device: any node may run it). */
const DEVICE_UNLEASED = `NOT EXISTS (SELECT 1 FROM apex_device_leases d WHERE d.device_id = t.device_id)`;

const INTERRUPTED: TaskError = {
  code: 'internal',
  message: 'The task was interrupted: the Apex process running it stopped.',
  reason: 'interrupted',
};

/**
 * Tasks in PostgreSQL, shared by every Apex process (node) of a cluster. A node keeps a row in `apex_nodes`
 * whose `expires_at` it pushes forward while it lives, and a row in `apex_device_leases` for each phone it
 * holds. A task is run by the node holding its device: posted anywhere, it is stored unclaimed (owner '')
 * unless the posting node holds the device, and the holder claims it (`SELECT … FOR UPDATE SKIP LOCKED`, so
 * two nodes never claim one task). When a node's lease lapses, any other node recovers its tasks: running
 * ones become `failed` (`interrupted`), or queued again when they had not recorded a step; queued ones go to
 * the device's next holder. Writes of a running task are fenced by its owner, so a node that lost a task (a
 * long pause) records nothing more on it and stops at its next step boundary.
 */
export class PostgresTaskStore implements TaskStore {
  private readonly lease: Lease;
  private readonly owner: string;

  constructor(
    private readonly db: PostgresDatabase,
    options: PostgresTaskStoreOptions = {},
  ) {
    this.lease = resolveLease(options.lease);
    this.owner = this.lease.instance.id;
  }

  async insert(task: Task, limits: { maxQueued?: number } = {}): Promise<boolean | 'full'> {
    const inserted = await this.db.transaction(async (client) => {
      if (limits.maxQueued !== undefined && task.status === 'queued') {
        // One insert at a time per device across the cluster, so that the count and the insert agree.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`apex_queue:${task.deviceId}`]);
        const { rows } = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM apex_tasks WHERE device_id = $1 AND status = 'queued'`, [task.deviceId]);
        if (Number(rows[0]?.n ?? 0) >= limits.maxQueued) return 'full' as const;
      }
      // Claimed here unless the device is held through a lease by another node, live or lapsed: then it is
      // that node's, or the device's next holder's, to claim (a lapsed hold does not make the phone this node's).
      const { rows } = await client.query<{ owner: string }>(
        `INSERT INTO apex_tasks (id, device_id, goal, status, planner, max_steps, timeout_ms, created_at, started_at, finished_at, result, error_json, usage_json, record, owner)
         VALUES ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
           CASE WHEN EXISTS (SELECT 1 FROM apex_device_leases d WHERE d.device_id = $3 AND d.instance_id <> $1) THEN '' ELSE $1 END)
         RETURNING owner`,
        [
          this.owner,
          task.id,
          task.deviceId,
          task.goal,
          task.status,
          task.planner,
          task.maxSteps,
          task.timeoutMs,
          task.createdAt,
          task.startedAt ?? null,
          task.finishedAt ?? null,
          task.result ?? null,
          task.error ? JSON.stringify(task.error) : null,
          task.usage ? JSON.stringify(task.usage) : null,
          task.record === true,
        ],
      );
      return rows[0]?.owner === this.owner;
    });
    if (inserted === false) await this.announce();
    return inserted;
  }

  async runsHere(deviceId: string): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM apex_device_leases WHERE device_id = $1 AND instance_id <> $2', [deviceId, this.owner]);
    return rows.length === 0;
  }

  async update(id: string, patch: TaskPatch): Promise<void> {
    const values: unknown[] = [id];
    const columns = patchColumns(patch).map(([column, value]) => {
      values.push(value);
      return `${column} = $${values.length}`;
    });
    if (columns.length === 0) return;
    let guard = '';
    if (patch.from !== undefined) {
      values.push(patch.from);
      guard = ` AND status = $${values.length}`;
      if (patch.from === 'running') {
        values.push(this.owner);
        guard += ` AND owner = $${values.length}`;
      }
    }
    await this.db.query(`UPDATE apex_tasks SET ${columns.join(', ')} WHERE id = $1${guard}`, values);
  }

  async appendStep(taskId: string, step: TaskStep): Promise<void> {
    // Only while this node runs the task: a node that lost it records nothing more.
    await this.db.query(
      `INSERT INTO apex_steps (task_id, idx, observation, operation, arguments_json, outcome_json, duration_ms, screenshot_ref, target_json)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 WHERE EXISTS (SELECT 1 FROM apex_tasks WHERE id = $1 AND status = 'running' AND owner = $10)`,
      [
        taskId,
        step.index,
        step.observation,
        step.action.operation,
        JSON.stringify(step.action.arguments),
        JSON.stringify(step.outcome),
        step.durationMs,
        step.screenshotRef ?? null,
        step.target ? JSON.stringify(step.target) : null,
        this.owner,
      ],
    );
  }

  async setStepScreenshot(taskId: string, index: number, ref: string | undefined): Promise<void> {
    await this.db.query('UPDATE apex_steps SET screenshot_ref = $1 WHERE task_id = $2 AND idx = $3', [ref ?? null, taskId, index]);
  }

  async get(id: string): Promise<Task | undefined> {
    const { rows } = await this.db.query<TaskRow>('SELECT * FROM apex_tasks WHERE id = $1', [id]);
    const row = rows[0];
    if (!row) return undefined;
    const steps = await this.db.query<StepRow>('SELECT * FROM apex_steps WHERE task_id = $1 ORDER BY idx', [id]);
    return { ...taskFrom(row), steps: steps.rows.map(stepFrom) };
  }

  async list(filter: TaskFilter = {}): Promise<TaskSummary[]> {
    const where: string[] = [];
    const values: unknown[] = [filter.limit ?? 100];
    if (filter.status) {
      values.push(filter.status);
      where.push(`status = $${values.length}`);
    }
    if (filter.deviceId) {
      values.push(filter.deviceId);
      where.push(`device_id = $${values.length}`);
    }
    const { rows } = await this.db.query<TaskRow>(
      `SELECT t.*, (SELECT COUNT(*) FROM apex_steps s WHERE s.task_id = t.id) AS step_count FROM apex_tasks t
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT $1`,
      values,
    );
    return rows.map(summaryFrom);
  }

  async queued(): Promise<TaskSummary[]> {
    const { rows } = await this.db.query<TaskRow>(`SELECT t.*, 0 AS step_count FROM apex_tasks t WHERE status = 'queued' ORDER BY seq ASC`);
    return rows.map(summaryFrom);
  }

  async ownQueued(): Promise<TaskSummary[]> {
    const { rows } = await this.db.query<TaskRow>(`SELECT t.*, 0 AS step_count FROM apex_tasks t WHERE status = 'queued' AND owner = $1 ORDER BY seq ASC`, [this.owner]);
    return rows.map(summaryFrom);
  }

  async renewLease(): Promise<void> {
    const { instance, leaseMs, now } = this.lease;
    await this.db.query(
      `INSERT INTO apex_nodes (instance_id, pid, host, since, expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (instance_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
      [instance.id, instance.pid, instance.host, instance.since, now() + leaseMs],
    );
  }

  async releaseLease(): Promise<void> {
    await this.db.query('DELETE FROM apex_nodes WHERE instance_id = $1', [this.owner]);
    // Its queued tasks wait for the device's next holder: tell the others.
    await this.announce();
  }

  async nextLeaseExpiry(): Promise<number | undefined> {
    const { rows } = await this.db.query<{ at: string | null }>(
      'SELECT MIN(expires_at) AS at FROM apex_nodes WHERE instance_id <> $1 AND expires_at > $2',
      [this.owner, this.lease.now()],
    );
    return rows[0]?.at == null ? undefined : Number(rows[0].at);
  }

  async startRun(id: string, startedAt: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE apex_tasks SET status = 'running', started_at = $1 WHERE id = $2 AND status = 'queued' AND owner = $3`,
      [startedAt, id, this.owner],
    );
    return rowCount === 1;
  }

  async failInterrupted(now: string): Promise<string[]> {
    return this.db.transaction(async (client) => {
      const { rows } = await client.query<{ id: string; stepped: boolean }>(
        `SELECT t.id, EXISTS (SELECT 1 FROM apex_steps s WHERE s.task_id = t.id) AS stepped FROM apex_tasks t
         WHERE t.status = 'running' AND t.owner <> $1 AND ${NO_LIVE_OWNER} ORDER BY t.seq FOR UPDATE OF t SKIP LOCKED`,
        [this.owner, this.lease.now()],
      );
      const failed = rows.filter((row) => row.stepped).map((row) => row.id);
      const requeued = rows.filter((row) => !row.stepped).map((row) => row.id);
      if (failed.length > 0) {
        await client.query(`UPDATE apex_tasks SET status = 'failed', finished_at = $1, error_json = $2 WHERE id = ANY($3) AND status = 'running'`, [
          now,
          JSON.stringify(INTERRUPTED),
          failed,
        ]);
      }
      if (requeued.length > 0) {
        // No step recorded: nothing to lose, run it again from the start on the device's next holder.
        await client.query(`UPDATE apex_tasks SET status = 'queued', started_at = NULL, owner = '' WHERE id = ANY($1) AND status = 'running'`, [requeued]);
        await client.query(`SELECT pg_notify('${TASKS_CHANNEL}', '')`);
      }
      return failed;
    });
  }

  async requestCancel(id: string): Promise<void> {
    await this.db.query('UPDATE apex_tasks SET cancel_requested = true WHERE id = $1', [id]);
  }

  async isCancelRequested(id: string): Promise<boolean> {
    const { rows } = await this.db.query<{ cancel_requested: boolean; owner: string; status: string }>(
      'SELECT cancel_requested, owner, status FROM apex_tasks WHERE id = $1',
      [id],
    );
    const row = rows[0];
    // Gone, taken by another node, or no longer running: this node must not take another step on it.
    return !row || row.cancel_requested || row.owner !== this.owner || row.status !== 'running';
  }

  async adoptQueued(): Promise<TaskSummary[]> {
    const { rows } = await this.db.query<TaskRow>(
      `UPDATE apex_tasks SET owner = $1 WHERE id IN (
         SELECT t.id FROM apex_tasks t
         WHERE t.status = 'queued' AND t.owner <> $1 AND ${NO_LIVE_OWNER}
           AND (${DEVICE_HELD_HERE} OR ${DEVICE_UNLEASED})
         ORDER BY t.seq FOR UPDATE SKIP LOCKED)
       RETURNING *, 0 AS step_count`,
      [this.owner, this.lease.now()],
    );
    // Nodes whose lease ran out and that own no running task have nothing left to tell.
    await this.db.query(
      `DELETE FROM apex_nodes n WHERE n.instance_id <> $1 AND n.expires_at <= $2
       AND NOT EXISTS (SELECT 1 FROM apex_tasks t WHERE t.owner = n.instance_id AND t.status = 'running')`,
      [this.owner, this.lease.now()],
    );
    // RETURNING keeps no order: oldest first, by the queue's sequence.
    return (rows as Array<TaskRow & { seq: string }>).sort((a, b) => Number(a.seq) - Number(b.seq)).map(summaryFrom);
  }

  async pruneFinished(rule: { finishedBefore: string; keepNewest: number; limit: number }): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `DELETE FROM apex_tasks WHERE id IN (
         SELECT id FROM apex_tasks WHERE status IN (${FINISHED_SQL}) AND (finished_at < $1 OR id NOT IN
           (SELECT id FROM apex_tasks WHERE status IN (${FINISHED_SQL}) ORDER BY finished_at DESC, seq DESC LIMIT $2))
         ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [rule.finishedBefore, rule.keepNewest, rule.limit],
    );
    return rows.map((row) => row.id);
  }

  /** The database is shared: closing a store leaves it open for its other users (the runtime closes it). */
  async close(): Promise<void> {
    return undefined;
  }

  /** Wakes the nodes listening: a task waits for the node that holds its device. */
  private async announce(): Promise<void> {
    await this.db.query(`SELECT pg_notify('${TASKS_CHANNEL}', '')`);
  }
}
