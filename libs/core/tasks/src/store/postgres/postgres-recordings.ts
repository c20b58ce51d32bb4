import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { PostgresDatabase } from './postgres-database';

/** Bytes per row of a recording's MP4: small enough for one statement, few enough rows for a long video. */
export const RECORDING_CHUNK_BYTES = 1024 * 1024;

/** What a recording is besides its bytes (its sidecar), as the recording service writes it. */
export interface SharedRecordingMeta {
  id: string;
  bytes: number;
}

/**
 * Finished screen recordings in the shared database, so that every node serves every recording (a task's
 * `recording.url` answers on any node): the sidecar as JSON in `apex_recordings`, the MP4 as 1 MiB `bytea`
 * rows in `apex_recording_chunks`, written in one transaction and read row by row, never whole in memory.
 * Chunked bytea rather than large objects: rows go with their recording (ON DELETE CASCADE, no orphans to
 * vacuum) and every statement is an ordinary one, as the step images are. Kept under `maxBytes` over the
 * whole cluster, the oldest removed first.
 */
export class PostgresRecordings {
  constructor(private readonly db: PostgresDatabase) {}

  /** Stores the recording (its sidecar and its MP4 file); the oldest others go beyond `maxBytes`. */
  async put(meta: SharedRecordingMeta, file: string, maxBytes: number): Promise<void> {
    await this.db.transaction(async (client) => {
      await client.query('DELETE FROM apex_recordings WHERE id = $1', [meta.id]);
      await client.query('INSERT INTO apex_recordings (id, meta_json, bytes) VALUES ($1, $2, $3)', [meta.id, JSON.stringify(meta), meta.bytes]);
      let index = 0;
      for await (const chunk of createReadStream(file, { highWaterMark: RECORDING_CHUNK_BYTES })) {
        await client.query('INSERT INTO apex_recording_chunks (recording_id, idx, data) VALUES ($1, $2, $3)', [meta.id, index, chunk as Buffer]);
        index += 1;
      }
      await client.query(
        `DELETE FROM apex_recordings WHERE id IN (
           SELECT id FROM (SELECT id, SUM(bytes) OVER (ORDER BY seq DESC) AS newer FROM apex_recordings) kept
           WHERE newer > $1 AND id <> $2)`,
        [maxBytes, meta.id],
      );
    });
  }

  /** Writes the recording's MP4 to `file` and answers its sidecar; undefined when the database has no such recording. */
  async get(id: string, file: string): Promise<unknown> {
    const { rows } = await this.db.query<{ meta_json: string }>('SELECT meta_json FROM apex_recordings WHERE id = $1', [id]);
    if (!rows[0]) return undefined;
    const out = await open(file, 'w', 0o600);
    try {
      for (let index = 0; ; index += 1) {
        const chunk = await this.db.query<{ data: Buffer }>('SELECT data FROM apex_recording_chunks WHERE recording_id = $1 AND idx = $2', [id, index]);
        const data = chunk.rows[0]?.data;
        if (!data) break;
        await out.write(data);
      }
    } finally {
      await out.close();
    }
    return JSON.parse(rows[0].meta_json) as unknown;
  }
}
