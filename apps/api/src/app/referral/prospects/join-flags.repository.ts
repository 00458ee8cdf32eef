import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BusinessScope } from '../../platform/database/business-scope';
import { pageOfRows } from '../../platform/database/page-rows';
import { referredFields } from './prospects.repository';

/** An open flagged join with the name of the member whose link was used. */
export interface JoinFlagSummary {
  id: string;
  name: string;
  email: string;
  referringMemberId: string;
  referringMemberName: string;
  reasons: string[];
  attempts: number;
  createdAt: Date;
  lastAttemptAt: Date;
}

interface JoinFlagSqlRow {
  id: string;
  name: string;
  email: string;
  referring_member_id: string;
  referring_member_name: string;
  reasons: string[];
  attempts: number;
  created_at: Date;
  last_attempt_at: Date;
  total: number;
}

/**
 * The owner's side of the `join_flags` table (joins answered like any other but not queued; see
 * migration JoinFlags). TENANCY: every method takes the session's `BusinessScope` first and every
 * statement filters on its business. Flags are written only by the public join's statement (`ReferralLinksRepository.join`).
 */
@Injectable()
export class JoinFlagsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One page of the business's open (not dismissed) flags, oldest first, and their number, in ONE statement. */
  async findOpenPage(
    { businessId }: BusinessScope,
    query: { offset: number; limit: number },
  ): Promise<{ rows: JoinFlagSummary[]; total: number }> {
    const rows: JoinFlagSqlRow[] = await this.dataSource.query(
      `SELECT f.id, f.name, f.email, f.referring_member_id, m.name AS referring_member_name, f.reasons, f.attempts,
         f.created_at, f.last_attempt_at,
         (SELECT count(*)::int FROM join_flags WHERE business_id = $1 AND dismissed_at IS NULL) AS total
       FROM join_flags f
       JOIN members m ON m.id = f.referring_member_id AND m.business_id = $1
       WHERE f.business_id = $1 AND f.dismissed_at IS NULL
       ORDER BY f.created_at, f.id
       LIMIT $2 OFFSET $3`,
      [businessId, query.limit, query.offset],
    );
    const countAll = async () => {
      const [count] = (await this.dataSource.query(
        `SELECT count(*)::int AS total FROM join_flags WHERE business_id = $1 AND dismissed_at IS NULL`,
        [businessId],
      )) as { total: number }[];
      return count?.total ?? 0;
    };
    return pageOfRows(rows, query.offset, countAll, (row) => ({
      ...referredFields(row),
      reasons: row.reasons,
      attempts: row.attempts,
      createdAt: row.created_at,
      lastAttemptAt: row.last_attempt_at,
    }));
  }

  /**
   * Dismisses an open flag of this business (sets `dismissed_at`; the row stays as history).
   * @returns false when there is no open flag with this id in this business
   */
  async dismiss({ businessId }: BusinessScope, id: string): Promise<boolean> {
    const [{ n }] = (await this.dataSource.query(
      `WITH dismissed AS (
         UPDATE join_flags SET dismissed_at = now() WHERE business_id = $1 AND id = $2 AND dismissed_at IS NULL RETURNING 1
       )
       SELECT count(*)::int AS n FROM dismissed`,
      [businessId, id],
    )) as { n: number }[];
    return n > 0;
  }
}
