import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * A table's retention rule: its rows matching `expired` (an SQL condition on that table alone,
 * with no parameters; a constant of Grove's, never input) are deleted by the daily sweep.
 */
export interface RetentionRule {
  table: string;
  expired: string;
}

/** The retention sweep's one statement (`platform/jobs/retention.ts`). */
@Injectable()
export class RetentionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Deletes at most `limit` rows of `rule.table` matching `rule.expired`.
   * @returns how many rows were deleted
   */
  async deleteExpired(rule: RetentionRule, limit: number): Promise<number> {
    const [row] = (await this.dataSource.query(
      `WITH gone AS (
         DELETE FROM ${rule.table} WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM ${rule.table} WHERE ${rule.expired} LIMIT ${Math.trunc(limit)}))
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
    )) as { n: number }[];
    return row?.n ?? 0;
  }
}
