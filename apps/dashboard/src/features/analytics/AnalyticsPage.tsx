import { useState } from 'react';
import { Link } from 'react-router-dom';
import type {
  AnalyticsPeriodQuery,
  FunnelReport,
  MoneyReport,
  RetentionReport,
  TopReferrersReport,
} from '@grove/contracts';
import { centsToDollarText } from '@grove/contracts';
import { PageHeader } from '@grove/web-ui';
import { useFunnel, useMoney, useRetention, useTopReferrers } from './api/analytics';
import { formatMonth, formatShare, formatShortMonth, money, wholeDollars } from './format';
import { PeriodPicker } from './PeriodPicker';
import { LazyLineChart, ReportCard } from './ReportCard';

const GREEN = '#2f7d52';
const AMBER = '#b7791f';
const asPercent = (share: number) => `${Math.round(share * 100)}%`;

/** The funnel as bars whose widths follow each step's count. */
function FunnelBars({ report }: { report: FunnelReport }) {
  const most = Math.max(...report.steps.map((step) => step.count), 1);
  return (
    <ol className="dash-funnel" aria-hidden="true">
      {report.steps.map((step) => (
        <li key={step.key} className="dash-funnel__step">
          <span className="dash-funnel__label">{step.label}</span>
          <span className="dash-funnel__bar" style={{ width: `${(step.count / most) * 100}%` }} />
          <span className="dash-funnel__count">{step.count.toLocaleString('en-AU')}</span>
        </li>
      ))}
    </ol>
  );
}

/**
 * Analytics (`/dashboard/analytics`, issue 14): for a chosen period, the referral funnel, the
 * top referrers, the money (discounts given vs what referred members pay, per month) and the
 * retention of referred vs other members, each with its data table and a CSV download, and an
 * empty state that says what to do.
 */
export function AnalyticsPage() {
  const [period, setPeriod] = useState<AnalyticsPeriodQuery>({ period: '30' });
  const funnel = useFunnel(period);
  const referrers = useTopReferrers(period);
  const moneyReport = useMoney(period);
  const retention = useRetention(period);
  return (
    <>
      <PageHeader
        title="Analytics"
        description="See whether referrals pay: who shares, who joins, what discounts cost and how long referred members stay."
      />
      <PeriodPicker value={period} onChange={setPeriod} />
      <div className="dash-reports">
        <ReportCard<FunnelReport>
          title="Referral funnel"
          file="referral-funnel"
          query={funnel}
          isEmpty={(data) => data.steps.every((step) => step.count === 0)}
          empty={
            <>
              Share a referral link to see visits here.{' '}
              <Link to="/referral-links">Open Referral Links</Link>
            </>
          }
          chart={(data) => <FunnelBars report={data} />}
          table={(data) => ({
            caption: `Referral funnel, ${data.from} to ${data.to}`,
            head: ['Step', 'Count', 'Conversion'],
            // Visits per live link is a ratio, not a share: "140.8 per link".
            rows: data.steps.map((step) => [
              step.label,
              step.count.toLocaleString('en-AU'),
              step.key === 'visits' && step.conversion !== null
                ? `${step.conversion.toFixed(1)} per link`
                : formatShare(step.conversion),
            ]),
            csvRows: data.steps.map((step) => [step.label, step.count, step.conversion ?? '']),
          })}
        />
        <ReportCard<TopReferrersReport>
          title="Top referrers"
          file="top-referrers"
          query={referrers}
          isEmpty={(data) => data.referrers.length === 0}
          empty="No tree gained a branch in this period. Approve friends who joined through a referral link to see your top referrers here."
          table={(data) => ({
            caption: `Members whose trees gained the most branches, ${data.from} to ${data.to}`,
            head: ['Member', 'Branches gained', 'Savings'],
            rows: data.referrers.map((row) => [
              row.memberName ?? 'Removed member',
              row.branchesGained,
              money(row.savingsCents),
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
          isEmpty={(data) => data.totalDiscountsCents === 0 && data.totalReferredRevenueCents === 0}
          empty="No discounts or referred members' payments in this period. Discounts appear here once a member's tree gains a branch."
          chart={(data) => (
            <LazyLineChart
              labels={data.months.map((month) => formatShortMonth(month.month))}
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
              formatValue={wholeDollars}
            />
          )}
          table={(data) => ({
            caption: `Discounts given and referred members' revenue per month, ${data.from} to ${data.to}`,
            head: ['Month', 'Discounts', 'Referred revenue'],
            rows: [
              ...data.months.map((month) => [
                formatMonth(month.month),
                money(month.discountsCents),
                money(month.referredRevenueCents),
              ]),
              ['Total', money(data.totalDiscountsCents), money(data.totalReferredRevenueCents)],
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
            caption: `Share of members who joined ${data.from} to ${data.to} still active after 30, 90 and 180 days`,
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
