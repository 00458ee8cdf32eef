import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { MemberStatus, PriceChangeReason, ProfileProspectStatus } from '@grove/contracts';
import { branchStateColumns } from '../../membership/pricing/price.sql';
import { memberStatus } from '../../membership/members/member-row';
import type { BusinessScope } from '../../platform/database/business-scope';

/** A member of a referral tree as read: `parentId` is the member whose branch it is. */
export interface TreeMemberRow {
  id: string;
  parentId: string;
  name: string;
  joinedAt: Date;
  /** 1 = a branch of the profile's member, 2 = a branch's branch, … */
  depth: number;
  /** How many branches this member has in all (drawn or not). */
  branchCount: number;
  /** Whether it counts as its parent's branch now, or why not (docs/product.md#states). */
  status: MemberStatus;
}

/** One price change as read (cents). */
export interface LedgerRow {
  occurredAt: Date;
  reason: PriceChangeReason;
  oldPriceCents: number | null;
  newPriceCents: number;
  branchName: string | null;
}

/**
 * The reads of the member profile (issue 14 part 3): the member's own dates and referrer, their
 * referral tree, price ledger and waiting prospects. Read only; every statement filters on the
 * `BusinessScope`'s business, so another business's member reads as absent.
 */
@Injectable()
export class MemberProfileRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** When the member joined and whose branch they are; null when not a member of this business. */
  async findOrigin(
    scope: BusinessScope,
    memberId: string,
  ): Promise<{ joinedAt: Date; referredBy: { id: string; name: string } | null } | null> {
    const rows: { created_at: Date; referrer_id: string | null; referrer_name: string | null }[] =
      await this.dataSource.query(
        `SELECT m.created_at, r.id AS referrer_id, r.name AS referrer_name
         FROM members m
         LEFT JOIN members r ON r.id = m.referred_by_id AND r.business_id = m.business_id
         WHERE m.business_id = $1 AND m.id = $2`,
        [scope.businessId, memberId],
      );
    const row = rows[0];
    if (!row) return null;
    return {
      joinedAt: row.created_at,
      referredBy:
        row.referrer_id !== null && row.referrer_name !== null
          ? { id: row.referrer_id, name: row.referrer_name }
          : null,
    };
  }

  /**
   * The member's referral tree, breadth first (one recursive statement through
   * members_referred_by_idx): their branches, the branches' branches, … down to `maxDepth`
   * levels and at most `maxNodes` members, each level oldest first. A member already on the path
   * is not followed again (a referral loop cannot recurse).
   */
  async findTree(
    scope: BusinessScope,
    memberId: string,
    maxDepth: number,
    maxNodes: number,
  ): Promise<TreeMemberRow[]> {
    const rows: {
      id: string;
      parent_id: string;
      name: string;
      created_at: Date;
      depth: number;
      branch_count: number;
      counting: boolean;
      ended: boolean;
      suspended: boolean;
    }[] = await this.dataSource.query(
      `WITH RECURSIVE tree AS (
         SELECT m.id, m.referred_by_id AS parent_id, m.name, m.created_at, 1 AS depth,
           ARRAY[$2::uuid, m.id] AS path, ${branchStateColumns('m')}
         FROM members m WHERE m.business_id = $1 AND m.referred_by_id = $2 AND m.id <> $2
         UNION ALL
         SELECT m.id, m.referred_by_id, m.name, m.created_at, t.depth + 1, t.path || m.id,
           ${branchStateColumns('m')}
         FROM tree t JOIN members m ON m.business_id = $1 AND m.referred_by_id = t.id
         WHERE t.depth < $3 AND m.id <> ALL (t.path)
       )
       SELECT t.id, t.parent_id, t.name, t.created_at, t.depth, t.counting, t.ended, t.suspended,
         (SELECT count(*) FROM members c WHERE c.business_id = $1 AND c.referred_by_id = t.id)::int
           AS branch_count
       FROM tree t ORDER BY t.depth, t.created_at, t.id LIMIT $4`,
      [scope.businessId, memberId, maxDepth, maxNodes],
    );
    return rows.map((row) => ({
      id: row.id,
      parentId: row.parent_id,
      name: row.name,
      joinedAt: row.created_at,
      depth: row.depth,
      branchCount: row.branch_count,
      status: memberStatus({ isBranch: true, ...row }),
    }));
  }

  /** The member's price ledger (`price_changes`), newest first, at most `limit` lines. */
  async findLedger(scope: BusinessScope, memberId: string, limit: number): Promise<LedgerRow[]> {
    const rows: {
      occurred_at: Date;
      reason: PriceChangeReason;
      old_price_cents: number | null;
      new_price_cents: number;
      branch_name: string | null;
    }[] = await this.dataSource.query(
      `SELECT p.occurred_at, p.reason, p.old_price_cents, p.new_price_cents, b.name AS branch_name
       FROM price_changes p
       LEFT JOIN members b ON b.id = p.branch_id AND b.business_id = p.business_id
       WHERE p.business_id = $1 AND p.member_id = $2
       ORDER BY p.occurred_at DESC, p.id DESC LIMIT $3`,
      [scope.businessId, memberId, limit],
    );
    return rows.map((row) => ({
      occurredAt: row.occurred_at,
      reason: row.reason,
      oldPriceCents: row.old_price_cents,
      newPriceCents: row.new_price_cents,
      branchName: row.branch_name,
    }));
  }

  /**
   * Everyone who joined through the member's link, newest first, at most `limit`: the prospects
   * still waiting (`prospects`) and those the owner approved or removed (`prospect_outcomes`).
   */
  async findProspects(
    scope: BusinessScope,
    memberId: string,
    limit: number,
  ): Promise<
    {
      id: string;
      name: string;
      email: string | null;
      joinedAt: Date;
      status: ProfileProspectStatus;
      memberId: string | null;
    }[]
  > {
    const rows: {
      id: string;
      name: string;
      email: string | null;
      joined_at: Date;
      status: ProfileProspectStatus;
      member_id: string | null;
    }[] = await this.dataSource.query(
      `SELECT id, name, email, joined_at, status, member_id FROM (
         SELECT p.id, p.name, p.email, p.created_at AS joined_at, 'waiting' AS status,
                NULL::uuid AS member_id
           FROM prospects p
          WHERE p.business_id = $1 AND p.referring_member_id = $2
         UNION ALL
         SELECT o.prospect_id, o.name, o.email, o.joined_at, o.outcome, o.member_id
           FROM prospect_outcomes o
          WHERE o.business_id = $1 AND o.referring_member_id = $2) j
        ORDER BY joined_at DESC, id LIMIT $3`,
      [scope.businessId, memberId, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      joinedAt: row.joined_at,
      status: row.status,
      memberId: row.member_id,
    }));
  }
}
