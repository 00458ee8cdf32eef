import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import type { DataExportState } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';
import type { ExportFile } from './export-files';

/** One export row as the API reads it. */
export interface StoredExport {
  id: string;
  state: DataExportState;
  doneSteps: number;
  totalSteps: number;
  sizeBytes: number;
  error: string | null;
  jobId: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  expiresAt: Date | null;
}

const EXPORT_COLUMNS = `id, state, done_steps, total_steps, size_bytes, error, job_id, created_at,
  finished_at, expires_at, (state = 'done' AND expires_at <= now()) AS expired`;

interface ExportRow {
  id: string;
  state: DataExportState;
  done_steps: number;
  total_steps: number;
  size_bytes: string;
  error: string | null;
  job_id: string | null;
  created_at: Date;
  finished_at: Date | null;
  expires_at: Date | null;
  expired: boolean;
}

function toExport(row: ExportRow): StoredExport {
  return {
    id: row.id,
    state: row.expired ? 'expired' : row.state,
    doneSteps: row.done_steps,
    totalSteps: row.total_steps,
    sizeBytes: Number(row.size_bytes),
    error: row.error,
    jobId: row.job_id,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    expiresAt: row.expires_at,
  };
}

/**
 * A read-only snapshot of one business's rows for the export: every file's SELECT runs in ONE
 * REPEATABLE READ transaction, so the files agree with each other, and is read through a cursor
 * 1,000 rows at a time (memory stays flat for any size). Release it with `close`.
 */
export class ExportSnapshot {
  private cursors = 0;

  constructor(
    private readonly runner: QueryRunner,
    private readonly scope: BusinessScope,
  ) {}

  /** True when the table exists (an optional file such as `audit_log`). */
  async hasTable(table: string): Promise<boolean> {
    const rows: { found: boolean }[] = await this.runner.query(
      `SELECT to_regclass($1) IS NOT NULL AS found`,
      [table],
    );
    return rows[0]?.found === true;
  }

  /** The file's rows, each an object by column name, 1,000 fetched at a time. */
  async *rows(file: ExportFile): AsyncGenerator<Record<string, unknown>> {
    const cursor = `export_${++this.cursors}`;
    // The cursor's statement is the file's own SELECT (constant text), bound to the scope's business.
    await this.runner.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${file.sql}`, [
      this.scope.businessId,
    ]);
    for (;;) {
      const batch: Record<string, unknown>[] = await this.runner.query(`FETCH 1000 FROM ${cursor}`);
      yield* batch;
      if (batch.length < 1000) break;
    }
    await this.runner.query(`CLOSE ${cursor}`);
  }

  /** Ends the snapshot's transaction and returns its connection. */
  async close(): Promise<void> {
    try {
      if (this.runner.isTransactionActive) await this.runner.rollbackTransaction();
    } finally {
      await this.runner.release();
    }
  }
}

/**
 * The only way to `business_exports` and `business_export_chunks`, and the export's read-only
 * snapshot of the business's tables (issue 34 item 6). Every method takes the `BusinessScope`
 * first (the expiry sweep is for every business, by time only).
 */
@Injectable()
export class DataExportRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }

  /** Exports the business started in the last 24 hours (every state), for the daily limit. */
  async countStartedToday(scope: BusinessScope, manager: EntityManager): Promise<number> {
    // Serialises starts of one business, so two requests cannot both pass the limit.
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('export:' || $1, 0))`, [
      scope.businessId,
    ]);
    const rows: { count: string }[] = await manager.query(
      `SELECT count(*) AS count FROM business_exports
        WHERE business_id = $1 AND created_at > now() - interval '24 hours'`,
      [scope.businessId],
    );
    return Number(rows[0]?.count ?? 0);
  }

  /**
   * Records a queued export; null when one is already queued or running (the unique index).
   */
  async create(
    scope: BusinessScope,
    manager: EntityManager,
    values: { requestedBy: string; jobId: string; totalSteps: number },
  ): Promise<string | null> {
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO business_exports (business_id, requested_by, job_id, total_steps)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (business_id) WHERE state IN ('queued', 'running') DO NOTHING
       RETURNING id`,
      [scope.businessId, values.requestedBy, values.jobId, values.totalSteps],
    );
    return rows[0]?.id ?? null;
  }

  /** One export of the business, or null. */
  async find(scope: BusinessScope, id: string): Promise<StoredExport | null> {
    const rows: ExportRow[] = await this.dataSource.query(
      `SELECT ${EXPORT_COLUMNS} FROM business_exports WHERE business_id = $1 AND id = $2`,
      [scope.businessId, id],
    );
    return rows[0] ? toExport(rows[0]) : null;
  }

  /** The business's latest exports, newest first. */
  async latest(scope: BusinessScope, limit: number): Promise<StoredExport[]> {
    const rows: ExportRow[] = await this.dataSource.query(
      `SELECT ${EXPORT_COLUMNS} FROM business_exports WHERE business_id = $1
        ORDER BY created_at DESC, id LIMIT $2`,
      [scope.businessId, limit],
    );
    return rows.map(toExport);
  }

  /** The business's name (for README.txt). */
  async businessName(scope: BusinessScope): Promise<string> {
    const rows: { name: string }[] = await this.dataSource.query(
      `SELECT name FROM businesses WHERE id = $1`,
      [scope.businessId],
    );
    return rows[0]?.name ?? '';
  }

  /** Sets an export's state and progress (its own statement, so polls see it). */
  async setProgress(
    scope: BusinessScope,
    id: string,
    progress: {
      state: 'running' | 'done' | 'failed';
      doneSteps: number;
      totalSteps?: number;
      sizeBytes?: number;
      error?: string;
      expiresInSeconds?: number;
    },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE business_exports
          SET state = $3, done_steps = $4, total_steps = COALESCE($5, total_steps),
              size_bytes = COALESCE($6, size_bytes), error = $7,
              finished_at = CASE WHEN $3 IN ('done', 'failed') THEN now() END,
              expires_at = CASE WHEN $8::int IS NULL THEN NULL ELSE now() + make_interval(secs => $8::int) END
        WHERE business_id = $1 AND id = $2`,
      [
        scope.businessId,
        id,
        progress.state,
        progress.doneSteps,
        progress.totalSteps ?? null,
        progress.sizeBytes ?? null,
        progress.error ?? null,
        progress.expiresInSeconds ?? null,
      ],
    );
  }

  /** Stores the next piece of an export's ZIP (`seq` from 0). */
  async appendChunk(scope: BusinessScope, id: string, seq: number, data: Buffer): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO business_export_chunks (export_id, seq, data)
       SELECT id, $3, $4 FROM business_exports WHERE business_id = $1 AND id = $2`,
      [scope.businessId, id, seq, data],
    );
  }

  /** One piece of a finished, unexpired export's ZIP, or null past its last. */
  async chunk(scope: BusinessScope, id: string, seq: number): Promise<Buffer | null> {
    const rows: { data: Buffer }[] = await this.dataSource.query(
      `SELECT c.data FROM business_export_chunks c
         JOIN business_exports e ON e.id = c.export_id
        WHERE e.business_id = $1 AND e.id = $2 AND e.state = 'done' AND e.expires_at > now()
          AND c.seq = $3`,
      [scope.businessId, id, seq],
    );
    return rows[0]?.data ?? null;
  }

  /** Deletes the pieces of an export (a failed one's). */
  async deleteChunks(scope: BusinessScope, id: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM business_export_chunks c USING business_exports e
        WHERE e.id = c.export_id AND e.business_id = $1 AND e.id = $2`,
      [scope.businessId, id],
    );
  }

  /**
   * Deletes the files of every expired export, of every business (the hourly sweep); the rows
   * stay, for the daily limit and the owner's list.
   * @returns how many exports' files were deleted
   */
  async deleteExpiredFiles(): Promise<number> {
    const rows: { export_id: string }[] = await this.dataSource.query(
      `WITH gone AS (
         DELETE FROM business_export_chunks c USING business_exports e
          WHERE e.id = c.export_id AND e.expires_at <= now()
          RETURNING c.export_id)
       SELECT export_id FROM gone`,
    );
    return new Set(rows.map((row) => row.export_id)).size;
  }

  /** Opens the read-only snapshot the export's files are read from. */
  async snapshot(scope: BusinessScope): Promise<ExportSnapshot> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction('REPEATABLE READ');
      await runner.query('SET TRANSACTION READ ONLY');
    } catch (error) {
      await runner.release();
      throw error;
    }
    return new ExportSnapshot(runner, scope);
  }
}
