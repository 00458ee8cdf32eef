import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { BackgroundRunsTable } from '../../platform/database/background-runs';
import type { BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';
import { liveReferralLink } from '../../platform/database/live-referral-link.sql';

/** A link created for a member: ids for the lifecycle facts, code and name for the audit log. */
export interface CreatedLink {
  linkId: string;
  memberId: string;
  memberName: string;
  code: string;
}

/**
 * SQL: member `m` has no live link (none unrevoked, or only an expired one). The subquery is
 * fenced by OFFSET 0, so it stays a per-member probe of referral_links_live_member_key: as an
 * anti-join, statistics not yet refreshed after a large import (a business's members counted as
 * a few) made the planner rescan the business's links once per member.
 */
const WITHOUT_LIVE_LINK = `NOT EXISTS (
  SELECT 1 FROM referral_links l
  WHERE l.member_id = m.id AND l.business_id = m.business_id AND ${liveReferralLink()} OFFSET 0)`;

/**
 * Bulk and automatic referral links (issue 14 part 4): the business's automatic-link setting
 * (`businesses.auto_referral_links`), its 'links for all' run (`referral_link_runs`) and the
 * statements that give many members a link at once. Every method takes the `BusinessScope` first
 * and filters on its business; methods that run inside a caller's transaction take its manager.
 * Single links, rotation and revocation stay with `ReferralLinksRepository`.
 */
@Injectable()
export class LinksForEveryoneRepository {
  /** The business's latest 'links for all' run (`referral_link_runs`). */
  readonly runs: BackgroundRunsTable;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.runs = new BackgroundRunsTable(dataSource, 'referral_link_runs');
  }

  /** Whether new members of this business get a link at once. */
  async autoLinksOn(scope: BusinessScope, manager?: EntityManager): Promise<boolean> {
    const rows: { on: boolean }[] = await (manager ?? this.dataSource.manager).query(
      `SELECT auto_referral_links AS on FROM businesses WHERE id = $1`,
      [scope.businessId],
    );
    return rows[0]?.on === true;
  }

  /** Turns automatic links on or off for this business in `manager`'s transaction. */
  async setAutoLinks(scope: BusinessScope, manager: EntityManager, on: boolean): Promise<void> {
    await manager.query(`UPDATE businesses SET auto_referral_links = $2 WHERE id = $1`, [
      scope.businessId,
      on,
    ]);
  }

  /** How many members of this business have no live link. */
  async countWithoutLink(scope: BusinessScope): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM members m WHERE m.business_id = $1 AND ${WITHOUT_LIVE_LINK}`,
      [scope.businessId],
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  /**
   * Up to `limit` members of this business without a live link, oldest first, after the
   * (created_at, id) `after` cursor; with `since`, only members added at or after it.
   */
  async membersWithoutLink(
    scope: BusinessScope,
    options: {
      limit: number;
      after?: { createdAt: Date; id: string } | null;
      since?: Date;
    },
  ): Promise<{ id: string; createdAt: Date }[]> {
    const params: unknown[] = [scope.businessId, options.limit];
    let filter = '';
    if (options.after) {
      params.push(options.after.createdAt, options.after.id);
      filter += ` AND (m.created_at, m.id) > ($${params.length - 1}, $${params.length}::uuid)`;
    }
    if (options.since) {
      params.push(options.since);
      filter += ` AND m.created_at >= $${params.length}`;
    }
    const rows: { id: string; created_at: Date }[] = await this.dataSource.query(
      `SELECT m.id, m.created_at FROM members m
       WHERE m.business_id = $1 AND ${WITHOUT_LIVE_LINK} ${filter}
       ORDER BY m.created_at, m.id LIMIT $2`,
      params,
    );
    return rows.map((row) => ({ id: row.id, createdAt: row.created_at }));
  }

  /**
   * Gives each of `memberIds` (members of this business) that has no live link a new one with
   * the matching code of `codes` (two statements, in the caller's transaction): an expired,
   * unrevoked link of theirs is revoked first; a member that got a live link meanwhile (a click on 'Create link') is skipped
   * (`referral_links_live_member_key`), as is an id that is not a member of this business.
   * @param codes one unguessable code per member id, same order
   * @returns the links created
   */
  async createMissing(
    scope: BusinessScope,
    manager: EntityManager,
    memberIds: string[],
    codes: string[],
  ): Promise<CreatedLink[]> {
    if (memberIds.length === 0) return [];
    await manager.query(
      `UPDATE referral_links SET revoked_at = now()
       WHERE business_id = $1 AND member_id = ANY($2::uuid[]) AND revoked_at IS NULL
         AND expires_at IS NOT NULL AND expires_at <= now()`,
      [scope.businessId, memberIds],
    );
    const rows: { id: string; member_id: string; name: string; code: string }[] =
      await manager.query(
        `WITH created AS (
           INSERT INTO referral_links (business_id, member_id, code)
           SELECT $1, m.id, i.code
           FROM unnest($2::uuid[], $3::text[]) AS i(member_id, code)
           JOIN members m ON m.id = i.member_id AND m.business_id = $1
           ON CONFLICT (member_id) WHERE revoked_at IS NULL DO NOTHING
           RETURNING id, member_id, code)
         SELECT c.id, c.member_id, c.code, m.name
         FROM created c JOIN members m ON m.id = c.member_id AND m.business_id = $1`,
        [scope.businessId, memberIds, codes],
      );
    return rows.map((row) => ({
      linkId: row.id,
      memberId: row.member_id,
      memberName: row.name,
      code: row.code,
    }));
  }

  /** The database's clock (a run's or an import's start, compared with `members.created_at`). */
  async now(): Promise<Date> {
    const [row] = (await this.dataSource.query(`SELECT now() AS now`)) as { now: Date }[];
    return row?.now ?? new Date();
  }

  /**
   * Runs `work` in one transaction (`runTransaction`: a deadlock or serialization failure runs it
   * once more, so it must only use the manager it receives).
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
