import { useQuery } from '@tanstack/react-query';
import { api, membersKey, unwrap } from '@grove/web-data-access';

/**
 * What Stripe will charge a member next (`GET /api/stripe-members/members/:id/next-charge`, the
 * subscription's upcoming invoice), for owners of a business billing on Stripe. Not retried: a 404
 * (no Stripe subscription) or 409 (Stripe not connected) simply means there is nothing to show.
 */
export function useStripeNextCharge(memberId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...membersKey, 'stripe-next-charge', memberId] as const,
    enabled,
    retry: false,
    staleTime: 5 * 60_000,
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/stripe-members/members/{id}/next-charge', {
          params: { path: { id: memberId } },
          signal,
        }),
      ),
  });
}
