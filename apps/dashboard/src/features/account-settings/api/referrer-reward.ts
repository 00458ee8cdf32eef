import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReferrerReward } from '@grove/contracts';
import { api, membersKey, unwrap } from '@grove/web-data-access';

const referrerRewardKey = ['settings', 'referrer-reward'] as const;

/** The business's referrer reward and its cap (`GET /api/settings/referrer-reward`). */
export function useReferrerReward() {
  return useQuery({
    queryKey: referrerRewardKey,
    queryFn: ({ signal }) => unwrap(api.GET('/settings/referrer-reward', { signal })),
  });
}

/**
 * Saves the reward (`PUT /api/settings/referrer-reward`, amounts in cents); it can move members'
 * prices, so the Branches table is fetched again. Rejects with an ApiError (field messages on 400).
 */
export function useSaveReferrerReward() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReferrerReward) => unwrap(api.PUT('/settings/referrer-reward', { body })),
    onSuccess: (saved) => {
      client.setQueryData(referrerRewardKey, saved);
      return client.invalidateQueries({ queryKey: membersKey });
    },
  });
}
