import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReferralLink } from '@grove/contracts';
import { apiFetch, membersKey } from '@grove/web-data-access';

/** Query key of the Referral Links list (`GET /api/referral-links` and its run state). */
export const referralLinksKey = ['referral-links'] as const;

const linkPath = (memberId: string) => `/api/members/${encodeURIComponent(memberId)}/referral-link`;

/**
 * Creates, rotates (old code stops working) or revokes a member's referral link; afterwards the
 * Referral Links list and every member view (the member profile shows the link) reload.
 */
export function useReferralLinkActions() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: referralLinksKey }),
      client.invalidateQueries({ queryKey: membersKey }),
    ]);
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

/** The link actions of one screen (see {@link useReferralLinkActions}). */
export type ReferralLinkActions = ReturnType<typeof useReferralLinkActions>;

/** Where a member's QR code poster can be downloaded (`svg` or `png`). */
export function referralQrUrl(memberId: string, format: 'svg' | 'png'): string {
  return `${linkPath(memberId)}/qr.${format}`;
}
