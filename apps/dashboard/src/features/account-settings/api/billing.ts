import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@grove/web-data-access';

export const billingKey = ['billing'] as const;

/**
 * Where the business stands with Grove's own bill (`GET /api/billing`, docs/product.md#billing).
 * @param waitForPayment poll every 2 s (back from Checkout, until Stripe's webhook has arrived)
 * @param enabled ask at all (false for a role that may not see the bill)
 */
export function useBilling(waitForPayment = false, enabled = true) {
  return useQuery({
    queryKey: billingKey,
    enabled,
    queryFn: ({ signal }) => unwrap(api.GET('/billing', { signal })),
    refetchInterval: (query) =>
      waitForPayment && query.state.data?.state !== 'active' ? 2_000 : false,
  });
}

/**
 * 'Add a card' (`POST /api/billing/checkout`) or 'Manage billing' (`POST /api/billing/portal`):
 * sends the browser to Stripe's page. Rejects with an ApiError (409, 503) the card shows.
 */
export function useBillingRedirect(kind: 'checkout' | 'portal') {
  return useMutation({
    mutationFn: () =>
      unwrap(kind === 'checkout' ? api.POST('/billing/checkout') : api.POST('/billing/portal')),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}
