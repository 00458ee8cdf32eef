import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  JOIN_CHANNELS,
  type JoinChannelRow,
  type MoneyMonth,
  type TopReferrer,
} from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';

/**
 * The moments a query covers: `start` ≤ t < `end` (UTC), and the inclusive days `from`..`to`
 * (for the per-day join-page visits). `end` is the end of the last day, or now when that is
 * sooner.
 */
export interface PeriodBounds {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

/** Funnel counts (see `FunnelReport`). */
export interface FunnelCounts {
  links: number;
  visits: number;
  joins: number;
  approved: number;
}

/** Counts of one retention group at one horizon. */
export interface RetentionCounts {
  days: number;
  referred: boolean;
  eligible: number;
  active: number;
}

/**
 * Referred members: those a `branch_added` fact names as the branch (added to someone's tree), a
 * `member_added` fact names with a referrer, or a `prospect_approved` fact names (a friend
 * approved from a referral link).
 */
const REFERRED_MEMBERS = `
  SELECT member_id FROM lifecycle_facts
  WHERE business_id = $1 AND kind IN ('branch_added', 'member_added') AND referrer_id IS NOT NULL
    AND member_id IS NOT NULL
  UNION
  SELECT member_id FROM lifecycle_facts
  WHERE business_id = $1 AND kind = 'prospect_approved' AND member_id IS NOT NULL`;

/**
 * The price ledger cut into month pieces (params $1 business, $2 start, $3 end): each line of a
 * member is in force from its `occurred_at` to the member's next line (or `end`); lines whose
 * reason is `membership_ended` carry nothing. A piece is the part of a line's time in force that
 * falls in one UTC calendar month and in the period; `fraction` is its length over the month's
 * length, so amount × fraction is the line's prorated monthly amount (the rule `MoneyReport`
 * documents). Lines of `memberFilter` only (an SQL condition on `member_id`, or empty).
 */
function ledgerPieces(memberFilter = ''): string {
  return `
  lines AS (
    SELECT member_id, reason, new_price_cents, membership_price_cents, occurred_at AS starts,
           coalesce(lead(occurred_at) OVER (PARTITION BY member_id ORDER BY occurred_at, id), $3) AS ends
    FROM price_changes
    WHERE business_id = $1 AND occurred_at < $3 ${memberFilter}
  ),
  pieces AS (
    SELECT l.member_id, l.new_price_cents,
           greatest(l.membership_price_cents - l.new_price_cents, 0) AS discount_cents,
           m.month_start,
           date_part('epoch', least(l.ends, $3, m.month_end) - greatest(l.starts, $2, m.month_start))
             / date_part('epoch', m.month_end - m.month_start) AS fraction
    FROM lines l
    CROSS JOIN LATERAL (
      SELECT s AT TIME ZONE 'UTC' AS month_start, (s + interval '1 month') AT TIME ZONE 'UTC' AS month_end
      FROM generate_series(
        date_trunc('month', greatest(l.starts, $2::timestamptz) AT TIME ZONE 'UTC'),
        least(l.ends, $3::timestamptz) AT TIME ZONE 'UTC' - interval '1 microsecond',
        interval '1 month') AS s
    ) m
    WHERE l.reason <> 'membership_ended' AND l.ends > $2
  )`;
}

/**
 * Read-only figures of the analytics screen from the lifecycle facts, the join-page visits and
 * the price ledger (migration `1795470615350-LifecycleFacts`) of ONE business. TENANCY: every
 * method takes the session's `BusinessScope` first and every statement (and sub-select) filters
 * on its `businessId`; member names come from `members` of the same business.
 *
 * Facts read, as the recording flows write them: `link_created`/`link_rotated` name the new link
 * (`referral_link_id`) and its member; `link_revoked` the revoked link; `prospect_joined` and
 * `prospect_approved` the prospect (the approval also the new member and the referrer);
 * `branch_added` the branch (`member_id`) and the tree that gained it (`referrer_id`);
 * `member_added` the member; `member_ended` the member (docs/architecture.md#lifecycle-facts).
 */
@Injectable()
export class AnalyticsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The business's newest fact and ledger ids ('0' when none): an answer computed at these
   * versions is still right while they are unchanged (join-page visits aside).
   */
  async version(scope: BusinessScope): Promise<string> {
    const [row] = (await this.dataSource.query(
      `SELECT coalesce((SELECT id FROM lifecycle_facts WHERE business_id = $1 ORDER BY id DESC LIMIT 1), 0)
              || '.' || coalesce((SELECT id FROM price_changes WHERE business_id = $1 ORDER BY id DESC LIMIT 1), 0)
              AS version`,
      [scope.businessId],
    )) as { version: string }[];
    return row?.version ?? '0.0';
  }

  /**
   * The funnel's four counts (docs/decisions/links-shared.md): links SHARED in the period, i.e.
   * distinct referral links whose join page was opened on one of its days (`join_page_visits`)
   * or that reached their member by email in it (a 'referral-link' member email delivered,
   * status sent or outboxed, its `referralUrl` naming the link's code); join-page visits on its
   * days; `prospect_joined` and `prospect_approved` facts in it. A link that merely exists is
   * not counted.
   */
  async funnel(scope: BusinessScope, period: PeriodBounds): Promise<FunnelCounts> {
    const [row] = (await this.dataSource.query(
      `SELECT
         (SELECT count(*)::int FROM (
            SELECT referral_link_id FROM join_page_visits
            WHERE business_id = $1 AND day BETWEEN $4::date AND $5::date
            UNION
            SELECT l.id FROM member_emails e
            JOIN referral_links l ON l.business_id = e.business_id
             AND l.code = substring(e.data->>'referralUrl' from '/referral/([^/?#]+)$')
            WHERE e.business_id = $1 AND e.template = 'referral-link'
              AND e.status IN ('sent', 'outboxed')
              AND e.delivered_at >= $2 AND e.delivered_at < $3
          ) shared) AS links,
         (SELECT coalesce(sum(visits), 0)::int FROM join_page_visits
          WHERE business_id = $1 AND day BETWEEN $4::date AND $5::date) AS visits,
         (SELECT count(*)::int FROM lifecycle_facts
          WHERE business_id = $1 AND kind = 'prospect_joined' AND occurred_at >= $2 AND occurred_at < $3) AS joins,
         (SELECT count(*)::int FROM lifecycle_facts
          WHERE business_id = $1 AND kind = 'prospect_approved' AND occurred_at >= $2 AND occurred_at < $3) AS approved`,
      [scope.businessId, period.start, period.end, period.from, period.to],
    )) as FunnelCounts[];
    return row ?? { links: 0, visits: 0, joins: 0, approved: 0 };
  }

  /**
   * Joins by channel (issue 33, `JoinChannelsReport`), in ONE statement of this business: per
   * channel, the join-page visits on the period's days (`join_page_visits.channel`), the
   * `prospect_joined` facts in it (`lifecycle_facts.channel`) and the `prospect_approved` facts in
   * it, each counted under the channel of its prospect's `prospect_joined` fact (`direct` when
   * there is none, e.g. a join recorded before channels). Channels with no count are left out;
   * most joins first, then approvals, visits and `JOIN_CHANNELS`' order.
   */
  async channels(scope: BusinessScope, period: PeriodBounds): Promise<JoinChannelRow[]> {
    return (await this.dataSource.query(
      `WITH counted AS (
         SELECT channel, visits, 0 AS joins, 0 AS approved FROM join_page_visits
         WHERE business_id = $1 AND day BETWEEN $4::date AND $5::date
         UNION ALL
         SELECT coalesce(channel, 'direct'), 0, 1, 0 FROM lifecycle_facts
         WHERE business_id = $1 AND kind = 'prospect_joined' AND occurred_at >= $2 AND occurred_at < $3
         UNION ALL
         SELECT coalesce(j.channel, 'direct'), 0, 0, 1 FROM lifecycle_facts a
         LEFT JOIN lifecycle_facts j ON j.business_id = a.business_id AND j.kind = 'prospect_joined'
          AND j.prospect_id = a.prospect_id
         WHERE a.business_id = $1 AND a.kind = 'prospect_approved' AND a.occurred_at >= $2 AND a.occurred_at < $3
       )
       SELECT channel, sum(visits)::int AS visits, sum(joins)::int AS joins, sum(approved)::int AS approved
       FROM counted
       GROUP BY channel
       ORDER BY joins DESC, approved DESC, visits DESC, array_position($6::text[], channel)`,
      [scope.businessId, period.start, period.end, period.from, period.to, [...JOIN_CHANNELS]],
    )) as JoinChannelRow[];
  }

  /**
   * The `limit` members whose trees gained the most branches (`branch_added` facts) in the
   * period, most first (ties: most savings, then id), each with the discounts they received in
   * the period (cents, the ledger rule of {@link money}) and their name (null once removed).
   */
  async topReferrers(
    scope: BusinessScope,
    period: PeriodBounds,
    limit: number,
  ): Promise<TopReferrer[]> {
    const rows = (await this.dataSource.query(
      `WITH gained AS (
         SELECT referrer_id AS member_id, count(*)::int AS branches
         FROM lifecycle_facts
         WHERE business_id = $1 AND kind = 'branch_added' AND referrer_id IS NOT NULL
           AND occurred_at >= $2 AND occurred_at < $3
         GROUP BY referrer_id
       ),
       ${ledgerPieces('AND member_id IN (SELECT member_id FROM gained)')},
       savings AS (
         SELECT member_id, round(sum(discount_cents * fraction))::bigint AS cents
         FROM pieces GROUP BY member_id
       )
       SELECT g.member_id, m.name, g.branches, coalesce(s.cents, 0)::int AS savings_cents
       FROM gained g
       LEFT JOIN savings s ON s.member_id = g.member_id
       LEFT JOIN members m ON m.id = g.member_id AND m.business_id = $1
       ORDER BY g.branches DESC, savings_cents DESC, g.member_id
       LIMIT $4`,
      [scope.businessId, period.start, period.end, limit],
    )) as { member_id: string; name: string | null; branches: number; savings_cents: number }[];
    return rows.map((row) => ({
      memberId: row.member_id,
      memberName: row.name,
      branchesGained: row.branches,
      savingsCents: row.savings_cents,
    }));
  }

  /**
   * Per UTC calendar month overlapping the period (oldest first, every month listed even when
   * zero): discounts given and what referred members paid, cents, from the price ledger
   * (`MoneyReport`'s rule: prorated by the time each line was in force within the month).
   */
  async money(scope: BusinessScope, period: PeriodBounds): Promise<MoneyMonth[]> {
    const rows = (await this.dataSource.query(
      `WITH referred AS (${REFERRED_MEMBERS}),
       ${ledgerPieces()},
       sums AS (
         SELECT p.month_start,
                round(sum(p.discount_cents * p.fraction))::bigint AS discounts,
                round(coalesce(sum(p.new_price_cents * p.fraction) FILTER (WHERE r.member_id IS NOT NULL), 0))::bigint AS revenue
         FROM pieces p LEFT JOIN referred r ON r.member_id = p.member_id
         GROUP BY p.month_start
       )
       SELECT to_char(months.s, 'YYYY-MM') AS month,
              coalesce(sums.discounts, 0)::int AS discounts_cents,
              coalesce(sums.revenue, 0)::int AS referred_revenue_cents
       FROM generate_series(date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC'),
                            $3::timestamptz AT TIME ZONE 'UTC' - interval '1 microsecond', interval '1 month') AS months(s)
       LEFT JOIN sums ON sums.month_start = months.s AT TIME ZONE 'UTC'
       ORDER BY months.s`,
      [scope.businessId, period.start, period.end],
    )) as { month: string; discounts_cents: number; referred_revenue_cents: number }[];
    return rows.map((row) => ({
      month: row.month,
      discountsCents: row.discounts_cents,
      referredRevenueCents: row.referred_revenue_cents,
    }));
  }

  /**
   * Retention of the members who joined in the period (their first `member_added` fact in it),
   * referred or not, at each of `horizons` days: eligible = joined at least that long before
   * `now`; active = no `member_ended` fact of theirs from joining until that many days later.
   */
  async retention(
    scope: BusinessScope,
    period: PeriodBounds,
    horizons: readonly number[],
    now: Date,
  ): Promise<RetentionCounts[]> {
    return (await this.dataSource.query(
      `WITH referred AS (${REFERRED_MEMBERS}),
       joined AS (
         SELECT member_id, min(occurred_at) AS joined_at
         FROM lifecycle_facts
         WHERE business_id = $1 AND kind = 'member_added' AND member_id IS NOT NULL
           AND occurred_at >= $2 AND occurred_at < $3
         GROUP BY member_id
       ),
       cohort AS (
         SELECT j.member_id, j.joined_at, r.member_id IS NOT NULL AS referred,
                min(e.occurred_at) AS ended_at
         FROM joined j
         LEFT JOIN referred r ON r.member_id = j.member_id
         LEFT JOIN lifecycle_facts e ON e.business_id = $1 AND e.kind = 'member_ended'
           AND e.member_id = j.member_id AND e.occurred_at >= j.joined_at
         GROUP BY j.member_id, j.joined_at, r.member_id
       )
       SELECT h.days, c.referred,
              count(*) FILTER (WHERE c.joined_at + h.days * interval '1 day' <= $4)::int AS eligible,
              count(*) FILTER (WHERE c.joined_at + h.days * interval '1 day' <= $4
                AND (c.ended_at IS NULL OR c.ended_at >= c.joined_at + h.days * interval '1 day'))::int AS active
       FROM cohort c CROSS JOIN unnest($5::int[]) AS h(days)
       GROUP BY h.days, c.referred`,
      [scope.businessId, period.start, period.end, now, horizons],
    )) as RetentionCounts[];
  }
}
