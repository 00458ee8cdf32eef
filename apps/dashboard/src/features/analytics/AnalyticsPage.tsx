import { hrefs } from '@grove/contracts';
import { Link, useSearchParams } from 'react-router-dom';
import type {
  AnalyticsPeriodQuery,
  FunnelReport,
  JoinChannelsReport,
  MoneyReport,
  RetentionReport,
  TopReferrersReport,
} from '@grove/contracts';
import {
  JOIN_CHANNEL_LABELS,
  centsToDollarText,
  resolveAnalyticsPeriod,
  utcDay,
  type LocaleFormats,
} from '@grove/contracts';
import { useLocaleFormats } from '@grove/web-data-access';
import { PageHeader } from '@grove/web-ui';
import {
  useFunnel,
  useJoinChannels,
  useMoney,
  useRetention,
  useTopReferrers,
} from './api/analytics';
import { formatShare } from './format';
import { PeriodPicker } from './PeriodPicker';
import { LazyLineChart, ReportCard } from './ReportCard';
import './analytics.css';

const GREEN = '#2f7d52';
const AMBER = '#b7791f';
const asPercent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * The money table's welcome-offer row label: 'Welcome offers to friends (2 granted)', with how many
 * are honoured by hand (text offers, no amount) when any.
 */
export function welcomeOffersLabel(
  report: Pick<MoneyReport, 'welcomeOffersGranted' | 'welcomeOffersByHand'>,
  count: (value: number) => string,
): string {
  const byHand =
    report.welcomeOffersByHand > 0 ? `, ${count(report.welcomeOffersByHand)} by hand` : '';
  return `Welcome offers to friends (${count(report.welcomeOffersGranted)} granted${byHand})`;
}

/** The funnel as bars whose widths follow each step's count. */
function FunnelBars({ report, format }: { report: FunnelReport; format: LocaleFormats }) {
  const most = Math.max(...report.steps.map((step) => step.count), 1);
  return (
    <ol className="dash-funnel" aria-hidden="true">
      {report.steps.map((step) => (
        <li key={step.key} className="dash-funnel__step">
          <span className="dash-funnel__label">{step.label}</span>
          <span className="dash-funnel__bar" style={{ width: `${(step.count / most) * 100}%` }} />
          <span className="dash-funnel__count">{format.count(step.count)}</span>
        </li>
      ))}
    </ol>
  );
}

/** Joins per channel as bars whose widths follow each channel's joins (the funnel's bars). */
function ChannelBars({ report, format }: { report: JoinChannelsReport; format: LocaleFormats }) {
  const most = Math.max(...report.channels.map((row) => row.joins), 1);
  return (
    <ol className="dash-funnel" aria-hidden="true">
      {report.channels.map((row) => (
        <li key={row.channel} className="dash-funnel__step">
          <span className="dash-funnel__label">{JOIN_CHANNEL_LABELS[row.channel]}</span>
          <span className="dash-funnel__bar" style={{ width: `${(row.joins / most) * 100}%` }} />
          <span className="dash-funnel__count">{format.count(row.joins)}</span>
        </li>
      ))}
    </ol>
  );
}

/**
 * The period the URL names (`?period=90`, `?from=2026-01-01&to=2026-03-31`), checked with the
 * API's rule (`resolveAnalyticsPeriod`); the last 30 days when it names none or a bad one.
 */
export function periodFromUrl(params: URLSearchParams): AnalyticsPeriodQuery {
  const query: AnalyticsPeriodQuery = {};
  for (const key of ['period', 'from', 'to'] as const) {
    const value = params.get(key);
    if (value !== null) query[key] = value;
  }
  if (Object.keys(query).length === 0) return { period: '30' };
  return resolveAnalyticsPeriod(query, utcDay(new Date())).error ? { period: '30' } : query;
}

/**
 * Analytics (`/dashboard/analytics`, issue 14): for a chosen period, the referral funnel, joins
 * by channel (issue 33: which share channel brought visits, joins and approvals), the top referrers, the money (discounts given vs what referred members pay, per month) and the
 * retention of referred vs other members, each with its data table and a CSV download, and an
 * empty state that says what to do. The period lives in the URL (`periodFromUrl`), so reload,
 * back and forward keep it; money, counts, days and months are the business's
 * (`useLocaleFormats`).
 */
export function AnalyticsPage() {
  const [params, setParams] = useSearchParams();
  const period = periodFromUrl(params);
  const setPeriod = (query: AnalyticsPeriodQuery) => {
    const next = new URLSearchParams(params);
    for (const key of ['period', 'from', 'to'] as const) {
      const value = query[key];
      if (value === undefined) next.delete(key);
      else next.set(key, value);
    }
    setParams(next);
  };
  const format = useLocaleFormats();
  const span = (data: { from: string; to: string }) =>
    `${format.day(data.from)} to ${format.day(data.to)}`;
  const funnel = useFunnel(period);
  const channels = useJoinChannels(period);
  const referrers = useTopReferrers(period);
  const moneyReport = useMoney(period);
  const retention = useRetention(period);
  return (
    <>
      <PageHeader
        title="Analytics"
        description="See whether referrals pay: who shares, who joins, what discounts cost and how long referred members stay."
      />
      <PeriodPicker
        // A new period from the URL (back, forward, a pasted link) starts the picker afresh.
        key={`${period.period ?? ''}|${period.from ?? ''}|${period.to ?? ''}`}
        value={period}
        onChange={setPeriod}
      />
      <div className="dash-reports">
        <ReportCard<FunnelReport>
          title="Referral funnel"
          file="referral-funnel"
          query={funnel}
          isEmpty={(data) => data.steps.every((step) => step.count === 0)}
          empty={
            <>
              Share a referral link to see visits here.{' '}
              <Link to={hrefs.referralLinks}>Open Referral Links</Link>
            </>
          }
          chart={(data) => <FunnelBars report={data} format={format} />}
          table={(data) => ({
            caption: `Referral funnel, ${span(data)}`,
            head: ['Step', 'Count', 'Conversion'],
            // Visits per link shared is a ratio, not a share: "140.8 per link".
            rows: data.steps.map((step) => [
              step.label,
              format.count(step.count),
              step.key === 'visits' && step.conversion !== null
                ? `${step.conversion.toFixed(1)} per link`
                : formatShare(step.conversion),
            ]),
            csvRows: data.steps.map((step) => [step.label, step.count, step.conversion ?? '']),
          })}
        />
        <ReportCard<JoinChannelsReport>
          title="Joins by channel"
          file="joins-by-channel"
          query={channels}
          isEmpty={(data) => data.channels.length === 0}
          empty="No friend opened a referral link in this period. Links members share by WhatsApp, SMS, email, copy or QR code show here by channel."
          chart={(data) => <ChannelBars report={data} format={format} />}
          table={(data) => ({
            caption: `Join-page visits, joins and approvals by channel, ${span(data)}`,
            head: ['Channel', 'Visits', 'Joins', 'Approved'],
            rows: data.channels.map((row) => [
              JOIN_CHANNEL_LABELS[row.channel],
              format.count(row.visits),
              format.count(row.joins),
              format.count(row.approved),
            ]),
            csvRows: data.channels.map((row) => [
              JOIN_CHANNEL_LABELS[row.channel],
              row.visits,
              row.joins,
              row.approved,
            ]),
          })}
        />
        <ReportCard<TopReferrersReport>
          title="Top referrers"
          file="top-referrers"
          query={referrers}
          isEmpty={(data) => data.referrers.length === 0}
          empty="No tree gained a branch in this period. Approve friends who joined through a referral link to see your top referrers here."
          table={(data) => ({
            caption: `Members whose trees gained the most branches, ${span(data)}`,
            head: ['Member', 'Branches gained', 'Savings'],
            rows: data.referrers.map((row) => [
              row.memberName ?? 'Removed member',
              row.branchesGained,
              format.money(row.savingsCents),
            ]),
            csvRows: data.referrers.map((row) => [
              row.memberName ?? 'Removed member',
              row.branchesGained,
              centsToDollarText(row.savingsCents),
            ]),
          })}
        />
        <ReportCard<MoneyReport>
          title="Discounts given vs referred members' revenue"
          file="discounts-and-revenue"
          query={moneyReport}
          isEmpty={(data) =>
            data.totalDiscountsCents === 0 &&
            data.totalReferredRevenueCents === 0 &&
            data.welcomeOffersGranted === 0
          }
          empty="No discounts or referred members' payments in this period. Discounts appear here once a member's tree gains a branch."
          chart={(data) => (
            <LazyLineChart
              labels={data.months.map((month) => format.month(month.month))}
              series={[
                {
                  label: 'Discounts given',
                  values: data.months.map((month) => month.discountsCents),
                  color: AMBER,
                },
                {
                  label: "Referred members' revenue",
                  values: data.months.map((month) => month.referredRevenueCents),
                  color: GREEN,
                },
              ]}
              formatValue={format.wholeMoney}
            />
          )}
          table={(data) => ({
            caption: `Discounts given and referred members' revenue per month, ${span(data)}`,
            head: ['Month', 'Discounts', 'Referred revenue'],
            rows: [
              ...data.months.map((month) => [
                format.month(month.month),
                format.money(month.discountsCents),
                format.money(month.referredRevenueCents),
              ]),
              [
                'Total',
                format.money(data.totalDiscountsCents),
                format.money(data.totalReferredRevenueCents),
              ],
              // The friends' welcome offers granted in the period, next to the referrer discounts
              // (issue 33 item 1, docs/product.md#welcome-offer).
              ...(data.welcomeOffersGranted > 0
                ? [
                    [
                      welcomeOffersLabel(data, format.count),
                      format.money(data.welcomeOffersCostCents),
                      '',
                    ],
                  ]
                : []),
            ],
            csvRows: data.months.map((month) => [
              month.month,
              centsToDollarText(month.discountsCents),
              centsToDollarText(month.referredRevenueCents),
            ]),
          })}
        />
        <ReportCard<RetentionReport>
          title="Retention: referred vs other members"
          file="retention"
          query={retention}
          isEmpty={(data) =>
            data.horizons.every(
              (horizon) => horizon.referred.eligible + horizon.nonReferred.eligible === 0,
            )
          }
          empty="No member who joined in this period has been a member for 30 days yet. Choose a longer period to see how long members stay."
          chart={(data) => (
            <LazyLineChart
              labels={data.horizons.map((horizon) => `${horizon.days} days`)}
              series={[
                {
                  label: 'Referred members',
                  values: data.horizons.map((horizon) => horizon.referred.share),
                  color: GREEN,
                },
                {
                  label: 'Other members',
                  values: data.horizons.map((horizon) => horizon.nonReferred.share),
                  color: AMBER,
                },
              ]}
              formatValue={asPercent}
            />
          )}
          table={(data) => ({
            caption: `Share of members who joined ${span(data)} still active after 30, 90 and 180 days`,
            head: ['After', 'Referred', 'Others'],
            rows: data.horizons.map((horizon) => [
              `${horizon.days} days`,
              `${formatShare(horizon.referred.share)} (${horizon.referred.active} of ${horizon.referred.eligible})`,
              `${formatShare(horizon.nonReferred.share)} (${horizon.nonReferred.active} of ${horizon.nonReferred.eligible})`,
            ]),
            csvRows: data.horizons.map((horizon) => [
              horizon.days,
              horizon.referred.share ?? '',
              horizon.nonReferred.share ?? '',
            ]),
          })}
        />
      </div>
    </>
  );
}
