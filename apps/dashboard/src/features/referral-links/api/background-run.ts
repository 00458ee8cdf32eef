import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api, unwrap } from '@grove/web-data-access';

/** What every background run's state has (`ReferralLinkRun`, `ReferralEmailRun`). */
export interface RunState {
  status: 'idle' | 'running' | 'done' | 'failed';
  total: number;
  processed: number;
}

/** The contract's paths of the two background runs (relative to /api). */
export type RunPath = '/referral-links/all' | '/referral-links/email';

/**
 * A background run of the Referral Links screen ('Create links for all members without one',
 * 'Email all links'): `GET path` is its latest state, polled every second while it is running;
 * `start` is `POST path` (idempotent on the server: a run already going is returned as it is).
 */
export function useBackgroundRun<T extends RunState>(path: RunPath, queryKey: QueryKey) {
  const client = useQueryClient();
  const run = useQuery({
    queryKey,
    queryFn: ({ signal }) => unwrap(api.GET(path, { signal })) as unknown as Promise<T>,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1_000 : false),
  });
  const start = useMutation({
    mutationFn: () => unwrap(api.POST(path)) as unknown as Promise<T>,
    onSuccess: (state) => client.setQueryData(queryKey, state),
  });
  return { run, start };
}
