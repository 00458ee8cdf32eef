import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  FlaggedJoinRow,
  MemberInput,
  MemberRow,
  Page,
  ProspectRow,
  ProspectSettings,
} from '@grove/contracts';
import { apiFetch, membersKey, prospectsKey } from '@grove/web-data-access';

/** A page of prospective members waiting for approval (`GET /api/prospects`). */
export function useProspects(query: { page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...prospectsKey, query],
    queryFn: ({ signal }) => apiFetch<Page<ProspectRow>>('/api/prospects', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Removes a prospective member (`DELETE /api/prospects/:id`); the list reloads. */
export function useRemoveProspect() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<void>(`/api/prospects/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: prospectsKey }),
  });
}

/**
 * Approves a prospect (`POST /api/prospects/:id/approve`): the friend becomes a tree and a branch
 * of the member who referred them, in one step on the server.
 */
export function useApproveProspect() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: MemberInput & { id: string }) =>
      apiFetch<MemberRow>(`/api/prospects/${encodeURIComponent(id)}/approve`, {
        method: 'POST',
        body,
      }),
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
      apiFetch<Page<FlaggedJoinRow>>('/api/prospects/flags', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Dismisses a flagged join (`DELETE /api/prospects/flags/:id`); the flags reload. */
export function useDismissJoinFlag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<void>(`/api/prospects/flags/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...prospectsKey, 'flags'] }),
  });
}

const prospectSettingsKey = [...prospectsKey, 'settings'] as const;

/** Whether prospects who pass every check are approved automatically (`GET /api/settings/prospects`). */
export function useProspectSettings() {
  return useQuery({
    queryKey: prospectSettingsKey,
    queryFn: ({ signal }) => apiFetch<ProspectSettings>('/api/settings/prospects', { signal }),
  });
}

/**
 * Turns automatic approval on or off (`PUT /api/settings/prospects`): shown at once, put back when
 * the save is refused.
 */
export function useSaveProspectSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ProspectSettings) =>
      apiFetch<ProspectSettings>('/api/settings/prospects', { method: 'PUT', body }),
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
