import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { BranchQualificationRule, BranchSettings } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';
import { countingBranch, effectivePrice, lastPrice } from '../pricing/price.sql';

/** A branch whose counting changed in a refresh, and its referrer (`referrerId`). */
export interface BranchChange {
  branchId: string;
  friendName: string;
  referrerId: string;
}

/** What one refresh changed, by kind (see `BranchQualificationRepository.applyRule`). */
export interface BranchChanges {
  /** Pending branches that started counting under the rule. */
  started: BranchChange[];
  /** Counting branches whose Mindbody membership has since ended or been suspended. */
  lapsed: BranchChange[];
  /** Lapsed branches that count again (suspension lifted). */
  resumed: BranchChange[];
}

type ChangeRow = { id: string; name: string; referred_by_id: string };

const toChange = (row: ChangeRow): BranchChange => ({
  branchId: row.id,
  friendName: row.name,
  referrerId: row.referred_by_id,
});

/**
 * SQL: the moment branch row `b` starts counting under the business `bz`'s rule, as of `asOf`;
 * NULL (pending) for a friend of a Mindbody member whose own Mindbody client does not exist yet
 * (approved through the member's link: it counts once an import or sync matches its client,
 * migration BranchesOfMindbodyMembers). A branch billed on the business's Stripe (itself or its
 * referrer, `stripe_billed_branch`) follows the first payment rule with its subscription's first
 * paid invoice (`stripe_first_paid_at`, migration StripeMemberWebhooks).
 */
const countingStart = (asOf: string): string =>
  `CASE WHEN b.mindbody_client_id IS NULL AND EXISTS (
       SELECT 1 FROM members r WHERE r.id = b.referred_by_id AND r.mindbody_client_id IS NOT NULL)
     THEN NULL
     ELSE branch_counting_start(bz.branch_qualification, bz.branch_qualification_days, b.created_at,
       b.mindbody_client_id IS NOT NULL OR stripe_billed_branch(b.business_id, b.id, b.referred_by_id),
       COALESCE(b.mindbody_first_paid_at, stripe_first_paid_at(b.business_id, b.id)), ${asOf}) END`;

/** SQL: branch row `b` (its business `bz` joined) has something for a refresh to do as of `asOf`. */
const needsRefresh = (asOf: string): string => `b.referred_by_id IS NOT NULL AND (
    (b.branch_counting_since IS NULL AND ${countingStart(asOf)} IS NOT NULL)
    OR (b.branch_counting_since IS NOT NULL AND b.branch_lapsed_at IS NULL AND NOT ${countingBranch('b')})
    OR (b.branch_lapsed_at IS NOT NULL AND ${countingBranch('b')}))`;

/**
 * The business's branch qualification rule (`businesses.branch_qualification[_days]`) and the
 * statements that apply it to its branches (`members.branch_counting_since`, `branch_lapsed_at`;
 * migrations BranchQualification and BranchCountingRule). TENANCY: every method but
 * `businessesToRefresh` (a job's list of business ids) takes the `BusinessScope` first and reads
 * or writes only its business.
 */
@Injectable()
export class BranchQualificationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The scope's rule ('approval' when the business is gone). */
  async settings({ businessId }: BusinessScope, manager?: EntityManager): Promise<BranchSettings> {
    const rows: { rule: BranchQualificationRule; days: number | null }[] = await (
      manager ?? this.dataSource
    ).query(
      `SELECT branch_qualification AS rule, branch_qualification_days AS days FROM businesses WHERE id = $1`,
      [businessId],
    );
    return toSettings(rows[0]);
  }

  /**
   * Saves the scope's rule (`days` kept only under 'days') in `manager`'s transaction.
   * @returns it as stored
   */
  async saveSettings(
    { businessId }: BusinessScope,
    manager: EntityManager,
    settings: BranchSettings,
  ): Promise<BranchSettings> {
    const rows: { rule: BranchQualificationRule; days: number | null }[] = await manager.query(
      `WITH saved AS (
           UPDATE businesses SET branch_qualification = $2::text,
             branch_qualification_days = CASE WHEN $2::text = 'days' THEN $3::smallint END
           WHERE id = $1 RETURNING branch_qualification, branch_qualification_days)
         SELECT branch_qualification AS rule, branch_qualification_days AS days FROM saved`,
      [businessId, settings.rule, settings.days],
    );
    return toSettings(rows[0]);
  }

  /**
   * Ids of the businesses with a branch a refresh would change as of `asOf`: a pending branch now
   * due (served by `members_pending_branches_idx`), or a counting branch that lapsed or resumed.
   * Ids only, for the refresh job, which then works on each through its own `jobScope`.
   */
  async businessesToRefresh(asOf: Date): Promise<string[]> {
    const rows: { business_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT b.business_id FROM members b JOIN businesses bz ON bz.id = b.business_id
       WHERE ${needsRefresh('$1::timestamptz')}`,
      [asOf],
    );
    return rows.map((row) => row.business_id);
  }

  /**
   * Runs `work` in one transaction holding the business's branch-qualification advisory lock, so
   * two refreshes of one business never interleave (`runTransaction`: may run twice).
   */
  inBusinessLock<T>(
    scope: BusinessScope,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    return runTransaction(this.dataSource, async (manager) => {
      await manager.query(
        `SELECT pg_advisory_xact_lock(hashtextextended('branch-qualification:' || $1::text, 0))`,
        [scope.businessId],
      );
      return work(manager);
    });
  }

  /**
   * Locks (FOR UPDATE, in id order) the referrers of the scope's branches a refresh as of `asOf`
   * changes, so their ledger lines are written against rows nobody else changes meanwhile.
   * @returns each locked referrer's price as its ledger last recorded it (cents; the effective
   *   price now when it has no ledger, null while unknown), by id: a lapse is seen after the
   *   Mindbody columns changed, so the price before it is the recorded one
   */
  async lockReferrers(
    scope: BusinessScope,
    manager: EntityManager,
    asOf: Date,
  ): Promise<Map<string, number | null>> {
    const rows: { id: string; price: number | null }[] = await manager.query(
      `SELECT r.id, COALESCE(last.price, ${effectivePrice('r')}) AS price FROM members r
       ${lastPrice('r')}
       WHERE r.business_id = $1 AND r.id IN (
         SELECT b.referred_by_id FROM members b JOIN businesses bz ON bz.id = b.business_id
         WHERE b.business_id = $1 AND ${needsRefresh('$2::timestamptz')})
       ORDER BY r.id FOR UPDATE OF r`,
      [scope.businessId, asOf],
    );
    return new Map(rows.map((row) => [row.id, row.price]));
  }

  /**
   * Applies the rule to the branches of the locked `referrerIds` as of `asOf`, in this order:
   * counting branches whose Mindbody membership ended or is suspended lapse (`branch_lapsed_at`);
   * lapsed ones counting again resume; pending ones the rule now lets count start
   * (`branch_counting_since` = the moment they qualified: approval `asOf`, days `created_at + N
   * days`, first payment `mindbody_first_paid_at`). A branch that starts while suspended or ended
   * is marked lapsed at once (it lowers no price; it resumes later).
   * @returns the branches that lapsed, resumed and started counting
   */
  async applyRule(
    scope: BusinessScope,
    manager: EntityManager,
    referrerIds: string[],
    asOf: Date,
  ): Promise<BranchChanges> {
    const params = [scope.businessId, asOf, referrerIds];
    const mine = `b.business_id = $1 AND b.referred_by_id = ANY($3::uuid[])`;
    // Every statement names $2 (the clock), so each parameter's type is known.
    const [lapsed] = (await manager.query(
      `UPDATE members b SET branch_lapsed_at = $2::timestamptz WHERE ${mine}
         AND b.branch_counting_since IS NOT NULL AND b.branch_lapsed_at IS NULL AND NOT ${countingBranch('b')}
       RETURNING b.id, b.name, b.referred_by_id`,
      params,
    )) as [ChangeRow[], number];
    const [resumed] = (await manager.query(
      `UPDATE members b SET branch_lapsed_at = NULL WHERE ${mine}
         AND b.branch_lapsed_at IS NOT NULL AND $2::timestamptz IS NOT NULL
         AND ${countingBranch('b')}
       RETURNING b.id, b.name, b.referred_by_id`,
      params,
    )) as [ChangeRow[], number];
    const [started] = (await manager.query(
      `WITH due AS (
         SELECT b.id, ${countingStart('$2::timestamptz')} AS since
         FROM members b JOIN businesses bz ON bz.id = b.business_id
         WHERE ${mine} AND b.branch_counting_since IS NULL)
       UPDATE members b SET branch_counting_since = due.since FROM due
       WHERE b.id = due.id AND b.business_id = $1 AND due.since IS NOT NULL
       RETURNING b.id, b.name, b.referred_by_id, ${countingBranch('b')} AS counting`,
      params,
    )) as [(ChangeRow & { counting: boolean })[], number];
    const startedLapsed = started.filter((row) => !row.counting).map((row) => row.id);
    if (startedLapsed.length > 0) {
      await manager.query(
        `UPDATE members SET branch_lapsed_at = $2 WHERE business_id = $1 AND id = ANY($3::uuid[])`,
        [scope.businessId, asOf, startedLapsed],
      );
    }
    return {
      lapsed: lapsed.map(toChange),
      resumed: resumed.map(toChange),
      started: started.filter((row) => row.counting).map(toChange),
    };
  }
}

/** A businesses row's rule as `BranchSettings` (days only under 'days'). */
function toSettings(row?: { rule: BranchQualificationRule; days: number | null }): BranchSettings {
  if (!row) return { rule: 'approval', days: null };
  return { rule: row.rule, days: row.rule === 'days' ? row.days : null };
}
