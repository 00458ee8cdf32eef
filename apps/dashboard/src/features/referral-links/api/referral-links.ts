import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ReferralEmailExample,
  ReferralEmailPreview,
  ReferralEmailRun,
  ReferralLinkRun,
  ReferralLinkSettings,
} from '@grove/contracts';
import { api, ApiError, unwrap } from '@grove/web-data-access';
import { referralLinksKey } from '../../../components/query-keys/query-keys';
import { useBackgroundRun } from './background-run';

/** A page of members with their live referral link (`GET /api/referral-links`). */
export function useReferralLinks(query: { page: number; pageSize: number; search?: string }) {
  return useQuery({
    queryKey: [...referralLinksKey, query],
    queryFn: ({ signal }) =>
      unwrap(api.GET('/referral-links', { params: { query: query }, signal })),
    placeholderData: keepPreviousData,
  });
}

const runKey = [...referralLinksKey, 'all'] as const;

/**
 * 'Create links for all members without one' (`GET/POST /api/referral-links/all`): the latest
 * run, polled every second while it is running; `start` starts one (idempotent on the server).
 */
export function useLinksForAll() {
  return useBackgroundRun<ReferralLinkRun>('/referral-links/all', runKey);
}

const settingsKey = [...referralLinksKey, 'settings'] as const;

/** The automatic-link setting (`GET/PUT /api/referral-links/settings`). */
export function useLinkSettings() {
  const client = useQueryClient();
  const settings = useQuery({
    queryKey: settingsKey,
    queryFn: ({ signal }) => unwrap(api.GET('/referral-links/settings', { signal })),
  });
  const update = useMutation({
    mutationFn: (body: ReferralLinkSettings) =>
      unwrap(api.PUT('/referral-links/settings', { body })),
    onSuccess: (saved) => client.setQueryData(settingsKey, saved),
  });
  return { settings, update };
}

/**
 * "Your referral link" to one member (`POST /api/members/:id/referral-link/email`; 429 when
 * emailed within the hour).
 */
export function useReferralEmail() {
  return useMutation({
    mutationFn: (memberId: string) =>
      unwrap(
        api.POST('/members/{memberId}/referral-link/email', { params: { path: { memberId } } }),
      ),
  });
}

const emailRunKey = [...referralLinksKey, 'email'] as const;

/**
 * 'Email all links' (`GET/POST /api/referral-links/email`, issue 15): a background run emailing
 * every member with a link, polled every second while it is running; `start` starts one
 * (idempotent on the server).
 */
export function useEmailAllLinks() {
  return useBackgroundRun<ReferralEmailRun>('/referral-links/email', emailRunKey);
}

/** What the owner sees before 'Email all links' sends: the counts and one example email. */
export interface EmailAllPreview extends ReferralEmailPreview {
  /** The email a real member would get; null when no member has a link (404). */
  example: ReferralEmailExample | null;
}

/**
 * Who 'Email all links' would email now (`GET /api/referral-links/email/preview`, issue 25) and
 * one example of the email (`GET /api/referral-links/email/example`), asked together when the
 * owner clicks it. Not cached: each click counts again.
 */
export function useEmailAllPreview() {
  return useMutation({
    mutationFn: async (): Promise<EmailAllPreview> => {
      const [counts, example] = await Promise.all([
        unwrap(api.GET('/referral-links/email/preview')),
        unwrap(api.GET('/referral-links/email/example')).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }),
      ]);
      return { ...counts, example };
    },
  });
}
