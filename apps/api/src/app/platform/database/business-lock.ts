import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { queryWithoutTimeout } from './pool-options';

/**
 * Runs `work` while holding the advisory lock `key` (a session-level advisory lock on
 * `hashtext(key)`, on a pool connection of `dataSource` held for the whole of `work`), so that
 * whatever holds the same key never overlaps it, whatever API instance runs it. Used per business:
 * `mindbody:<business id>` (Mindbody's imports and syncs), `stripe-members:<business id>` (the
 * Stripe bills a sync, a webhook or a removal decides and writes). Free, it is taken in one round
 * trip (`pg_try_advisory_lock`, which also reads the connection's backend pid); held elsewhere,
 * this waits in a blocking `pg_advisory_lock` (no polling: PostgreSQL grants it the moment the
 * holder lets go). When `stopping` is aborted while it waits, the wait is cancelled
 * (`pg_cancel_backend` from another pool connection) and nothing is held; the connection then goes
 * back to the pool. A cancel that comes too late (the lock was just granted) is discarded by
 * PostgreSQL while the connection is idle, and is awaited before `work` starts.
 * No time limit of its own (the wait is exempt from DATABASE_STATEMENT_TIMEOUT_MS): it waits as
 * long as the holder runs (a job's pg-boss expiry bounds that) or until `stopping`.
 * `work` runs its statements on other pool connections (the lock's connection only holds it).
 * @param stopping when it is aborted before the lock is taken, gives up waiting: `work` does not run
 * @returns what `work` returns
 * @throws `stopping.reason` when it gave up waiting; else what `work` or the lock queries throw
 *   (when a lock query fails, the connection is closed instead of pooled, which ends the lock)
 */
export async function withAdvisoryLock<T>(
  dataSource: DataSource,
  key: string,
  work: () => Promise<T>,
  stopping?: AbortSignal,
): Promise<T> {
  stopping?.throwIfAborted();
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  const connection = await pool.connect();
  // Checked out, the connection has no listener of the pool's: a server that goes away while the
  // lock is held must fail this run (its next query throws), not the process.
  let broken: Error | undefined;
  const onError = (error: Error) => (broken ??= error);
  connection.on('error', onError);
  // A statement that failed on this connection may have left it unusable (e.g. unanswered):
  // it is then closed instead of pooled, which also ends the lock.
  const fail = (error: unknown): never => {
    broken ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  };
  try {
    await lock(pool, connection, key, stopping).catch((error: unknown) =>
      stopping?.aborted && error === stopping.reason ? Promise.reject(error) : fail(error),
    );
    try {
      return await work();
    } finally {
      await connection.query(`SELECT pg_advisory_unlock(hashtext($1))`, [key]).catch(fail);
    }
  } finally {
    connection.off('error', onError);
    connection.release(broken);
  }
}

/**
 * Takes the advisory lock `key` on `connection`: at once when free, else a blocking wait that
 * `stopping` cancels (see {@link withAdvisoryLock}).
 * @throws `stopping.reason` when the wait was given up (nothing held); the query errors
 */
async function lock(
  pool: Pool,
  connection: PoolClient,
  key: string,
  stopping: AbortSignal | undefined,
): Promise<void> {
  stopping?.throwIfAborted();
  const tried = await connection.query<{ pid: number; locked: boolean }>(
    `SELECT pg_backend_pid() AS pid, pg_try_advisory_lock(hashtext($1)) AS locked`,
    [key],
  );
  const { pid, locked } = tried.rows[0];
  if (locked) return;
  stopping?.throwIfAborted();
  let cancelling: Promise<unknown> | undefined;
  const cancel = () => {
    cancelling = pool.query(`SELECT pg_cancel_backend($1)`, [pid]).catch(() => undefined);
  };
  stopping?.addEventListener('abort', cancel, { once: true });
  try {
    // A wait of unknown length, by design: no statement timeout (DATABASE_STATEMENT_TIMEOUT_MS).
    await queryWithoutTimeout(connection, `SELECT pg_advisory_lock(hashtext($1))`, [key]);
  } catch (error) {
    if (stopping?.aborted) throw stopping.reason;
    throw error;
  } finally {
    stopping?.removeEventListener('abort', cancel);
    // Lands before anything else is sent on this connection (it is then discarded, being idle).
    await cancelling;
  }
}
