import type { DataSource, EntityManager } from 'typeorm';
import type { BusinessScope } from './business-scope';

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
}

/**
 * The statements of a background run table (`referral_link_runs`, `referral_email_runs`: the same
 * columns, business_id primary key, `status` 'running' | 'done' | 'failed', `total`, `processed`,
 * `created`, `started_at`, `finished_at`): the progress behind 'Create links for all members
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
    }[] = await this.dataSource.query(
      `SELECT status, total, processed, created, started_at FROM ${this.table} WHERE business_id = $1`,
      [scope.businessId],
    );
    const row = rows[0];
    return row
      ? {
          status: row.status,
          total: row.total,
          processed: row.processed,
          created: row.created,
          startedAt: row.started_at,
        }
      : null;
  }

  /**
   * Starts a run of `total` members unless one is running (started less than `staleSeconds`
   * ago): one statement, so two clicks at once start one run. A run of 0 is 'done' at once.
   * @returns true when this call started it
   */
  async start(scope: BusinessScope, total: number, staleSeconds: number): Promise<boolean> {
    const status = total === 0 ? 'done' : 'running';
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO ${this.table} AS r (business_id, status, total, finished_at)
       VALUES ($1, $2, $3, CASE WHEN $2 = 'done' THEN now() END)
       ON CONFLICT (business_id) DO UPDATE SET status = EXCLUDED.status, total = EXCLUDED.total,
         processed = 0, created = 0, started_at = now(), finished_at = EXCLUDED.finished_at
       WHERE r.status <> 'running' OR r.started_at < now() - make_interval(secs => $4)
       RETURNING 1`,
      [scope.businessId, status, total, staleSeconds],
    );
    return rows.length > 0;
  }

  /** Adds one batch to the running run's counts, in the batch's own transaction. */
  async recordProgress(
    scope: BusinessScope,
    manager: EntityManager,
    processed: number,
    created: number,
  ): Promise<void> {
    await manager.query(
      `UPDATE ${this.table} SET processed = processed + $2, created = created + $3
       WHERE business_id = $1 AND status = 'running'`,
      [scope.businessId, processed, created],
    );
  }

  /** Sets the running run's counts back to 0 (a retried attempt that goes through it again). */
  async resetProgress(scope: BusinessScope): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.table} SET processed = 0, created = 0
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
