import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  MindbodyCredentialsRequest,
  MindbodyDiscountsRequest,
  MindbodyStatus,
  MindbodySyncRequest,
} from '@grove/contracts';
import { ApiError, api, membersKey, prospectsKey, unwrap } from '@grove/web-data-access';

export const mindbodyKey = ['mindbody'] as const;

/** docs/product.md#states, docs/product.md#constants: while a process runs, the wizard polls the status every 10 seconds. */
const MINDBODY_POLL_MS = 10_000;

/**
 * docs/product.md#states: polling goes on while the process state is set and does not contain 'fail'
 * ('running'); a completed or failed state, or none, stops it.
 */
function isMindbodyProcessRunning(status: MindbodyStatus | undefined): boolean {
  return status?.processState === 'running';
}

/** Reloads what Mindbody changes: the members (trees) and the prospective members. */
function reloadMindbodyLists(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: membersKey }),
    client.invalidateQueries({ queryKey: prospectsKey }),
  ]);
}

/**
 * The integration's status (`GET /api/mindbody`): stage 1–4, discounts (cents), process state,
 * progress, last sync. Refetched every `pollMs` while a process runs (docs/product.md#mindbody-stages); when a run
 * (import or sync) ends, the members and prospective members it changed reload.
 */
export function useMindbodyStatus(pollMs = MINDBODY_POLL_MS) {
  const client = useQueryClient();
  const status = useQuery({
    queryKey: mindbodyKey,
    queryFn: ({ signal }) => unwrap(api.GET('/mindbody', { signal })),
    refetchInterval: (query) => (isMindbodyProcessRunning(query.state.data) ? pollMs : false),
  });
  const wasRunning = useRef(false);
  const running = isMindbodyProcessRunning(status.data);
  useEffect(() => {
    if (wasRunning.current && !running) void reloadMindbodyLists(client);
    wasRunning.current = running;
  }, [running, client]);
  return status;
}

/** A mutation whose reply is the new status: it replaces the cached one; members and prospects reload. */
function useMindbodyMutation<TVariables>(
  mutationFn: (variables: TVariables) => Promise<MindbodyStatus>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (status) => {
      client.setQueryData(mindbodyKey, status);
      return reloadMindbodyLists(client);
    },
  });
}

/**
 * Stage 1, first step (issue 22): whether the site has activated Grove's access, else its
 * activation link and code (`GET /api/mindbody/activation?siteId=`). Nothing is stored.
 */
export function useSiteActivation() {
  return useMutation({
    mutationFn: (siteId: string) =>
      unwrap(api.GET('/mindbody/activation', { params: { query: { siteId } } })),
  });
}

/** Stage 1 → 2: checks and stores the staff credentials (`POST /api/mindbody/credentials`). */
export function useConnectMindbody() {
  return useMindbodyMutation((body: MindbodyCredentialsRequest) =>
    unwrap(api.POST('/mindbody/credentials', { body })),
  );
}

/** 'Import members' (`POST /api/mindbody/import`): the state becomes 'running'. */
export function useImportMindbody() {
  return useMindbodyMutation(() => unwrap(api.POST('/mindbody/import')));
}

/** Saves the discounts, integer cents (`PUT /api/mindbody/discounts`): stage 4. */
export function useSaveMindbodyDiscounts() {
  return useMindbodyMutation((body: MindbodyDiscountsRequest) =>
    unwrap(api.PUT('/mindbody/discounts', { body })),
  );
}

/** Cache key of the sync's preview (`GET /api/mindbody/sync/preview`). */
export const syncPreviewKey = ['mindbody', 'sync-preview'] as const;
/** Cache key of the removal's preview (`GET /api/mindbody/removal/preview`). */
export const removalPreviewKey = ['mindbody', 'removal-preview'] as const;

/**
 * The Mindbody bills a sync would change (issue 25, `GET /api/mindbody/sync/preview`: the first
 * 100 by name, the count, the monthly difference in cents, the fingerprint to confirm). Fetched
 * afresh each time the review opens (`enabled`), never from an old cache.
 */
export function useSyncPreview(enabled: boolean) {
  return useQuery({
    queryKey: syncPreviewKey,
    queryFn: ({ signal }) => unwrap(api.GET('/mindbody/sync/preview', { signal })),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

/** The bills 'Remove integration' would put back (issue 25, `GET /api/mindbody/removal/preview`). */
export function useRemovalPreview(enabled: boolean) {
  return useQuery({
    queryKey: removalPreviewKey,
    queryFn: ({ signal }) => unwrap(api.GET('/mindbody/removal/preview', { signal })),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

/**
 * 'Sync with mindbody' once its preview is confirmed (`POST /api/mindbody/sync {confirm}`, issue
 * 25). A 409 `ApiError` means the bills changed since the preview: the caller shows it again,
 * and the status reloads (a sync that changed them may be running).
 */
export function useSyncMindbody() {
  const client = useQueryClient();
  return useMindbodyMutation(async (body: MindbodySyncRequest) => {
    try {
      return await unwrap(api.POST('/mindbody/sync', { body }));
    } catch (error) {
      // 409: the bills changed since the review (a sync Mindbody's webhook started, most often):
      // the status reloads, so the page shows that sync running and polls until it ends.
      if (error instanceof ApiError && error.status === 409)
        void client.invalidateQueries({ queryKey: mindbodyKey, exact: true });
      throw error;
    }
  });
}

/** 'Remove integration' (`DELETE /api/mindbody`): back to stage 1, discounts cleared. */
export function useRemoveMindbody() {
  return useMindbodyMutation(() => unwrap(api.DELETE('/mindbody')));
}

const referralTypesKey = [...mindbodyKey, 'referral-types'] as const;

/**
 * The site's referral types and the one Grove sends as `ReferredBy` when it adds an approved
 * friend to Mindbody (`GET /api/mindbody/referral-types`, issue 33 item 4).
 */
export function useMindbodyReferralTypes() {
  return useQuery({
    queryKey: referralTypesKey,
    queryFn: ({ signal }) => unwrap(api.GET('/mindbody/referral-types', { signal })),
  });
}

/** Saves the referral type (`PUT /api/mindbody/referral-type`; null: none); the list reloads. */
export function useSaveMindbodyReferralType() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (referralType: string | null) =>
      unwrap(api.PUT('/mindbody/referral-type', { body: { referralType } })),
    onSuccess: (saved) => client.setQueryData(referralTypesKey, saved),
  });
}
