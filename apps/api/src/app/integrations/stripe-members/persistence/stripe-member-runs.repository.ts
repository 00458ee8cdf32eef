import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BusinessScope } from '../../../platform/database/business-scope';

/** What a Stripe run is: the import of the gym's customers, or the owner's confirmed sync. */
export type StripeRunKind = 'import' | 'sync';

/** What a run did (counts); the import's or the sync's fields. */
export interface StripeRunResult {
  listed?: number;
  membersWritten?: number;
  ended?: number;
  billsWritten?: number;
}

/** A business's latest Stripe run (`stripe_member_runs`, migration StripeMemberRuns). */
export interface StripeRun {
  runId: string;
  kind: StripeRunKind;
  state: 'running' | 'done' | 'failed';
  /** Subscriptions listed so far (import) or bills written so far (sync). */
  done: number;
  /** What the run goes through, null while unknown (Stripe's listing has no count). */
  total: number | null;
  result: StripeRunResult | null;
  /** The failure's message for the owner, null unless failed. */
  error: string | null;
  /** A sync's confirmed bills: member id → new cents (null for an import). */
  confirmed: Record<string, number> | null;
  startedAt: Date;
  finishedAt: Date | null;
}

interface StripeRunSqlRow {
  run_id: string;
  kind: StripeRunKind;
  state: StripeRun['state'];
  done: number;
  total: number | null;
  result: StripeRunResult | null;
  error: string | null;
  confirmed: Record<string, number> | null;
  started_at: Date;
  finished_at: Date | null;
}

/**
 * The statements of `stripe_member_runs`: a business's latest Stripe import or sync run, one row a
 * business (issue 32: both run as jobs with progress, as Mindbody's do). Every method takes the
 * `BusinessScope` first and touches that business's row only.
 */
@Injectable()
export class StripeMemberRunsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The business's latest run, or null when it never ran one. */
  async find(scope: BusinessScope): Promise<StripeRun | null> {
    const rows: StripeRunSqlRow[] = await this.dataSource.query(
      `SELECT run_id, kind, state, done, total, result, error, confirmed, started_at, finished_at
         FROM stripe_member_runs WHERE business_id = $1`,
      [scope.businessId],
    );
    const row = rows[0];
    return row
      ? {
          runId: row.run_id,
          kind: row.kind,
          state: row.state,
          done: row.done,
          total: row.total,
          result: row.result,
          error: row.error,
          confirmed: row.confirmed,
          startedAt: row.started_at,
          finishedAt: row.finished_at,
        }
      : null;
  }

  /**
   * Starts run `runId` unless one is running that started less than `staleSeconds` ago (one
   * statement: two clicks at once start one run; a run a crash left 'running' past its job's
   * expiry is taken as lost).
   * @param confirmed a sync's confirmed bills (member id → new cents); null for an import
   * @returns true when this call started it
   */
  async start(
    scope: BusinessScope,
    runId: string,
    kind: StripeRunKind,
    confirmed: Record<string, number> | null,
    total: number | null,
    staleSeconds: number,
  ): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO stripe_member_runs AS r (business_id, run_id, kind, state, total, confirmed)
       VALUES ($1, $2, $3, 'running', $4, $5::jsonb)
       ON CONFLICT (business_id) DO UPDATE SET run_id = EXCLUDED.run_id, kind = EXCLUDED.kind,
         state = 'running', done = 0, total = EXCLUDED.total, result = NULL, error = NULL,
         confirmed = EXCLUDED.confirmed, started_at = now(), finished_at = NULL
       WHERE r.state <> 'running' OR r.started_at < now() - make_interval(secs => $6)
       RETURNING 1`,
      [
        scope.businessId,
        runId,
        kind,
        total,
        confirmed === null ? null : JSON.stringify(confirmed),
        staleSeconds,
      ],
    );
    return rows.length > 0;
  }

  /** Sets run `runId`'s progress (while it runs): `done` so far, and `total` when known. */
  async progress(
    scope: BusinessScope,
    runId: string,
    done: number,
    total: number | null,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE stripe_member_runs SET done = $3, total = COALESCE($4, total)
        WHERE business_id = $1 AND run_id = $2 AND state = 'running'`,
      [scope.businessId, runId, done, total],
    );
  }

  /** Ends run `runId`: 'done' with its result, or 'failed' with the owner's message. */
  async finish(
    scope: BusinessScope,
    runId: string,
    outcome: { state: 'done'; result: StripeRunResult } | { state: 'failed'; error: string },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE stripe_member_runs SET state = $3, result = $4::jsonb, error = $5, finished_at = now(),
              total = CASE WHEN $3 = 'done' THEN COALESCE(total, done) ELSE total END
        WHERE business_id = $1 AND run_id = $2 AND state = 'running'`,
      [
        scope.businessId,
        runId,
        outcome.state,
        outcome.state === 'done' ? JSON.stringify(outcome.result) : null,
        outcome.state === 'failed' ? outcome.error : null,
      ],
    );
  }

  /** Forgets the business's runs (the integration removed). */
  async forget(scope: BusinessScope): Promise<void> {
    await this.dataSource.query(`DELETE FROM stripe_member_runs WHERE business_id = $1`, [
      scope.businessId,
    ]);
  }
}
