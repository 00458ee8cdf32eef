import { setTimeout as delay } from 'node:timers/promises';
import { Pool, type PoolConfig } from 'pg';
import type PgBoss from 'pg-boss';

/**
 * pg-boss's connection pool, owned by Grove (pg-boss 10's `db` option: any object with
 * `executeSql(text, values)`), so that shutdown can wait for the statements pg-boss still runs.
 *
 * Why not pg-boss's own pool: its `stop` ends the pool as soon as the running jobs are done, while a
 * worker may still be fetching. pg-pool's `end` never answers a statement that was waiting for a
 * connection (pg-pool `_pulseQueue` returns early once `ending`), so that worker's loop hangs until
 * the connection timeout, and pg-boss keeps polling for it (`offWork`, every 1,000 ms). Here the
 * pool ends only once every statement it was given has settled (or the deadline passed).
 */
export class JobsPool implements PgBoss.Db {
  readonly pool: Pool;
  /** Statements sent and not yet settled. */
  private readonly running = new Set<Promise<unknown>>();
  private closed = false;

  /**
   * @param config the pool's options (connection string, `max`, timeouts)
   * @param onError called with an idle client's error (a dropped connection), which would
   *   otherwise crash the process
   */
  constructor(config: PoolConfig, onError: (error: Error) => void) {
    this.pool = new Pool(config);
    this.pool.on('error', onError);
  }

  /**
   * Runs one statement on the pool.
   * @throws `Error('the jobs pool is closed')` after {@link close}; what the statement throws
   */
  async executeSql(text: string, values: unknown[] = []): Promise<{ rows: unknown[] }> {
    if (this.closed) throw new Error('the jobs pool is closed');
    const query = this.pool.query(text, values);
    this.running.add(query);
    try {
      return await query;
    } finally {
      this.running.delete(query);
    }
  }

  /**
   * Runs `work` while holding the PostgreSQL advisory lock `key` (session level, on a connection
   * of its own), so that one instance at a time runs it across every instance on the database.
   * @throws what `work` throws (the lock is released either way)
   */
  async whileLocked<T>(key: string, work: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
      try {
        return await work();
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
      }
    } finally {
      client.release();
    }
  }

  /**
   * Refuses new statements, waits for those still running (at most `timeoutMs`), then ends the
   * pool. Idempotent.
   * @param timeoutMs the longest wait for the running statements (ms)
   */
  async close(timeoutMs: number): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.running.size > 0) {
      await Promise.race([
        Promise.allSettled([...this.running]),
        delay(Math.max(0, timeoutMs), undefined, { ref: false }),
      ]);
    }
    await this.pool.end();
  }
}
