import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import {
  addDays,
  RETENTION_HORIZON_DAYS,
  resolveAnalyticsPeriod,
  utcDay,
  type AnalyticsPeriodQuery,
  type FunnelReport,
  type FunnelStep,
  type JoinChannelsReport,
  type MoneyReport,
  type RetentionReport,
  type RetentionShare,
  type TopReferrersReport,
} from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { AnalyticsPeriodException } from './analytics.exceptions';
import { WelcomeOfferService } from '../../referral/welcome-offer/welcome-offer.service';
import {
  AnalyticsRepository,
  type PeriodBounds,
  type RetentionCounts,
} from './analytics.repository';

/** How many referrers `GET /api/analytics/referrers` lists. */
export const TOP_REFERRERS = 10;

/**
 * How long an answer is kept at most (ms): it is dropped sooner when the business records a new
 * fact or ledger line; join-page visits (counted per day, no ids) and "now" move within it.
 */
export const ANALYTICS_CACHE_MS = 60_000;

const ratio = (count: number, of: number): number | null => (of > 0 ? count / of : null);

/**
 * The analytics screen's figures for the session's business (issue 14): resolves the period
 * (contracts' `resolveAnalyticsPeriod` against today, UTC) and asks `AnalyticsRepository`.
 * Answers are kept per business, report and period while the business's newest fact and ledger
 * ids are unchanged, for at most {@link ANALYTICS_CACHE_MS}, so an owner clicking around the
 * screen does not recompute a year of facts each time.
 * @throws AnalyticsPeriodException (400) for a period query that breaks the rule
 */
@Injectable()
export class AnalyticsService {
  private readonly cache = new LRUCache<
    string,
    { version: string; at: number; report: Promise<object> }
  >({ max: 2_000 });

  constructor(
    private readonly repository: AnalyticsRepository,
    private readonly welcomeOffers: WelcomeOfferService,
  ) {}

  /** The funnel: links shared (opened or emailed in the period) → join-page visits → joins → approved branches, with conversions. */
  funnel(scope: BusinessScope, query: AnalyticsPeriodQuery): Promise<FunnelReport> {
    return this.cached(scope, 'funnel', query, async (period) => {
      const counts = await this.repository.funnel(scope, period);
      const steps: FunnelStep[] = [
        { key: 'links', label: 'Links shared', count: counts.links, conversion: null },
        { key: 'visits', label: 'Join-page visits', count: counts.visits, conversion: null },
        { key: 'joins', label: 'Joins', count: counts.joins, conversion: null },
        { key: 'approved', label: 'Approved branches', count: counts.approved, conversion: null },
      ];
      steps.forEach((step, index) => {
        if (index > 0) step.conversion = ratio(step.count, steps[index - 1].count);
      });
      return {
        from: period.from,
        to: period.to,
        steps,
        overallConversion: ratio(counts.approved, counts.visits),
      };
    });
  }

  /**
   * Joins by channel: which share channel (the link's `?via=`) brought the period's join-page
   * visits, joins and approvals (docs/product.md#analytics).
   */
  channels(scope: BusinessScope, query: AnalyticsPeriodQuery): Promise<JoinChannelsReport> {
    return this.cached(scope, 'channels', query, async (period) => ({
      from: period.from,
      to: period.to,
      channels: await this.repository.channels(scope, period),
    }));
  }

  /** The {@link TOP_REFERRERS} members whose trees gained the most branches, with their savings. */
  topReferrers(scope: BusinessScope, query: AnalyticsPeriodQuery): Promise<TopReferrersReport> {
    return this.cached(scope, 'referrers', query, async (period) => ({
      from: period.from,
      to: period.to,
      referrers: await this.repository.topReferrers(scope, period, TOP_REFERRERS),
    }));
  }

  /**
   * Per month: discounts given vs referred members' revenue (cents, `MoneyReport`'s rule), and the
   * welcome offers granted in the period with their cost (`WelcomeOfferService.costIn`).
   */
  money(scope: BusinessScope, query: AnalyticsPeriodQuery): Promise<MoneyReport> {
    return this.cached(scope, 'money', query, async (period) => {
      const months = await this.repository.money(scope, period);
      const offers = await this.welcomeOffers.costIn(scope, period.start, period.end);
      return {
        from: period.from,
        to: period.to,
        months,
        totalDiscountsCents: months.reduce((sum, month) => sum + month.discountsCents, 0),
        totalReferredRevenueCents: months.reduce(
          (sum, month) => sum + month.referredRevenueCents,
          0,
        ),
        welcomeOffersGranted: offers.granted,
        welcomeOffersCostCents: offers.costCents,
        welcomeOffersByHand: offers.byHand,
      };
    });
  }

  /** Share of referred vs other members who joined in the period still active 30/90/180 days on. */
  retention(scope: BusinessScope, query: AnalyticsPeriodQuery): Promise<RetentionReport> {
    return this.cached(scope, 'retention', query, async (period, now) => {
      const counts = await this.repository.retention(scope, period, RETENTION_HORIZON_DAYS, now);
      const share = (days: number, referred: boolean): RetentionShare => {
        const row: RetentionCounts | undefined = counts.find(
          (c) => c.days === days && c.referred === referred,
        );
        const eligible = row?.eligible ?? 0;
        const active = row?.active ?? 0;
        return { eligible, active, share: ratio(active, eligible) };
      };
      return {
        from: period.from,
        to: period.to,
        horizons: RETENTION_HORIZON_DAYS.map((days) => ({
          days,
          referred: share(days, true),
          nonReferred: share(days, false),
        })),
      };
    });
  }

  /**
   * Resolves the period, then answers from the cache when the business's data version is the
   * one the kept answer was computed at, else computes and keeps it.
   */
  private async cached<T extends object>(
    scope: BusinessScope,
    report: string,
    query: AnalyticsPeriodQuery,
    compute: (period: PeriodBounds, now: Date) => Promise<T>,
  ): Promise<T> {
    const now = new Date();
    const resolved = resolveAnalyticsPeriod(query, utcDay(now));
    if (resolved.error) throw new AnalyticsPeriodException(resolved.error);
    const { from, to } = resolved.period;
    const end = new Date(`${addDays(to, 1)}T00:00:00Z`);
    const period: PeriodBounds = {
      from,
      to,
      start: new Date(`${from}T00:00:00Z`),
      end: end < now ? end : now,
    };
    const key = `${scope.businessId}|${report}|${from}|${to}`;
    const version = await this.repository.version(scope);
    const kept = this.cache.get(key);
    if (kept?.version === version && now.getTime() - kept.at < ANALYTICS_CACHE_MS)
      return kept.report as Promise<T>;
    // Requests arriving while it is computed wait for the same answer; a failure is not kept.
    const answer = compute(period, now);
    this.cache.set(key, { version, at: now.getTime(), report: answer });
    answer.catch(() => {
      if (this.cache.get(key)?.report === answer) this.cache.delete(key);
    });
    return answer;
  }
}
