import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@grove/web-data-access';

/** Cache key of the credits' preview. */
export const stripeCreditsKey = ['stripe-members', 'credits-preview'] as const;

/** The referrers' one-off credits a confirmation writes (`GET /api/stripe-members/credits/preview`). */
export function useStripeCreditsPreview(enabled: boolean) {
  return useQuery({
    queryKey: stripeCreditsKey,
    queryFn: ({ signal }) => unwrap(api.GET('/stripe-members/credits/preview', { signal })),
    enabled,
  });
}

/** Writes the previewed credits (`POST /api/stripe-members/credits` with its fingerprint). */
export function useWriteStripeCredits() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (confirm: string) =>
      unwrap(api.POST('/stripe-members/credits', { body: { confirm } })),
    onSettled: () => client.invalidateQueries({ queryKey: stripeCreditsKey }),
  });
}
