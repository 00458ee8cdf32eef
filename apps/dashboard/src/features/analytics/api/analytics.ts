import { useQuery } from '@tanstack/react-query';
import type {
  AnalyticsPeriodQuery,
  FunnelReport,
  JoinChannelsReport,
  MoneyReport,
  RetentionReport,
  TopReferrersReport,
} from '@grove/contracts';
import { api, unwrap } from '@grove/web-data-access';

/** Cache key of every analytics report (only this feature reads them). */
export const analyticsKey = ['analytics'] as const;

type ReportRoute = 'funnel' | 'channels' | 'referrers' | 'money' | 'retention';

function useReport<T>(route: ReportRoute, query: AnalyticsPeriodQuery) {
  return useQuery({
    queryKey: [...analyticsKey, route, query],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET(`/analytics/${route}`, {
          // The period is sent as the page's URL has it: the API answers one outside the
          // contract's list with its 400 message, which the screen shows.
          params: { query: query as never },
          signal,
        }),
      ) as Promise<T>,
  });
}

/** The funnel of the period (`GET /api/analytics/funnel`). */
export const useFunnel = (query: AnalyticsPeriodQuery) => useReport<FunnelReport>('funnel', query);

/** Visits, joins and approvals per share channel (`GET /api/analytics/channels`). */
export const useJoinChannels = (query: AnalyticsPeriodQuery) =>
  useReport<JoinChannelsReport>('channels', query);

/** The top referrers of the period (`GET /api/analytics/referrers`). */
export const useTopReferrers = (query: AnalyticsPeriodQuery) =>
  useReport<TopReferrersReport>('referrers', query);

/** Monthly discounts vs referred revenue (`GET /api/analytics/money`). */
export const useMoney = (query: AnalyticsPeriodQuery) => useReport<MoneyReport>('money', query);

/** Retention of referred vs other members (`GET /api/analytics/retention`). */
export const useRetention = (query: AnalyticsPeriodQuery) =>
  useReport<RetentionReport>('retention', query);
