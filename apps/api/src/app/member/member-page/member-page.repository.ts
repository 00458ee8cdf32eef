import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import {
  businessLocale,
  type BusinessLocale,
  type IntegrationName,
  type MemberBranch,
  type MemberBranchStatus,
  type MemberLedgerLine,
  type ReferrerRewardFields,
  type WelcomeOffer,
  type RewardPriceRule,
} from '@grove/contracts';
import { BackgroundRunsTable } from '../../platform/database/background-runs';
import type { BusinessScope } from '../../platform/database/business-scope';
import { OUT_OR_GOING_STATUSES } from '../member-emails/member-emails.repository';
import {
  countingBranch,
  effectivePrice,
  memberReferrerReward,
  membershipEnded,
  rewardRuleColumn,
  stripeDiscount,
} from '../../membership/pricing/price.sql';
import { runTransaction } from '../../platform/database/transaction';
import { firstName } from '../member-emails/member-emails.service';
import type { MemberPriceFacts } from '../../membership/pricing/price';
import { liveReferralLink } from '../../platform/database/live-referral-link.sql';

/** A member as the member page and "Your referral link" read them. */
export interface MemberFacts extends MemberPriceFacts {
  memberId: string;
  name: string;
  businessName: string;
  /** How the business writes money and dates (its country and time zone). */
  businessLocale: BusinessLocale;
  /** The member's live referral link code, or null. */
  linkCode: string | null;
  /** Who bills the member (their price is that service's bill), or null for a member kept by hand. */
  managedBy: IntegrationName | null;
  /**
   * The currency of the member's amounts when they are billed on the business's Stripe (ISO 4217,
   * upper case, e.g. 'USD': their subscription's, issue 32); null: the business's own.
   */
  billCurrency: string | null;
  /** What Mindbody will charge a managed member next (cents) and when (ISO), or null. */
  nextCharge: { amountCents: number; on: string } | null;
  /** The business's share message (placeholders unfilled), or null: the default (docs/product.md#share-message). */
  shareMessage: string | null;
  /** The business's welcome offer for a friend (`businesses.welcome_offer`), or null for none. */
  welcomeOffer: WelcomeOffer | null;
  /**
   * The business's reward for referrers as it applies to the member (`memberReferrerReward`): null
   * for the ongoing discount, and for a member billed by Mindbody or on the business's Stripe.
   */
  referrerReward: ReferrerRewardFields | null;
}

interface MemberFactsSqlRow {
  id: string;
  name: string;
  business_name: string;
  country: string;
  time_zone: string | null;
  membership_price_cents: number;
  discount_cents: number;
  mindbody_client_id: string | null;
  mindbody_autopay_cents: number | null;
  discount_on_referral_cents: number | null;
  counting_branches: number;
  code: string | null;
  mindbody_next_charge_cents: number | null;
  mindbody_next_charge_at: Date | null;
  stripe_currency: string | null;
  stripe_price_cents: number | null;
  stripe_discount_cents: number | null;
  share_message: string | null;
  welcome_offer: WelcomeOffer | null;
  referrer_reward: ReferrerRewardFields | null;
  reward_rule: RewardPriceRule;
}

/**
 * A member's facts: `$1` business, `$2` one member id or NULL for every member with a live link
 * (send to all; then `$3` after this member id or NULL, at most `$4`, by id). Counting branches:
 * those that lower the member's price now (`countingBranch`, docs/product.md#branch-qualification).
 * A member billed on the business's Stripe (issue 32; never a Mindbody member) has its
 * subscription's currency, its price as the Stripe sync writes it (`effectivePrice`) and the
 * business's saved Stripe discount per branch; NULLs for anyone else.
 */
const MEMBER_FACTS = `
  SELECT m.id, m.name, b.name AS business_name, b.country, b.time_zone, m.membership_price_cents, m.discount_cents,
         m.mindbody_client_id, m.mindbody_autopay_cents, i.discount_on_referral_cents,
         m.mindbody_next_charge_cents, m.mindbody_next_charge_at, b.share_message, b.welcome_offer,
         ${memberReferrerReward('m', 'b')} AS referrer_reward,
         st.currency AS stripe_currency,
         CASE WHEN st.currency IS NOT NULL THEN ${effectivePrice('m')} END AS stripe_price_cents,
         CASE WHEN st.currency IS NOT NULL THEN ${stripeDiscount('m', 'discount_on_referral_cents')} END AS stripe_discount_cents,
         (SELECT count(*)::int FROM members r
           WHERE r.business_id = m.business_id AND r.referred_by_id = m.id
             AND ${countingBranch('r')}) AS counting_branches,
         l.code, ${rewardRuleColumn('m')}
    FROM members m
    JOIN businesses b ON b.id = m.business_id
    LEFT JOIN mindbody_integrations i ON i.business_id = m.business_id
    LEFT JOIN LATERAL (
      SELECT upper(s.currency) AS currency FROM stripe_member_subscriptions s
       WHERE m.mindbody_client_id IS NULL AND s.business_id = m.business_id AND s.member_id = m.id) st ON true
    LEFT JOIN LATERAL (
      SELECT l.code FROM referral_links l
       WHERE l.business_id = m.business_id AND l.member_id = m.id AND ${liveReferralLink()}
       LIMIT 1) l ON true
   WHERE m.business_id = $1 AND ($2::uuid IS NULL AND l.code IS NOT NULL OR m.id = $2::uuid)
     AND ($3::uuid IS NULL OR m.id > $3::uuid)
   ORDER BY m.id LIMIT $4`;

/**
 * The member page's reads (issue 15): a member's price facts, friends and price ledger. Every
 * method takes the `BusinessScope` of the member session (or the owner's session for "Your
 * referral link") first and filters on it.
 */
@Injectable()
export class MemberPageRepository {
  /** The business's latest 'Email all links' run (`referral_email_runs`). */
  readonly emailRuns: BackgroundRunsTable;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.emailRuns = new BackgroundRunsTable(dataSource, 'referral_email_runs');
  }

  /** One member's facts, or null when the member is not the business's. */
  async member(scope: BusinessScope, memberId: string): Promise<MemberFacts | null> {
    const rows: MemberFactsSqlRow[] = await this.dataSource.query(MEMBER_FACTS, [
      scope.businessId,
      memberId,
      null,
      1,
    ]);
    return rows[0] ? toFacts(rows[0]) : null;
  }

  /**
   * Up to `limit` members of the business with a live referral link, by id, after the member id
   * `after` (keyset paging: pass the last id of the previous page, null for the first).
   */
  async membersWithLinks(
    scope: BusinessScope,
    page: { after: string | null; limit: number },
  ): Promise<MemberFacts[]> {
    const rows: MemberFactsSqlRow[] = await this.dataSource.query(MEMBER_FACTS, [
      scope.businessId,
      null,
      page.after,
      page.limit,
    ]);
    return rows.map(toFacts);
  }

  /**
   * The member 'Email all links' shows as its example (issue 25): the first by name (then id) of
   * the business's members with a live referral link and an email address, preferring one not
   * emailed `template` since `since` (who would get it now). Null when no member has a link.
   */
  async exampleMemberId(
    scope: BusinessScope,
    template: string,
    since: Date,
  ): Promise<string | null> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT m.id FROM members m
        WHERE m.business_id = $1 AND m.email IS NOT NULL AND m.email <> ''
          AND EXISTS (SELECT 1 FROM referral_links l
                       WHERE l.business_id = m.business_id AND l.member_id = m.id
                         AND ${liveReferralLink()})
        ORDER BY EXISTS (SELECT 1 FROM member_emails e
                          WHERE e.business_id = m.business_id AND e.member_id = m.id
                            AND e.template = $2 AND e.created_at > $3
                            AND e.status IN ('queued', ${OUT_OR_GOING_STATUSES})),
                 lower(m.name), m.id
        LIMIT 1`,
      [scope.businessId, template, since],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * Runs `work` in one transaction (`runTransaction`: a deadlock or serialization failure runs it
   * once more, so it must only use the manager it receives).
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }

  /** How many members of the business have a live referral link. */
  async countWithLinks(scope: BusinessScope): Promise<number> {
    const rows: { n: number }[] = await this.dataSource.query(
      `SELECT count(DISTINCT l.member_id)::int AS n FROM referral_links l
        WHERE l.business_id = $1 AND ${liveReferralLink()}`,
      [scope.businessId],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Members with a live referral link, split by whether they were sent `template` since `since`
   * (an 'Email all links' preview: the others would get it now).
   * @returns `{ due, recent }` member counts
   */
  async countWithLinksByRecentEmail(
    scope: BusinessScope,
    template: string,
    since: Date,
  ): Promise<{ due: number; recent: number }> {
    const rows: { due: number; recent: number }[] = await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE NOT m.recent)::int AS due, count(*) FILTER (WHERE m.recent)::int AS recent
         FROM (SELECT l.member_id, EXISTS (
                 SELECT 1 FROM member_emails e
                  WHERE e.business_id = $1 AND e.member_id = l.member_id AND e.template = $2
                    AND e.created_at > $3 AND e.status IN ('queued', ${OUT_OR_GOING_STATUSES})) AS recent
                 FROM referral_links l
                WHERE l.business_id = $1 AND ${liveReferralLink()}
                GROUP BY l.member_id) m`,
      [scope.businessId, template, since],
    );
    return { due: rows[0]?.due ?? 0, recent: rows[0]?.recent ?? 0 };
  }

  /**
   * The member's friends, newest first (at most 200): prospects who joined through their link
   * ('pending'), and their branches: 'counting' while they lower the price (`countingBranch`),
   * 'ended' / 'suspended' while the friend's Mindbody membership is (ended too once its Stripe
   * subscription has), else 'pending' (the
   * business's rule has not started them counting yet, docs/product.md#branch-qualification).
   */
  async friends(scope: BusinessScope, memberId: string): Promise<MemberBranch[]> {
    const rows: { name: string; status: MemberBranchStatus; since: Date }[] =
      await this.dataSource.query(
        `SELECT name, status, since FROM (
           SELECT p.name, 'pending' AS status, p.created_at AS since FROM prospects p
            WHERE p.business_id = $1 AND p.referring_member_id = $2
           UNION ALL
           SELECT r.name, CASE WHEN ${membershipEnded('r')} THEN 'ended'
                  WHEN r.mindbody_suspended_at IS NOT NULL THEN 'suspended'
                  WHEN ${countingBranch('r')} THEN 'counting' ELSE 'pending' END,
                  r.created_at FROM members r
            WHERE r.business_id = $1 AND r.referred_by_id = $2) f
          ORDER BY since DESC LIMIT 200`,
        [scope.businessId, memberId],
      );
    return rows.map((row) => ({
      firstName: firstName(row.name),
      status: row.status,
      since: row.since.toISOString(),
    }));
  }

  /** The member's price ledger (`price_changes`), oldest first. */
  async ledger(scope: BusinessScope, memberId: string): Promise<MemberLedgerLine[]> {
    const rows: {
      occurred_at: Date;
      reason: string;
      old_price_cents: number | null;
      new_price_cents: number;
      membership_price_cents: number;
    }[] = await this.dataSource.query(
      `SELECT occurred_at, reason, old_price_cents, new_price_cents, membership_price_cents
         FROM price_changes WHERE business_id = $1 AND member_id = $2
        ORDER BY occurred_at, id`,
      [scope.businessId, memberId],
    );
    return rows.map((row) => ({
      occurredAt: row.occurred_at.toISOString(),
      reason: row.reason,
      oldPriceCents: row.old_price_cents,
      newPriceCents: row.new_price_cents,
      membershipPriceCents: row.membership_price_cents,
    }));
  }
}

function toFacts(row: MemberFactsSqlRow): MemberFacts {
  const managedBy: IntegrationName | null =
    row.mindbody_client_id !== null ? 'Mindbody' : row.stripe_currency !== null ? 'Stripe' : null;
  const stripe = managedBy === 'Stripe';
  return {
    memberId: row.id,
    name: row.name,
    businessName: row.business_name,
    businessLocale: businessLocale(row.country, row.time_zone),
    membershipPriceCents: row.membership_price_cents,
    discountCents: row.discount_cents,
    managed: managedBy !== null,
    managedBy,
    billCurrency: row.stripe_currency,
    // A Stripe member's bill is its subscription's price with Grove's discount, always known.
    autopayCents: stripe ? row.stripe_price_cents : row.mindbody_autopay_cents,
    integrationDiscountCents: stripe ? row.stripe_discount_cents : row.discount_on_referral_cents,
    countingBranches: row.counting_branches,
    rule: row.reward_rule,
    linkCode: row.code,
    nextCharge:
      row.mindbody_client_id !== null &&
      row.mindbody_next_charge_cents !== null &&
      row.mindbody_next_charge_at !== null
        ? {
            amountCents: row.mindbody_next_charge_cents,
            on: new Date(row.mindbody_next_charge_at).toISOString(),
          }
        : null,
    shareMessage: row.share_message,
    welcomeOffer: row.welcome_offer,
    referrerReward: row.referrer_reward,
  };
}
