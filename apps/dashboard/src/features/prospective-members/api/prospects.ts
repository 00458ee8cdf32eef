import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberInput, ProspectSettings } from '@grove/contracts';
import { api, membersKey, prospectsKey, unwrap } from '@grove/web-data-access';

/** A page of prospective members waiting for approval (`GET /api/prospects`). */
export function useProspects(query: { page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...prospectsKey, query],
    queryFn: ({ signal }) => unwrap(api.GET('/prospects', { params: { query: query }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** Removes a prospective member (`DELETE /api/prospects/:id`); the list reloads. */
export function useRemoveProspect() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/prospects/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: prospectsKey }),
  });
}

/**
 * Whether the business's Mindbody is connected and imported (`GET /api/mindbody`, stage 2 or
 * more): the approval dialog then offers 'Add to Mindbody' (issue 33 item 4).
 */
export function useMindbodyConnected(): boolean {
  const status = useQuery({
    queryKey: ['mindbody', 'status'],
    queryFn: ({ signal }) => unwrap(api.GET('/mindbody', { signal })),
    staleTime: 60_000,
  });
  return (status.data?.stage ?? 1) >= 2;
}

/**
 * Approves a prospect (`POST /api/prospects/:id/approve`): the friend becomes a tree and a branch
 * of the member who referred them, in one step on the server; with `addToMindbody` (the owner's
 * tick) the server then adds them as a Mindbody client.
 */
export function useApproveProspect() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: MemberInput & { id: string; addToMindbody?: boolean }) =>
      unwrap(api.POST('/prospects/{id}/approve', { params: { path: { id } }, body })),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: prospectsKey }),
        client.invalidateQueries({ queryKey: membersKey }),
      ]),
  });
}

/**
 * A page of flagged joins (`GET /api/prospects/flags`): members of this business, or referrers
 * themselves, who joined through a referral link; they were told 'Successfully registered!' like
 * anyone else but not queued. Reloads with the prospects.
 */
export function useJoinFlags(query: { page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...prospectsKey, 'flags', query],
    queryFn: ({ signal }) =>
      unwrap(api.GET('/prospects/flags', { params: { query: query }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** Dismisses a flagged join (`DELETE /api/prospects/flags/:id`); the flags reload. */
export function useDismissJoinFlag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/prospects/flags/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: [...prospectsKey, 'flags'] }),
  });
}

const prospectSettingsKey = [...prospectsKey, 'settings'] as const;

/** Whether prospects who pass every check are approved automatically (`GET /api/settings/prospects`). */
export function useProspectSettings() {
  return useQuery({
    queryKey: prospectSettingsKey,
    queryFn: ({ signal }) => unwrap(api.GET('/settings/prospects', { signal })),
  });
}

/**
 * Turns automatic approval on or off (`PUT /api/settings/prospects`): shown at once, put back when
 * the save is refused.
 */
export function useSaveProspectSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ProspectSettings) => unwrap(api.PUT('/settings/prospects', { body })),
    onMutate: async (body) => {
      await client.cancelQueries({ queryKey: prospectSettingsKey });
      const previous = client.getQueryData<ProspectSettings>(prospectSettingsKey);
      client.setQueryData(prospectSettingsKey, body);
      return { previous };
    },
    onError: (_error, _body, context) =>
      client.setQueryData(prospectSettingsKey, context?.previous),
    onSuccess: (saved) => client.setQueryData(prospectSettingsKey, saved),
  });
}

/**
 * The welcome offers granted to approved friends (`GET /api/welcome-offers`,
 * docs/product.md#welcome-offer): those still to honour first. Reloads with the prospects (an
 * approval grants one).
 */
export function useWelcomeOfferGrants() {
  return useQuery({
    queryKey: [...prospectsKey, 'welcome-offers'],
    queryFn: ({ signal }) => unwrap(api.GET('/welcome-offers', { signal })),
  });
}

/** Marks a granted welcome offer honoured (`POST /api/welcome-offers/:id/honoured`); the list reloads. */
export function useMarkWelcomeOfferHonoured() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST('/welcome-offers/{id}/honoured', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: [...prospectsKey, 'welcome-offers'] }),
  });
}
