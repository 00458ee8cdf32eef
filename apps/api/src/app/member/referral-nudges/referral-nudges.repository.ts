import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import {
  businessLocale,
  type BusinessLocale,
  type ReferralNudgeKind,
  type ReferralNudgeSettings,
  type ReferrerRewardFields,
  type WelcomeOffer,
  type RewardPriceRule,
} from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';
import { liveReferralLink } from '../../platform/database/live-referral-link.sql';
import {
  countingBranch,
  discountPerReferral,
  memberReferrerReward,
  rewardRuleColumn,
} from '../../membership/pricing/price.sql';

/** A member a nudge is due to, with what its email says (cents). */
export interface NudgeCandidate {
  memberId: string;
  name: string;
  joinedAt: Date;
  membershipPriceCents: number;
  discountCents: number;
  countingBranches: number;
  /** The business's reward and cap (docs/product.md#referrer-reward). */
  rule?: RewardPriceRule;
  /** The member's Mindbody client id (`members.mindbody_client_id`), null for a Grove-managed member. */
  mindbodyClientId?: string | null;
}

/** A Mindbody member due a visit check, with what the last check counted. */
export interface VisitCheckCandidate extends NudgeCandidate {
  /** Visits counted so far (`referral_nudge_visit_checks.visits`), 0 before the first check. */
  countedVisits: number;
  /** Classes before this time are counted; null before the first check (the whole history). */
  countedUntil: Date | null;
}

/** What the weekly visit checks cost a business: members asked each week, of its Mindbody members. */
export interface VisitCheckLoad {
  /** Members the job asks Mindbody about, once a week each (one GetClientVisits per member). */
  checkedMembers: number;
  /** The business's Mindbody members (`mindbody_client_id`, membership not ended there). */
  mindbodyMembers: number;
}

/** Whose price a nudge's members have: Grove's, Mindbody's (only they have visits), or either. */
export type NudgeManaged = 'grove' | 'mindbody' | 'any';

/** A business with at least one nudge on, and its settings. */
export interface NudgeBusiness {
  businessId: string;
  settings: ReferralNudgeSettings;
}

/** What a preview needs of one member of the business (or null: no such member). */
export interface NudgeExampleMember extends NudgeCandidate {
  businessName: string;
  businessLocale: BusinessLocale;
  referralCode: string | null;
  shareMessage: string | null;
  welcomeOffer: WelcomeOffer | null;
  /**
   * The business's reward for referrers as it applies to the member (`memberReferrerReward`): null
   * for the ongoing discount, and for a member billed by Mindbody or on the business's Stripe.
   */
  referrerReward: ReferrerRewardFields | null;
}

interface SettingsRow {
  nudge_invite_after_days: number | null;
  nudge_invite_after_visits: number | null;
  nudge_reminder_after_days: number | null;
  nudge_monthly_summary: boolean;
}

const SETTINGS_COLUMNS =
  'nudge_invite_after_days, nudge_invite_after_visits, nudge_reminder_after_days, nudge_monthly_summary';

const toSettings = (row: SettingsRow): ReferralNudgeSettings => ({
  inviteAfterDays: row.nudge_invite_after_days,
  inviteAfterVisits: row.nudge_invite_after_visits,
  reminderAfterDays: row.nudge_reminder_after_days,
  monthlySummary: row.nudge_monthly_summary,
});

// A Mindbody or Stripe member's discount is that integration's (what the member page says).
const CANDIDATE_COLUMNS = `m.id, m.name, m.created_at, m.membership_price_cents,
  ${discountPerReferral('m')} AS discount_cents,
  m.mindbody_client_id,
  (SELECT count(*) FROM members b WHERE b.business_id = m.business_id AND b.referred_by_id = m.id
     AND ${countingBranch('b')})::int AS counting, ${rewardRuleColumn('m')}`;

interface CandidateRow {
  id: string;
  mindbody_client_id: string | null;
  name: string;
  created_at: Date;
  membership_price_cents: number;
  discount_cents: number;
  counting: number;
  reward_rule: RewardPriceRule;
}

const toCandidate = (row: CandidateRow): NudgeCandidate => ({
  memberId: row.id,
  name: row.name,
  joinedAt: row.created_at,
  membershipPriceCents: row.membership_price_cents,
  discountCents: row.discount_cents,
  countingBranches: row.counting,
  rule: row.reward_rule,
  mindbodyClientId: row.mindbody_client_id,
});

/** Each kind of member a nudge may go to, by whose price they have. */
const MANAGED: Record<NudgeManaged, string> = {
  grove: 'm.mindbody_client_id IS NULL',
  // A Mindbody member whose membership has not ended there.
  mindbody: 'm.mindbody_client_id IS NOT NULL AND m.mindbody_cancelled_at IS NULL',
  any: 'TRUE',
};

/**
 * Who a nudge may go to (docs/product.md#referral-nudges): a member of the business with an email
 * address, of the `managed` kind (Grove-managed for the invitation after days and the summary,
 * Mindbody-managed for the invitation after visits), not unsubscribed, under the month's cap ($2:
 * the month's start, $3: the cap).
 */
const eligible = (
  managed: NudgeManaged,
) => `m.business_id = $1 AND m.email <> '' AND ${MANAGED[managed]}
  AND NOT EXISTS (SELECT 1 FROM member_email_subscriptions s
                   WHERE s.member_id = m.id AND s.unsubscribed_at IS NOT NULL)
  AND (SELECT count(*) FROM referral_nudges n WHERE n.member_id = m.id AND n.sent_at >= $2) < $3`;

/**
 * The Mindbody members the invitation after the Nth visit watches (docs/decisions/mindbody-visits.md):
 * eligible (Mindbody-managed, membership not ended there), with a live referral link, never
 * invited. ($1 business, $2 the month's start, $3 the cap.)
 */
const watchedForVisits = () => `${eligible('mindbody')}
  AND EXISTS (SELECT 1 FROM referral_links l WHERE l.business_id = m.business_id
                AND l.member_id = m.id AND ${liveReferralLink()})
  AND NOT EXISTS (SELECT 1 FROM referral_nudges n WHERE n.member_id = m.id AND n.kind = 'invite')`;

/**
 * The only way to `referral_nudges` and the business's nudge settings (migration ReferralNudges).
 * TENANCY: every method of a business's rows takes its `BusinessScope` first; `businessesWithNudges`
 * is the scheduled job's list of businesses.
 */
@Injectable()
export class ReferralNudgesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The scope's settings (every nudge off for an unknown business). */
  async settings(
    { businessId }: BusinessScope,
    manager?: EntityManager,
  ): Promise<ReferralNudgeSettings> {
    const rows: SettingsRow[] = await (manager ?? this.dataSource).query(
      `SELECT ${SETTINGS_COLUMNS} FROM businesses WHERE id = $1`,
      [businessId],
    );
    return toSettings(
      rows[0] ?? {
        nudge_invite_after_days: null,
        nudge_invite_after_visits: null,
        nudge_reminder_after_days: null,
        nudge_monthly_summary: false,
      },
    );
  }

  /** Saves the (already valid) settings in `manager`'s transaction. @returns them as stored */
  async saveSettings(
    { businessId }: BusinessScope,
    manager: EntityManager,
    settings: ReferralNudgeSettings,
  ): Promise<ReferralNudgeSettings> {
    const rows: SettingsRow[] = await manager.query(
      `WITH saved AS (
         UPDATE businesses SET nudge_invite_after_days = $2, nudge_reminder_after_days = $3,
           nudge_monthly_summary = $4, nudge_invite_after_visits = $5
          WHERE id = $1 RETURNING ${SETTINGS_COLUMNS})
       SELECT * FROM saved`,
      [
        businessId,
        settings.inviteAfterDays,
        settings.reminderAfterDays,
        settings.monthlySummary,
        settings.inviteAfterVisits ?? null,
      ],
    );
    return toSettings(rows[0] as SettingsRow);
  }

  /** Every business with a nudge switched on, with its settings (the job's list). */
  async businessesWithNudges(): Promise<NudgeBusiness[]> {
    const rows: (SettingsRow & { id: string })[] = await this.dataSource.query(
      `SELECT id, ${SETTINGS_COLUMNS} FROM businesses
        WHERE nudge_invite_after_days IS NOT NULL OR nudge_invite_after_visits IS NOT NULL
           OR nudge_monthly_summary ORDER BY id`,
    );
    return rows.map((row) => ({ businessId: row.id, settings: toSettings(row) }));
  }

  /**
   * Members due the invitation as of `now`: eligible, with a live referral link, joined at least
   * `afterDays` days before `now`, never invited. Oldest members first, at most `limit`.
   */
  async dueInvites(
    scope: BusinessScope,
    at: { now: Date; monthStart: Date; cap: number; afterDays: number; limit: number },
  ): Promise<NudgeCandidate[]> {
    const rows: CandidateRow[] = await this.dataSource.query(
      `SELECT ${CANDIDATE_COLUMNS} FROM members m
        WHERE ${eligible('grove')}
          AND m.created_at <= $4::timestamptz - make_interval(days => $5)
          AND EXISTS (SELECT 1 FROM referral_links l WHERE l.business_id = m.business_id
                        AND l.member_id = m.id AND ${liveReferralLink()})
          AND NOT EXISTS (SELECT 1 FROM referral_nudges n WHERE n.member_id = m.id AND n.kind = 'invite')
        ORDER BY m.created_at, m.id LIMIT $6`,
      [scope.businessId, at.monthStart, at.cap, at.now, at.afterDays, at.limit],
    );
    return rows.map(toCandidate);
  }

  /**
   * The watched members (`watchedForVisits`) not asked about since `recheckBefore`, as of the run,
   * with what their last check counted. Those asked least recently first (never asked first), at
   * most `limit`.
   */
  async dueVisitChecks(
    scope: BusinessScope,
    at: { monthStart: Date; cap: number; recheckBefore: Date; limit: number },
  ): Promise<VisitCheckCandidate[]> {
    const rows: (CandidateRow & { counted_visits: number | null; counted_until: Date | null })[] =
      await this.dataSource.query(
        `SELECT ${CANDIDATE_COLUMNS}, c.visits AS counted_visits, c.counted_until FROM members m
           LEFT JOIN referral_nudge_visit_checks c ON c.member_id = m.id
          WHERE ${watchedForVisits()}
            AND (c.checked_at IS NULL OR c.checked_at < $4)
          ORDER BY c.checked_at NULLS FIRST, m.created_at, m.id LIMIT $5`,
        [scope.businessId, at.monthStart, at.cap, at.recheckBefore, at.limit],
      );
    return rows.map((row) => ({
      ...toCandidate(row),
      countedVisits: row.counted_visits ?? 0,
      countedUntil: row.counted_until,
    }));
  }

  /**
   * How many members the weekly visit checks ask about (the watched members, whatever this
   * month's cap: `watchedForVisits` with no cap), and the business's Mindbody members: the cost the
   * settings show (docs/product.md#referral-nudges).
   */
  async visitCheckLoad(scope: BusinessScope): Promise<VisitCheckLoad> {
    const rows: { checked: number; mindbody: number }[] = await this.dataSource.query(
      `SELECT (SELECT count(*) FROM members m WHERE ${watchedForVisits()})::int AS checked,
              (SELECT count(*) FROM members m WHERE m.business_id = $1 AND ${MANAGED.mindbody})::int AS mindbody`,
      [scope.businessId, new Date(0), Number.MAX_SAFE_INTEGER],
    );
    return { checkedMembers: rows[0]?.checked ?? 0, mindbodyMembers: rows[0]?.mindbody ?? 0 };
  }

  /**
   * Records, per member of the business, when its visits were asked (`checkedAt`), the running
   * count of visits and the time up to which classes are counted, replacing the last check.
   * Members of another business are ignored.
   */
  async saveVisitChecks(
    scope: BusinessScope,
    checks: readonly { memberId: string; visits: number }[],
    checkedAt: Date,
    countedUntil: Date,
  ): Promise<void> {
    if (checks.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO referral_nudge_visit_checks (member_id, business_id, checked_at, visits, counted_until)
       SELECT m.id, m.business_id, $2, c.visits, $5
         FROM unnest($3::uuid[], $4::int[]) AS c(member_id, visits)
         JOIN members m ON m.id = c.member_id AND m.business_id = $1
       ON CONFLICT (member_id) DO UPDATE SET checked_at = EXCLUDED.checked_at,
         visits = EXCLUDED.visits, counted_until = EXCLUDED.counted_until`,
      [
        scope.businessId,
        checkedAt,
        checks.map((check) => check.memberId),
        checks.map((check) => check.visits),
        countedUntil,
      ],
    );
  }

  /**
   * Members due the one reminder as of `now`: eligible, invited at least `afterDays` days before
   * `now`, never reminded, and since the invitation neither opened their member page
   * (`member_page_opens`) nor had a visit on their referral link (`join_page_visits`, by UTC day;
   * docs/decisions/referral-nudges.md). At most `limit`, earliest invitations first.
   */
  async dueReminders(
    scope: BusinessScope,
    at: { now: Date; monthStart: Date; cap: number; afterDays: number; limit: number },
  ): Promise<NudgeCandidate[]> {
    const rows: CandidateRow[] = await this.dataSource.query(
      `SELECT ${CANDIDATE_COLUMNS} FROM members m
         JOIN referral_nudges i ON i.member_id = m.id AND i.kind = 'invite' AND i.period = 'once'
        WHERE ${eligible('any')}
          AND i.sent_at <= $4::timestamptz - make_interval(days => $5)
          AND EXISTS (SELECT 1 FROM referral_links l WHERE l.business_id = m.business_id
                        AND l.member_id = m.id AND ${liveReferralLink()})
          AND NOT EXISTS (SELECT 1 FROM referral_nudges n WHERE n.member_id = m.id AND n.kind = 'reminder')
          AND NOT EXISTS (SELECT 1 FROM member_page_opens o
                           WHERE o.member_id = m.id AND o.opened_at >= i.sent_at)
          AND NOT EXISTS (SELECT 1 FROM referral_links l JOIN join_page_visits v ON v.referral_link_id = l.id
                           WHERE l.business_id = m.business_id AND l.member_id = m.id
                             AND v.day >= (i.sent_at AT TIME ZONE 'UTC')::date)
        ORDER BY i.sent_at, m.id LIMIT $6`,
      [scope.businessId, at.monthStart, at.cap, at.now, at.afterDays, at.limit],
    );
    return rows.map(toCandidate);
  }

  /**
   * Referrers due this month's summary: eligible, with at least one counting branch, no summary
   * for `period` ('YYYY-MM') yet, at a business whose reward is the ongoing discount (the summary
   * tells what was saved; a credit, free period or gift saves nothing off the price,
   * docs/product.md#referrer-reward). At most `limit`.
   */
  async dueSummaries(
    scope: BusinessScope,
    at: { monthStart: Date; cap: number; period: string; limit: number },
  ): Promise<NudgeCandidate[]> {
    const rows: CandidateRow[] = await this.dataSource.query(
      `SELECT * FROM (
         SELECT ${CANDIDATE_COLUMNS} FROM members m
          WHERE ${eligible('grove')}
            AND NOT EXISTS (SELECT 1 FROM referral_nudges n
                             WHERE n.member_id = m.id AND n.kind = 'summary' AND n.period = $4)
       ) due WHERE due.counting > 0
         AND (SELECT COALESCE(z.referrer_reward->>'kind', 'discount') FROM businesses z WHERE z.id = $1) = 'discount'
       ORDER BY due.id LIMIT $5`,
      [scope.businessId, at.monthStart, at.cap, at.period, at.limit],
    );
    return rows.map(toCandidate);
  }

  /**
   * Records one nudge in `manager`'s transaction, first taking the member's lock (a transaction
   * advisory lock) and re-checking the month's cap under it, so two replicas or a rerun never send
   * twice nor past the cap.
   * @returns false when already recorded for this member, kind and period, when the member is
   *   not the business's, or when the cap is reached (nothing written)
   */
  async record(
    scope: BusinessScope,
    manager: EntityManager,
    nudge: {
      memberId: string;
      kind: ReferralNudgeKind;
      period: string;
      monthStart: Date;
      cap: number;
    },
  ): Promise<boolean> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `referral-nudges:${scope.businessId}:${nudge.memberId}`,
    ]);
    const rows: unknown[] = await manager.query(
      `INSERT INTO referral_nudges (business_id, member_id, kind, period)
       SELECT m.business_id, m.id, $3, $4 FROM members m
        WHERE m.business_id = $1 AND m.id = $2
          AND (SELECT count(*) FROM referral_nudges n WHERE n.member_id = m.id AND n.sent_at >= $5) < $6
       ON CONFLICT (member_id, kind, period) DO NOTHING
       RETURNING 1`,
      [scope.businessId, nudge.memberId, nudge.kind, nudge.period, nudge.monthStart, nudge.cap],
    );
    return rows.length > 0;
  }

  /**
   * The member a preview is rendered for: the first by name with an email address (of the
   * `managed` kind the email goes to), preferring one with a live link and, for the summary, one
   * with a counting branch.
   * @returns null when the business has no member with an email
   */
  async exampleMember(
    scope: BusinessScope,
    kind: ReferralNudgeKind,
    managed: NudgeManaged = 'grove',
  ): Promise<NudgeExampleMember | null> {
    const rows: (CandidateRow & {
      business_name: string;
      country: string;
      time_zone: string | null;
      code: string | null;
      share_message: string | null;
      welcome_offer: WelcomeOffer | null;
      referrer_reward: ReferrerRewardFields | null;
    })[] = await this.dataSource.query(
      `SELECT * FROM (
         SELECT ${CANDIDATE_COLUMNS}, b.name AS business_name, b.country, b.time_zone,
                b.share_message, b.welcome_offer, ${memberReferrerReward('m', 'b')} AS referrer_reward,
                (SELECT l.code FROM referral_links l WHERE l.business_id = m.business_id
                   AND l.member_id = m.id AND ${liveReferralLink()} LIMIT 1) AS code
           FROM members m JOIN businesses b ON b.id = m.business_id
          WHERE m.business_id = $1 AND m.email <> '' AND ${MANAGED[managed]}
       ) x
       ORDER BY x.code IS NULL, ($2 AND x.counting = 0), lower(x.name), x.id LIMIT 1`,
      [scope.businessId, kind === 'summary'],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      ...toCandidate(row),
      businessName: row.business_name,
      businessLocale: businessLocale(row.country, row.time_zone),
      referralCode: row.code,
      shareMessage: row.share_message,
      welcomeOffer: row.welcome_offer,
      referrerReward: row.referrer_reward,
    };
  }

  /**
   * Runs `work` in one transaction (`runTransaction`: a deadlock or serialization failure runs it
   * once more, so it must only use the manager it receives).
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
