import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Page,
  ReferralEmailResult,
  ReferralLinkRow,
  ReferralLinkRun,
  ReferralLinkSettings,
} from '@grove/contracts';
import { apiFetch } from '@grove/web-data-access';
import { referralLinksKey } from '../../../components/referral-link/referral-link-api';

/** A page of members with their live referral link (`GET /api/referral-links`). */
export function useReferralLinks(query: { page: number; pageSize: number; search?: string }) {
  return useQuery({
    queryKey: [...referralLinksKey, query],
    queryFn: ({ signal }) =>
      apiFetch<Page<ReferralLinkRow>>('/api/referral-links', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

const runKey = [...referralLinksKey, 'all'] as const;

/**
 * 'Create links for all members without one' (`GET/POST /api/referral-links/all`): the latest
 * run, polled every second while it is running; `start` starts one (idempotent on the server).
 * When a run ends, the list reloads to show the new links.
 */
export function useLinksForAll() {
  const client = useQueryClient();
  const run = useQuery({
    queryKey: runKey,
    queryFn: ({ signal }) => apiFetch<ReferralLinkRun>('/api/referral-links/all', { signal }),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1_000 : false),
  });
  const start = useMutation({
    mutationFn: () => apiFetch<ReferralLinkRun>('/api/referral-links/all', { method: 'POST' }),
    onSuccess: (state) => {
      client.setQueryData(runKey, state);
      return client.invalidateQueries({ queryKey: referralLinksKey });
    },
  });
  return { run, start };
}

const settingsKey = [...referralLinksKey, 'settings'] as const;

/** The automatic-link setting (`GET/PUT /api/referral-links/settings`). */
export function useLinkSettings() {
  const client = useQueryClient();
  const settings = useQuery({
    queryKey: settingsKey,
    queryFn: ({ signal }) =>
      apiFetch<ReferralLinkSettings>('/api/referral-links/settings', { signal }),
  });
  const update = useMutation({
    mutationFn: (body: ReferralLinkSettings) =>
      apiFetch<ReferralLinkSettings>('/api/referral-links/settings', { method: 'PUT', body }),
    onSuccess: (saved) => client.setQueryData(settingsKey, saved),
  });
  return { settings, update };
}

/**
 * "Your referral link" emails (issue 15): to one member (`POST /api/members/:id/referral-link/email`;
 * 429 when emailed within the hour) or to every member with a link (`POST /api/referral-links/email`).
 */
export function useReferralEmails() {
  return {
    one: useMutation({
      mutationFn: (memberId: string) =>
        apiFetch<ReferralEmailResult>(
          `/api/members/${encodeURIComponent(memberId)}/referral-link/email`,
          { method: 'POST' },
        ),
    }),
    all: useMutation({
      mutationFn: () =>
        apiFetch<ReferralEmailResult>('/api/referral-links/email', { method: 'POST' }),
    }),
  };
}
