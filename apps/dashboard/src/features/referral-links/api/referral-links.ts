import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page, ReferralEmailResult, ReferralLink, ReferralLinkRow } from '@grove/contracts';
import { apiFetch } from '@grove/web-data-access';

export const referralLinksKey = ['referral-links'] as const;

/** A page of members with their live referral link (`GET /api/referral-links`). */
export function useReferralLinks(query: { page: number; pageSize: number; search?: string }) {
  return useQuery({
    queryKey: [...referralLinksKey, query],
    queryFn: ({ signal }) =>
      apiFetch<Page<ReferralLinkRow>>('/api/referral-links', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

const linkPath = (memberId: string) => `/api/members/${encodeURIComponent(memberId)}/referral-link`;

/** Creates, rotates (old code stops working) or revokes a member's referral link. */
export function useReferralLinkActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: referralLinksKey });
  return {
    create: useMutation({
      mutationFn: (memberId: string) =>
        apiFetch<ReferralLink>(linkPath(memberId), { method: 'POST', body: {} }),
      onSuccess: refresh,
    }),
    rotate: useMutation({
      mutationFn: (memberId: string) =>
        apiFetch<ReferralLink>(`${linkPath(memberId)}/rotate`, { method: 'POST', body: {} }),
      onSuccess: refresh,
    }),
    revoke: useMutation({
      mutationFn: (memberId: string) => apiFetch<void>(linkPath(memberId), { method: 'DELETE' }),
      onSuccess: refresh,
    }),
  };
}

/** Where a member's QR code poster can be downloaded (`svg` or `png`). */
export function referralQrUrl(memberId: string, format: 'svg' | 'png'): string {
  return `${linkPath(memberId)}/qr.${format}`;
}

/**
 * "Your referral link" emails (issue 15): to one member (`POST /api/members/:id/referral-link/email`;
 * 429 when emailed within the hour) or to every member with a link (`POST /api/referral-links/email`).
 */
export function useReferralEmails() {
  return {
    one: useMutation({
      mutationFn: (memberId: string) =>
        apiFetch<ReferralEmailResult>(`${linkPath(memberId)}/email`, { method: 'POST' }),
    }),
    all: useMutation({
      mutationFn: () =>
        apiFetch<ReferralEmailResult>('/api/referral-links/email', { method: 'POST' }),
    }),
  };
}
