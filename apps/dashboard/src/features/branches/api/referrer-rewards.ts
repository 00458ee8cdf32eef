import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, membersKey, unwrap } from '@grove/web-data-access';

/** Under the members key: a branch added, approved or counting reloads the rewards owed. */
const rewardsKey = [...membersKey, 'referrer-rewards'] as const;

/**
 * The rewards owed to referrers (`GET /api/referrer-rewards`, docs/product.md#referrer-reward):
 * those still to honour first.
 */
export function useReferrerRewardsOwed() {
  return useQuery({
    queryKey: rewardsKey,
    queryFn: ({ signal }) => unwrap(api.GET('/referrer-rewards', { signal })),
  });
}

/** Marks a reward honoured (`POST /api/referrer-rewards/:id/honoured`); the list reloads. */
export function useMarkReferrerRewardHonoured() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST('/referrer-rewards/{id}/honoured', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: rewardsKey }),
  });
}
