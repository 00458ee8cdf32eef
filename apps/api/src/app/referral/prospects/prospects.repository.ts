import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { IntegrationName, JoinSignal, ProspectRow } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { pageOfRows } from '../../platform/database/page-rows';
import { PreparedReads, preparedStatement } from '../../platform/database/prepared-query';
import { runTransaction } from '../../platform/database/transaction';
import { approvalPrefillColumns } from '../../membership/pricing/price.sql';
import { ProspectEntity } from './prospect.entity';

/** The SQL columns of someone who joined through a referral link (a prospect or a flagged join). */
export interface ReferredSqlRow {
  id: string;
  name: string;
  email: string;
  referring_member_id: string;
  referring_member_name: string;
}

/** The camel-case fields of a {@link ReferredSqlRow}. */
export function referredFields(row: ReferredSqlRow) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    referringMemberId: row.referring_member_id,
    referringMemberName: row.referring_member_name,
  };
}

interface ProspectSqlRow {
  id: string;
  name: string;
  email: string;
  referring_member_id: string | null;
  referring_member_name: string | null;
  referred_by_note: string | null;
  source: string | null;
  flags: string[];
  created_at: Date;
  prefill_price_cents: number | null;
  prefill_discount_cents: number | null;
  total: number;
}

/** The integration that manages a prospect (its `source`), or null for Grove's own. */
const toIntegration = (source: string | null): IntegrationName | null =>
  source === 'Mindbody' ? 'Mindbody' : null;

/**
 * One row of the Prospective Members screen straight from its SQL row (one object per row: the
 * page's rows were mapped twice, docs/decisions/prospects-page-floor.md). The approval prefill
 * is in cents, null when nothing is known (`approvalPrefillColumns`).
 */
function toProspectRow(row: ProspectSqlRow): ProspectRow {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    referringMemberId: row.referring_member_id,
    referringMemberName: row.referring_member_name,
    referredByNote: row.referred_by_note,
    managedByIntegration: toIntegration(row.source),
    flags: row.flags as JoinSignal[],
    createdAt: row.created_at.toISOString(),
    approvalPrefill: {
      membershipPriceCents: row.prefill_price_cents,
      discountCents: row.prefill_discount_cents,
    },
  };
}

/**
 * The prospects page: `$1` business, `$2` page size, `$3` offset. Each row carries its approval
 * prefill (`approvalPrefillColumns`) from its referrer's row, read by the same primary-key lookup
 * as the referrer's name, whether that referrer is billed on the business's Stripe (a join `sb`,
 * one probe of the subscriptions' unique index per page row, fenced as the referrer's), and the
 * business's default price, Mindbody and Stripe discounts (InitPlans, read once per statement, not
 * per row: docs/decisions/list-pages-against-their-own-sql.md, section 4).
 */
const PROSPECT_PAGE = preparedStatement(
  `SELECT p.id, p.name, p.email, p.referring_member_id, m.name AS referring_member_name, p.referred_by_note, p.source, p.flags, p.created_at,
     ${approvalPrefillColumns('m', '$1', '(sb.billed IS NOT NULL)')},
     (SELECT prospect_count FROM businesses WHERE id = $1) AS total
   FROM (SELECT id, name, email, referring_member_id, referred_by_note, source, flags, created_at FROM prospects
         WHERE business_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3) p
   LEFT JOIN LATERAL (
     SELECT m.id, m.business_id, m.name, m.membership_price_cents, m.discount_cents, m.mindbody_client_id,
       m.mindbody_cancelled_at, m.mindbody_priced_at, m.mindbody_autopay_cents
     FROM members m
     WHERE m.id = p.referring_member_id AND m.business_id = $1 OFFSET 0) m ON true
   LEFT JOIN LATERAL (
     SELECT true AS billed FROM stripe_member_subscriptions s
     WHERE s.business_id = $1 AND s.member_id = m.id AND m.mindbody_client_id IS NULL OFFSET 0) sb ON true
   ORDER BY p.created_at, p.id`,
);

/**
 * The owner's way to the `prospects` table (a referral join queues prospects in its one statement,
 * `ReferralLinksRepository.join`). TENANCY: every method takes the `BusinessScope` first and
 * every statement filters on its business. Methods that change data take the transaction's EntityManager.
 */
@Injectable()
export class ProspectsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reads: PreparedReads,
  ) {}

  /**
   * One page of the business's prospects (oldest first), each with its approval prefill, and
   * their number, in ONE named prepared
   * statement with a generic plan (`PreparedReads`). The number is the trigger-kept
   * `businesses.prospect_count` (migration `BusinessProspectCount`), one row read instead of
   * counting the business's prospects. The page is cut first (a walk of
   * prospects_business_created_idx) and only its rows look up their referring member's name (a
   * LATERAL subquery fenced by OFFSET 0, by primary key): joined before the LIMIT, the planner
   * hash-joined every member of the business on every request
   * (docs/decisions/business-led-list-indexes.md). The prefill is computed in the same statement
   * (docs/decisions/prospects-page-floor.md: reading the referrers' member rows and branches in
   * two more statements, plus the defaults in a third, was most of the page's cost). Each SQL row
   * becomes its screen row in one step (`toProspectRow`).
   * @returns the page's rows as the screen shows them (`ProspectRow`) and the list's size
   */
  async findPage(
    { businessId }: BusinessScope,
    query: { offset: number; limit: number },
  ): Promise<{ rows: ProspectRow[]; total: number }> {
    const rows = await this.reads.query<ProspectSqlRow>(PROSPECT_PAGE, [
      businessId,
      query.limit,
      query.offset,
    ]);
    const countAll = async () => {
      const [count] = (await this.dataSource.query(
        `SELECT prospect_count AS total FROM businesses WHERE id = $1`,
        [businessId],
      )) as { total: number }[];
      return count?.total ?? 0;
    };
    return pageOfRows(rows, query.offset, countAll, toProspectRow);
  }

  /**
   * What approving one prospect of this business starts from (its `approvalPrefill`, cents; null
   * = nothing known), computed as the prospects page does (`approvalPrefillColumns`); null when
   * the business has no such prospect.
   */
  async approvalPrefillOf(
    { businessId }: BusinessScope,
    id: string,
  ): Promise<{ membershipPriceCents: number | null; discountCents: number | null } | null> {
    const [row] = (await this.dataSource.query(
      `SELECT ${approvalPrefillColumns('m', '$1')}
         FROM prospects p LEFT JOIN members m ON m.id = p.referring_member_id AND m.business_id = $1
        WHERE p.business_id = $1 AND p.id = $2`,
      [businessId, id],
    )) as { prefill_price_cents: number | null; prefill_discount_cents: number | null }[];
    return row
      ? { membershipPriceCents: row.prefill_price_cents, discountCents: row.prefill_discount_cents }
      : null;
  }

  /** Reads one prospect (no lock); null when not in this business. */
  findOne({ businessId }: BusinessScope, id: string): Promise<ProspectEntity | null> {
    return this.dataSource.getRepository(ProspectEntity).findOne({ where: { businessId, id } });
  }

  /** Reads one prospect and locks its row until the transaction ends; null when not in this business. */
  findForUpdate(
    { businessId }: BusinessScope,
    manager: EntityManager,
    id: string,
  ): Promise<ProspectEntity | null> {
    return manager
      .getRepository(ProspectEntity)
      .findOne({ where: { businessId, id }, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * Deletes a prospect of this business the owner decided on, keeping what the member profile's
   * 'Joined through their link' shows of it in `prospect_outcomes` (name, email, when it joined,
   * the outcome, the new member's id when approved), in one statement of `manager`'s transaction.
   * @param outcome 'approved' with the member it became, or 'removed'
   * @returns false when there was none
   */
  async delete(
    { businessId }: BusinessScope,
    manager: EntityManager,
    id: string,
    outcome: { kind: 'approved'; memberId: string } | { kind: 'removed' },
  ): Promise<boolean> {
    const rows: { prospect_id: string }[] = await manager.query(
      `WITH gone AS (
         DELETE FROM prospects WHERE business_id = $1 AND id = $2
         RETURNING id, business_id, referring_member_id, name, email, created_at)
       INSERT INTO prospect_outcomes
         (prospect_id, business_id, referring_member_id, member_id, name, email, joined_at, outcome)
       SELECT id, business_id, referring_member_id, $3::uuid, name, email, created_at, $4 FROM gone
       RETURNING prospect_id`,
      [businessId, id, outcome.kind === 'approved' ? outcome.memberId : null, outcome.kind],
    );
    return rows.length > 0;
  }

  /** Runs `work` in one transaction; use only the manager it receives. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
