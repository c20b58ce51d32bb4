import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { ApexError, isApexError } from '@apex/errors';
import { MIGRATIONS } from './migrations';

/** Structural subset of a pino logger. */
export interface DatabaseLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface PostgresDatabaseOptions {
  /** `postgres://user:password@host:port/database` (never logged: it may hold a password). */
  url: string;
  /** Longest one statement may take (default 10 s). */
  queryTimeoutMs?: number;
  /** Longest to wait for a connection (default 5 s). */
  connectTimeoutMs?: number;
  logger?: DatabaseLogger;
}

/** The channel on which a node says "a task is waiting for the node that holds its device". */
export const TASKS_CHANNEL = 'apex_tasks';

/** SQLSTATE classes and Node codes that mean "the server cannot be reached now", not "the query is wrong". */
const UNREACHABLE = /^(08|57P0[1-3]|53300)|^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH)$/;

/** `unavailable` when the database cannot be reached (retry later, nothing was done), else `internal`. */
export function databaseError(error: unknown): ApexError {
  if (isApexError(error)) return error;
  const code = String((error as { code?: unknown }).code ?? '');
  const message = error instanceof Error ? error.message : String(error);
  if (UNREACHABLE.test(code) || /Connection terminated|timeout exceeded|connect|Client has encountered a connection error/i.test(message)) {
    return new ApexError('unavailable', 'The shared task database cannot be reached now; nothing was stored.', {
      hint: 'Retry in a few seconds; Apex reconnects on its own once the database is back.',
      retryable: true,
      cause: error,
    });
  }
  return new ApexError('internal', 'The shared task database refused a statement.', { cause: error });
}

/**
 * One connection pool to the PostgreSQL database that several Apex processes share (tasks, steps, step
 * images, the nodes and the devices each holds). `pg` is required here, on first use only: `apex mcp` and
 * every SQLite set-up start without loading it. Versioned migrations run once on open, under an advisory
 * lock so that nodes starting together apply each exactly once.
 */
export class PostgresDatabase {
  private constructor(
    readonly pool: Pool,
    private readonly options: PostgresDatabaseOptions,
  ) {}

  static async open(options: PostgresDatabaseOptions): Promise<PostgresDatabase> {
    // Required here, not at the top: nothing loads `pg` unless PostgreSQL is configured.
    const pg = require('pg') as typeof import('pg');
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 8,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      query_timeout: options.queryTimeoutMs ?? 10_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle connection the server dropped (a restart) is an event, not a crash; the pool opens new ones.
    pool.on('error', (error) => options.logger?.warn({ err: databaseError(error) }, 'a task database connection was lost'));
    const database = new PostgresDatabase(pool, options);
    try {
      await database.migrate();
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw databaseError(error);
    }
    return database;
  }

  /** Runs one statement; connection failures become `unavailable`. */
  async query<R extends QueryResultRow = QueryResultRow>(sql: string, values: unknown[] = []): Promise<{ rows: R[]; rowCount: number }> {
    try {
      const result = await this.pool.query<R>(sql, values);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    } catch (error) {
      throw databaseError(error);
    }
  }

  /** Runs `work` in one transaction (rolled back on a throw). */
  async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw databaseError(error);
    }
    // A checked-out connection the server drops between statements emits `error`: the next statement fails instead.
    const lost = () => undefined;
    client.on('error', lost);
    try {
      await client.query('BEGIN');
      const value = await work(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw databaseError(error);
    } finally {
      client.removeListener('error', lost);
      client.release();
    }
  }

  /**
   * Calls `onNotify` whenever a node announces a waiting task on TASKS_CHANNEL, over a connection of its own
   * that is opened again after the server went away. Returns the unsubscribe.
   */
  listen(onNotify: () => void): () => void {
    const pg = require('pg') as typeof import('pg');
    let stopped = false;
    let client: InstanceType<typeof pg.Client> | undefined;
    let retry: NodeJS.Timeout | undefined;
    const connect = async () => {
      if (stopped) return;
      const current = new pg.Client({ connectionString: this.options.url, connectionTimeoutMillis: this.options.connectTimeoutMs ?? 5_000 });
      client = current;
      const again = () => {
        if (stopped || client !== current) return;
        client = undefined;
        current.end().catch(() => undefined);
        retry = setTimeout(() => void connect(), 1_000);
        retry.unref();
      };
      current.on('error', again);
      current.on('end', again);
      current.on('notification', () => onNotify());
      try {
        await current.connect();
        await current.query(`LISTEN ${TASKS_CHANNEL}`);
        // Whatever was announced while this connection was down is found by this look.
        onNotify();
      } catch {
        again();
      }
    };
    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      void client?.end().catch(() => undefined);
      client = undefined;
    };
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    const lost = () => undefined;
    client.on('error', lost);
    try {
      await client.query('BEGIN');
      // One node migrates at a time; the others wait here, then find nothing left to do.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('apex_migrations'))");
      await client.query('CREATE TABLE IF NOT EXISTS apex_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
      const applied = new Set((await client.query<{ version: number }>('SELECT version FROM apex_migrations')).rows.map((row) => row.version));
      for (const migration of MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        await client.query(migration.sql);
        await client.query('INSERT INTO apex_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
        this.options.logger?.info({ version: migration.version, name: migration.name }, 'task database migrated');
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.removeListener('error', lost);
      client.release();
    }
  }
}
