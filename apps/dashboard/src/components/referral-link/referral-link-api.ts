import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUrl } from '@grove/api-contract';
import { api, membersKey, unwrap } from '@grove/web-data-access';
import { referralLinksKey } from '../query-keys/query-keys';

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
        unwrap(
          api.POST('/members/{memberId}/referral-link', {
            params: { path: { memberId } },
            body: {},
          }),
        ),
      onSuccess: refresh,
    }),
    rotate: useMutation({
      mutationFn: (memberId: string) =>
        unwrap(
          api.POST('/members/{memberId}/referral-link/rotate', {
            params: { path: { memberId } },
            body: {},
          }),
        ),
      onSuccess: refresh,
    }),
    revoke: useMutation({
      mutationFn: (memberId: string) =>
        unwrap(api.DELETE('/members/{memberId}/referral-link', { params: { path: { memberId } } })),
      onSuccess: refresh,
    }),
  };
}

/** The link actions of one screen (see {@link useReferralLinkActions}). */
export type ReferralLinkActions = ReturnType<typeof useReferralLinkActions>;

/** Where a member's QR code poster can be downloaded (`svg` or `png`). */
export function referralQrUrl(memberId: string, format: 'svg' | 'png'): string {
  return format === 'svg'
    ? apiUrl('/members/{memberId}/referral-link/qr.svg', { memberId })
    : apiUrl('/members/{memberId}/referral-link/qr.png', { memberId });
}
