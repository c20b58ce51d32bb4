import type { ScreenshotRetention, StoredScreenshot } from '../screenshot-store';
import type { StepImageStore } from '../step-images';
import type { PostgresDatabase } from './postgres-database';

/**
 * Step screenshots in the shared database (`apex_step_images`), so that every node serves every task's
 * images. The same retention as the files: the newest `perTask` per task, and `maxTotalBytes` over all
 * tasks (the oldest go first). A task's images go with it (ON DELETE CASCADE).
 */
export class PostgresStepImages implements StepImageStore {
  private readonly perTask: number;
  private readonly maxTotalBytes: number;

  constructor(
    private readonly db: PostgresDatabase,
    retention: ScreenshotRetention = {},
  ) {
    this.perTask = retention.perTask ?? 20;
    this.maxTotalBytes = retention.maxTotalBytes ?? 200 * 1024 * 1024;
  }

  async save(taskId: string, ref: string, bytes: Buffer): Promise<StoredScreenshot[]> {
    return this.db.transaction(async (client) => {
      await client.query(
        `INSERT INTO apex_step_images (task_id, ref, bytes) VALUES ($1, $2, $3)
         ON CONFLICT (task_id, ref) DO UPDATE SET bytes = EXCLUDED.bytes`,
        [taskId, ref, bytes],
      );
      const ofTask = await client.query<{ task_id: string; ref: string }>(
        `DELETE FROM apex_step_images WHERE task_id = $1 AND seq NOT IN
           (SELECT seq FROM apex_step_images WHERE task_id = $1 ORDER BY seq DESC LIMIT $2)
         RETURNING task_id, ref`,
        [taskId, this.perTask],
      );
      // Over the byte budget: the oldest images go, never the newest one.
      const overall = await client.query<{ task_id: string; ref: string }>(
        `DELETE FROM apex_step_images WHERE seq IN (
           SELECT seq FROM (SELECT seq, SUM(octet_length(bytes)) OVER (ORDER BY seq DESC) AS newer FROM apex_step_images) kept
           WHERE newer > $1 AND seq < (SELECT MAX(seq) FROM apex_step_images))
         RETURNING task_id, ref`,
        [this.maxTotalBytes],
      );
      return [...ofTask.rows, ...overall.rows].map((row) => ({ taskId: row.task_id, ref: row.ref }));
    });
  }

  async read(taskId: string, ref: string): Promise<Buffer | undefined> {
    const { rows } = await this.db.query<{ bytes: Buffer }>('SELECT bytes FROM apex_step_images WHERE task_id = $1 AND ref = $2', [taskId, ref]);
    return rows[0]?.bytes;
  }

  async removeTask(taskId: string): Promise<void> {
    await this.db.query('DELETE FROM apex_step_images WHERE task_id = $1', [taskId]);
  }
}
