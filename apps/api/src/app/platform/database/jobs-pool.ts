import { setTimeout as delay } from 'node:timers/promises';
import { Pool, type PoolConfig, type QueryResult } from 'pg';

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
export class JobsPool {
  readonly pool: Pool;
  /** Statements sent and not yet settled. */
  private readonly running = new Set<Promise<unknown>>();
  /** True once {@link close} has ended the pool. */
  private ended = false;

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
   * Runs one statement on the pool. After {@link close} has ended the pool, nothing runs and the
   * answer is `undefined`, as from pg-boss's own pool once closed (pg-boss reads such an answer
   * as "no rows"; it completes a job without awaiting that statement).
   * @throws what the statement throws
   */
  async executeSql(text: string, values: unknown[] = []): Promise<QueryResult | undefined> {
    if (this.ended) return undefined;
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
   * Waits for the statements still running, also those sent meanwhile (at most `timeoutMs`), then
   * ends the pool. A statement pg-boss sends right after a handler settles (completing its job)
   * is sent within the same turn of the event loop, so each wait ends with one more turn.
   * Idempotent.
   * @param timeoutMs the longest wait for the running statements (ms)
   */
  async close(timeoutMs: number): Promise<void> {
    if (this.ended) return;
    const deadline = Date.now() + Math.max(0, timeoutMs);
    do {
      if (this.running.size > 0) {
        await Promise.race([
          Promise.allSettled([...this.running]),
          delay(Math.max(0, deadline - Date.now()), undefined, { ref: false }),
        ]);
      }
      await new Promise((resolve) => setImmediate(resolve));
    } while (this.running.size > 0 && Date.now() < deadline);
    this.ended = true;
    await this.pool.end();
  }
}
