import type { JoinChannel } from '../referral/join-page';

/**
 * The analytics screen's shapes and its one period rule, shared by the API
 * (`apps/api/src/app/insight/analytics`) and the dashboard (`features/analytics`): owners see whether
 * referrals pay (issue 14). Money is integer cents; dates are UTC calendar days `YYYY-MM-DD`.
 */

/** The preset periods of the period picker, in days (the last N days up to and including today). */
export const ANALYTICS_PRESET_DAYS = [30, 90, 365] as const;

/** A preset period in days. */
export type AnalyticsPresetDays = (typeof ANALYTICS_PRESET_DAYS)[number];

/** Longest custom period, in days (three years): older history is not kept on screen. */
export const ANALYTICS_MAX_DAYS = 1096;

/** Earliest custom start date accepted. */
export const ANALYTICS_EARLIEST_DAY = '2000-01-01';

/** The retention horizons, in days after joining. */
export const RETENTION_HORIZON_DAYS = [30, 90, 180] as const;

/** The period picker's messages (Grove's own: the product spec has no analytics screen). */
export const ANALYTICS_MESSAGES = {
  periodInvalid: 'Choose a period of the last 30, 90 or 365 days',
  dateInvalid: 'Enter the date as YYYY-MM-DD, e.g. 2026-01-31',
  datesIncomplete: 'Enter both a start and an end date',
  presetAndDates: 'Choose either a preset period or custom dates, not both',
  startAfterEnd: 'The start date must be on or before the end date',
  endInFuture: 'The end date cannot be after today',
  startTooEarly: `The start date cannot be before ${ANALYTICS_EARLIEST_DAY}`,
  tooLong: `Choose a period of at most ${ANALYTICS_MAX_DAYS} days`,
} as const;

/**
 * The query every analytics route takes: either `period` (30, 90 or 365: the last N days up to
 * and including today, UTC) or `from` and `to` (inclusive `YYYY-MM-DD`); none of them means the
 * last 30 days.
 */
export interface AnalyticsPeriodQuery {
  period?: string;
  from?: string;
  to?: string;
}

/** A resolved period: inclusive UTC days. */
export interface AnalyticsPeriod {
  /** First day, `YYYY-MM-DD`. */
  from: string;
  /** Last day (inclusive), `YYYY-MM-DD`. */
  to: string;
}

/** Why a period query is refused: the field to blame and the message to show. */
export interface AnalyticsPeriodError {
  field: 'period' | 'from' | 'to';
  message: string;
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a UTC day, e.g. `2026-01-31`. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The UTC day `days` after `day` (negative: before). */
export function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** True when `text` is a real calendar day written `YYYY-MM-DD` (so `2026-02-30` is not). */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const time = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(time) && utcDay(new Date(time)) === text;
}

/** Days from `from` to `to`, both included (`2026-01-01`..`2026-01-01` is 1). */
export function daysInPeriod(period: AnalyticsPeriod): number {
  return Math.round((Date.parse(period.to) - Date.parse(period.from)) / DAY_MS) + 1;
}

/**
 * The one period rule of the analytics screen (API and period picker): resolves a query against
 * `today` (UTC `YYYY-MM-DD`).
 * @returns `{ period }` (inclusive days) or `{ error }` with the field and `ANALYTICS_MESSAGES` text
 */
export function resolveAnalyticsPeriod(
  query: AnalyticsPeriodQuery,
  today: string,
):
  | { period: AnalyticsPeriod; error?: undefined }
  | { period?: undefined; error: AnalyticsPeriodError } {
  const { period, from, to } = query;
  const hasDates = from !== undefined || to !== undefined;
  if (period !== undefined && hasDates)
    return { error: { field: 'period', message: ANALYTICS_MESSAGES.presetAndDates } };
  if (!hasDates) {
    const days = period === undefined ? 30 : Number(period);
    if (!ANALYTICS_PRESET_DAYS.some((preset) => String(preset) === (period ?? '30')))
      return { error: { field: 'period', message: ANALYTICS_MESSAGES.periodInvalid } };
    return { period: { from: addDays(today, 1 - days), to: today } };
  }
  if (from === undefined || from === '')
    return { error: { field: 'from', message: ANALYTICS_MESSAGES.datesIncomplete } };
  if (to === undefined || to === '')
    return { error: { field: 'to', message: ANALYTICS_MESSAGES.datesIncomplete } };
  if (!isCalendarDay(from))
    return { error: { field: 'from', message: ANALYTICS_MESSAGES.dateInvalid } };
  if (!isCalendarDay(to))
    return { error: { field: 'to', message: ANALYTICS_MESSAGES.dateInvalid } };
  if (from > to) return { error: { field: 'from', message: ANALYTICS_MESSAGES.startAfterEnd } };
  if (to > today) return { error: { field: 'to', message: ANALYTICS_MESSAGES.endInFuture } };
  if (from < ANALYTICS_EARLIEST_DAY)
    return { error: { field: 'from', message: ANALYTICS_MESSAGES.startTooEarly } };
  if (daysInPeriod({ from, to }) > ANALYTICS_MAX_DAYS)
    return { error: { field: 'from', message: ANALYTICS_MESSAGES.tooLong } };
  return { period: { from, to } };
}

/** One step of the referral funnel. */
export interface FunnelStep {
  key: 'links' | 'visits' | 'joins' | 'approved';
  label: string;
  count: number;
  /**
   * This step's count divided by the previous step's (0..1 for joins and approvals; visits per
   * link shared may exceed 1); null for the first step or when the previous count is 0.
   */
  conversion: number | null;
}

/**
 * `GET /api/analytics/funnel`: links shared (referral links whose join page was opened, or that
 * were emailed to their member, in the period: docs/decisions/links-shared.md) → join-page visits → joins (friends who joined through a link) → approved branches.
 */
export interface FunnelReport extends AnalyticsPeriod {
  steps: FunnelStep[];
  /** Approved branches per join-page visit (0..1), null without visits. */
  overallConversion: number | null;
}

/** One referrer of `GET /api/analytics/referrers`. */
export interface TopReferrer {
  memberId: string;
  /** The member's name, or null when the member has since been removed. */
  memberName: string | null;
  /** Branches added to this member's tree in the period. */
  branchesGained: number;
  /** Discounts this member received in the period, cents (price-ledger rule of `MoneyReport`). */
  savingsCents: number;
}

/** `GET /api/analytics/referrers`: the ten members who gained the most branches in the period. */
export interface TopReferrersReport extends AnalyticsPeriod {
  referrers: TopReferrer[];
}

/** One calendar month (UTC) of `MoneyReport`, clipped to the period. */
export interface MoneyMonth {
  /** `YYYY-MM`. */
  month: string;
  /** Discounts given this month, cents. */
  discountsCents: number;
  /** What referred members paid this month (their effective prices), cents. */
  referredRevenueCents: number;
}

/**
 * `GET /api/analytics/money`: per month, discounts given against the membership revenue of
 * referred members, both from the price ledger. Each ledger line is in force from its moment to
 * the member's next line (or now); a line whose reason is `membership_ended` carries nothing. A
 * line contributes its monthly amount prorated by the time it was in force within the month and
 * the period: amount × (seconds in force) / (seconds in the calendar month). Discount =
 * max(0, membership price − new price); revenue = new price, for members who joined as someone's
 * branch. Each month's sums are rounded to whole cents.
 */
export interface MoneyReport extends AnalyticsPeriod {
  months: MoneyMonth[];
  totalDiscountsCents: number;
  totalReferredRevenueCents: number;
  /**
   * Welcome offers granted to friends approved in the period (issue 33 item 1,
   * docs/product.md#welcome-offer): how many, and the cost of those with an amount (`amount`,
   * `percent`, `free`: `welcomeOfferCostCents` at the friend's membership price, over the offer's
   * months), cents; `welcomeOffersByHand` counts the text offers, which have no amount.
   */
  welcomeOffersGranted: number;
  welcomeOffersCostCents: number;
  welcomeOffersByHand: number;
}

/** Retention of one group at one horizon. */
export interface RetentionShare {
  /** Members of the group who joined in the period at least `days` days ago. */
  eligible: number;
  /** Of those, members whose membership had not ended `days` days after they joined. */
  active: number;
  /** active / eligible (0..1), null when no one is eligible yet. */
  share: number | null;
}

/** One horizon of `RetentionReport`. */
export interface RetentionHorizon {
  days: (typeof RETENTION_HORIZON_DAYS)[number];
  referred: RetentionShare;
  nonReferred: RetentionShare;
}

/**
 * `GET /api/analytics/retention`: the cohort of members who joined in the period, referred
 * (joined as someone's branch) or not, and the share still active 30, 90 and 180 days after
 * joining.
 */
export interface RetentionReport extends AnalyticsPeriod {
  horizons: RetentionHorizon[];
}

/** One channel of `JoinChannelsReport` (counts of the period). */
export interface JoinChannelRow {
  /** `JOIN_CHANNELS`' key (`direct`: a link opened without a known `?via=`). */
  channel: JoinChannel;
  /** Join-page visits that came through this channel (once per visitor, link and day). */
  visits: number;
  /** Friends who joined (prospective members created) after arriving through it. */
  joins: number;
  /** Of the friends who joined through it (whenever), those approved in the period. */
  approved: number;
}

/**
 * `GET /api/analytics/channels`: joins by channel, which share channel (`?via=` on the referral
 * link, docs/product.md#analytics) brought the period's join-page visits, joins and approvals.
 * One row per channel of `JOIN_CHANNELS` that has a count in the period, most joins first
 * (ties: most approvals, most visits, then `JOIN_CHANNELS`' order); empty when none.
 */
export interface JoinChannelsReport extends AnalyticsPeriod {
  channels: JoinChannelRow[];
}
