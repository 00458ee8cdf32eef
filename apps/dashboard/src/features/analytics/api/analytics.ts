import { useQuery } from '@tanstack/react-query';
import type {
  AnalyticsPeriodQuery,
  FunnelReport,
  MoneyReport,
  RetentionReport,
  TopReferrersReport,
} from '@grove/contracts';
import { apiFetch } from '@grove/web-data-access';

/** Cache key of every analytics report (only this feature reads them). */
export const analyticsKey = ['analytics'] as const;

function useReport<T>(route: string, query: AnalyticsPeriodQuery) {
  return useQuery({
    queryKey: [...analyticsKey, route, query],
    queryFn: ({ signal }) =>
      apiFetch<T>(`/api/analytics/${route}`, { query: { ...query }, signal }),
  });
}

/** The funnel of the period (`GET /api/analytics/funnel`). */
export const useFunnel = (query: AnalyticsPeriodQuery) => useReport<FunnelReport>('funnel', query);

/** The top referrers of the period (`GET /api/analytics/referrers`). */
export const useTopReferrers = (query: AnalyticsPeriodQuery) =>
  useReport<TopReferrersReport>('referrers', query);

/** Monthly discounts vs referred revenue (`GET /api/analytics/money`). */
export const useMoney = (query: AnalyticsPeriodQuery) => useReport<MoneyReport>('money', query);

/** Retention of referred vs other members (`GET /api/analytics/retention`). */
export const useRetention = (query: AnalyticsPeriodQuery) =>
  useReport<RetentionReport>('retention', query);
