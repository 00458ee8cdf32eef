import type { DataSource, EntityManager } from 'typeorm';
import type { BusinessScope } from './business-scope';
import { runTransaction } from './transaction';

/**
 * A run still 'running' that has given no sign of life (its start, a recorded batch) for this many
 * seconds is taken as lost: its job failed for good, or was never queued. The screens then show it
 * as stopped early, and a click starts it again. Longer than pg-boss's expiry of one attempt
 * (15 minutes by default), after which a living job would have been retried.
 */
export const STALE_RUN_SECONDS = 15 * 60;

/** The tables holding a business's latest background run, one row per business. */
export type BackgroundRunTable = 'referral_link_runs' | 'referral_email_runs';

/** A business's latest run of one kind, counts in members. */
export interface BackgroundRunRow {
  status: 'running' | 'done' | 'failed';
  /** Members the run has to go through (counted when it started). */
  total: number;
  /** Members it has gone through so far. */
  processed: number;
  /** What it made of them: links created, or emails queued. */
  created: number;
  startedAt: Date;
  /** 'running' but silent for STALE_RUN_SECONDS: lost (see {@link STALE_RUN_SECONDS}). */
  stale: boolean;
}

/**
 * The statements of a background run table (`referral_link_runs`, `referral_email_runs`: the same
 * columns, business_id primary key, `status` 'running' | 'done' | 'failed', `total`, `processed`,
 * `created`, `started_at`, `heartbeat_at`, `finished_at`): the progress behind 'Create links for all members
 * without one' and 'Email all links' (docs/product.md#referral-links). Every method takes the
 * `BusinessScope` first and touches that business's row only.
 */
export class BackgroundRunsTable {
  constructor(
    private readonly dataSource: DataSource,
    private readonly table: BackgroundRunTable,
  ) {}

  /** The business's latest run, or null when it never ran one. */
  async find(scope: BusinessScope): Promise<BackgroundRunRow | null> {
    const rows: {
      status: BackgroundRunRow['status'];
      total: number;
      processed: number;
      created: number;
      started_at: Date;
      stale: boolean;
    }[] = await this.dataSource.query(
      `SELECT status, total, processed, created, started_at,
              status = 'running' AND heartbeat_at < now() - make_interval(secs => $2) AS stale
         FROM ${this.table} WHERE business_id = $1`,
      [scope.businessId, STALE_RUN_SECONDS],
    );
    const row = rows[0];
    return row
      ? {
          status: row.status,
          total: row.total,
          processed: row.processed,
          created: row.created,
          startedAt: row.started_at,
          stale: row.stale,
        }
      : null;
  }

  /**
   * Starts a run of `total` members unless one is running (one that gave a sign of life within
   * STALE_RUN_SECONDS), and queues its job through `queue` in the same transaction: one statement
   * decides, so two clicks at once start one run, and a run is never recorded without its job. A
   * run of 0 is 'done' at once and queues nothing.
   * @param queue queues the run's job on the transaction's connection (`JobsService.send` with
   *   `manager`)
   * @returns true when this call started it
   * @throws what the statement or `queue` throws (nothing is recorded then)
   */
  async start(
    scope: BusinessScope,
    total: number,
    queue: (manager: EntityManager) => Promise<unknown>,
  ): Promise<boolean> {
    const status = total === 0 ? 'done' : 'running';
    return runTransaction(this.dataSource, async (manager) => {
      const rows: unknown[] = await manager.query(
        `INSERT INTO ${this.table} AS r (business_id, status, total, finished_at)
         VALUES ($1, $2, $3, CASE WHEN $2 = 'done' THEN now() END)
         ON CONFLICT (business_id) DO UPDATE SET status = EXCLUDED.status, total = EXCLUDED.total,
           processed = 0, created = 0, started_at = now(), heartbeat_at = now(),
           finished_at = EXCLUDED.finished_at
         WHERE r.status <> 'running' OR r.heartbeat_at < now() - make_interval(secs => $4)
         RETURNING 1`,
        [scope.businessId, status, total, STALE_RUN_SECONDS],
      );
      if (rows.length === 0) return false;
      if (total > 0) await queue(manager);
      return true;
    });
  }

  /** Adds one batch to the running run's counts, in the batch's own transaction. */
  async recordProgress(
    scope: BusinessScope,
    manager: EntityManager,
    processed: number,
    created: number,
  ): Promise<void> {
    await manager.query(
      `UPDATE ${this.table}
          SET processed = processed + $2, created = created + $3, heartbeat_at = now()
        WHERE business_id = $1 AND status = 'running'`,
      [scope.businessId, processed, created],
    );
  }

  /** Sets the running run's counts back to 0 (a retried attempt that goes through it again). */
  async resetProgress(scope: BusinessScope): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.table} SET processed = 0, created = 0, heartbeat_at = now()
       WHERE business_id = $1 AND status = 'running'`,
      [scope.businessId],
    );
  }

  /** Ends the running run as 'done' or 'failed'. */
  async finish(scope: BusinessScope, status: 'done' | 'failed'): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.table} SET status = $2, finished_at = now()
       WHERE business_id = $1 AND status = 'running'`,
      [scope.businessId, status],
    );
  }
}
