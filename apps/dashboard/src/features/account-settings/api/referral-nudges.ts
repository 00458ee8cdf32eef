import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReferralNudgeKind, ReferralNudgeSettings } from '@grove/contracts';
import { api, unwrap } from '@grove/web-data-access';

const nudgesKey = ['settings', 'referral-nudges'] as const;

/** When the business asks its members to refer (`GET /api/settings/referral-nudges`). */
export function useReferralNudges() {
  return useQuery({
    queryKey: nudgesKey,
    queryFn: ({ signal }) => unwrap(api.GET('/settings/referral-nudges', { signal })),
  });
}

/** Saves all three settings (`PUT /api/settings/referral-nudges`). @returns them as stored */
export function useSaveReferralNudges() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReferralNudgeSettings) =>
      unwrap(api.PUT('/settings/referral-nudges', { body })),
    onSuccess: (saved) => client.setQueryData(nudgesKey, saved),
  });
}

/**
 * One nudge email rendered for a real member of the business (`GET
 * /api/settings/referral-nudges/preview?kind=[&visits=]`), fetched only once `enabled` (the owner
 * asked); with `visits`, the invitation after that visit (a Mindbody member).
 */
export function useReferralNudgePreview(
  kind: ReferralNudgeKind,
  enabled: boolean,
  visits?: number,
) {
  return useQuery({
    queryKey: [...nudgesKey, 'preview', kind, visits ?? null],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/settings/referral-nudges/preview', {
          params: { query: visits === undefined ? { kind } : { kind, visits } },
          signal,
        }),
      ),
    enabled,
    staleTime: 0,
  });
}
