import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Schema } from '@grove/api-contract';
import { api, membersKey, unwrap } from '@grove/web-data-access';

/** The connection's status (`GET /api/stripe-members`). */
export type StripeMembersStatus = Schema<'StripeMembersStatus'>;
/** One page of the bills a sync would change (`GET /api/stripe-members/sync/preview`). */
export type StripeBillChanges = Schema<'StripeBillChanges'>;

export const stripeMembersKey = ['stripe-members'] as const;
/** Cache key of the sync's preview. */
export const stripePreviewKey = ['stripe-members', 'sync-preview'] as const;

/** The status: connected, the key's last 4 characters, discounts (cents), last runs. */
export function useStripeMembersStatus() {
  return useQuery({
    queryKey: stripeMembersKey,
    queryFn: ({ signal }) => unwrap(api.GET('/stripe-members', { signal })),
  });
}

/** After a write: the new status replaces the cached one; members and the preview reload. */
function refresh(client: QueryClient, status: StripeMembersStatus): Promise<unknown> {
  client.setQueryData(stripeMembersKey, status);
  return Promise.all([
    client.invalidateQueries({ queryKey: membersKey }),
    client.invalidateQueries({ queryKey: stripePreviewKey }),
  ]);
}

/** Connects the gym's restricted key (`PUT /api/stripe-members/credentials`). */
export function useConnectStripe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (apiKey: string) =>
      unwrap(api.PUT('/stripe-members/credentials', { body: { apiKey } })),
    onSuccess: (status) => refresh(client, status),
  });
}

/** Saves the webhook endpoint's signing secret (`PUT /api/stripe-members/webhook`). */
export function useSaveStripeWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (signingSecret: string) =>
      unwrap(api.PUT('/stripe-members/webhook', { body: { signingSecret } })),
    onSuccess: (status) => refresh(client, status),
  });
}

/** Saves the referral discounts, integer cents (`PUT /api/stripe-members/discounts`). */
export function useSaveStripeDiscounts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Schema<'StripeMembersDiscountsDto'>) =>
      unwrap(api.PUT('/stripe-members/discounts', { body })),
    onSuccess: (status) => refresh(client, status),
  });
}

/** Imports the customers with active subscriptions (`POST /api/stripe-members/import`). */
export function useImportStripeMembers() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/stripe-members/import')),
    onSuccess: (result) => refresh(client, result.status),
  });
}

/** The sync's preview, loaded when `enabled` (stored data only: nothing is written). */
export function useStripePreview(enabled: boolean) {
  return useQuery({
    queryKey: stripePreviewKey,
    enabled,
    queryFn: ({ signal }) => unwrap(api.GET('/stripe-members/sync/preview', { signal })),
  });
}

/**
 * The confirmed sync (`POST /api/stripe-members/sync {confirm, automatic}`): the bills written;
 * `automatic` lets later webhook changes be written under the same discounts.
 */
export function useStripeSync() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Schema<'StripeMembersSyncDto'>) =>
      unwrap(api.POST('/stripe-members/sync', { body })),
    onSuccess: (result) => refresh(client, result.status),
    // A stale preview (409) is shown again, reloaded.
    onError: () => client.invalidateQueries({ queryKey: stripePreviewKey }),
  });
}

/** Removes Grove's discounts and disconnects (`DELETE /api/stripe-members`): the count removed. */
export function useRemoveStripe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/stripe-members')),
    onSuccess: (result) => refresh(client, result.status),
  });
}
