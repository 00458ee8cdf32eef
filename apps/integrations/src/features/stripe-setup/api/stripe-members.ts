import { useEffect, useRef } from 'react';
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

/** The latest import or sync (`StripeMembersStatus.run`): a background job with progress. */
export type StripeMembersRun = Schema<'StripeMembersRun'>;

/** How often the status is asked again while an import or sync runs (ms). */
export const STRIPE_RUN_POLL_MS = 3_000;

/**
 * The status: connected, the key's last 4 characters, discounts (cents), the latest run. Asked
 * again every `pollMs` while a run is under way; when it ends, members and the preview reload.
 */
export function useStripeMembersStatus(pollMs = STRIPE_RUN_POLL_MS) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: stripeMembersKey,
    queryFn: ({ signal }) => unwrap(api.GET('/stripe-members', { signal })),
    refetchInterval: (current) => (current.state.data?.run?.state === 'running' ? pollMs : false),
  });
  const state = query.data?.run?.state;
  const previous = useRef(state);
  useEffect(() => {
    if (previous.current === 'running' && state !== 'running')
      void Promise.all([
        client.invalidateQueries({ queryKey: membersKey }),
        client.invalidateQueries({ queryKey: stripePreviewKey }),
      ]);
    previous.current = state;
  }, [client, state]);
  return query;
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

/**
 * Starts importing the customers with active subscriptions (`POST /api/stripe-members/import`, 202:
 * a background job); the status it answers carries the run, which the status query then polls.
 */
export function useImportStripeMembers() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/stripe-members/import')),
    onSuccess: (status) => refresh(client, status),
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
 * Starts the confirmed sync (`POST /api/stripe-members/sync {confirm, automatic}`, 202: a
 * background job writing exactly the previewed bills; its run is polled with the status);
 * `automatic` lets later webhook changes be written under the same discounts.
 */
export function useStripeSync() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Schema<'StripeMembersSyncDto'>) =>
      unwrap(api.POST('/stripe-members/sync', { body })),
    onSuccess: (status) => refresh(client, status),
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
