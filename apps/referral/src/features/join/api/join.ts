import { useMutation, useQuery } from '@tanstack/react-query';
import type { JoinReferralReply, JoinReferralRequest, ReferralInfo } from '@grove/contracts';
import { apiFetch } from '@grove/web-data-access';

/** Public: the business and referrer behind a referral code (`GET /api/referrals/:code`). */
export function useReferralInfo(code: string) {
  return useQuery({
    queryKey: ['referral', code],
    queryFn: ({ signal }) =>
      apiFetch<ReferralInfo>(`/api/referrals/${encodeURIComponent(code)}`, { signal }),
    retry: false,
  });
}

/** Public: a referred friend joins (`POST /api/referrals/:code/join`); `website` is the honeypot. */
export function useJoinReferral(code: string) {
  return useMutation({
    mutationFn: (body: JoinReferralRequest) =>
      apiFetch<JoinReferralReply>(`/api/referrals/${encodeURIComponent(code)}/join`, {
        method: 'POST',
        body,
      }),
  });
}
