import { useMutation, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@grove/web-data-access';

/** Which business an unsubscribe link is of (`GET /api/member-emails/unsubscribe/:token/status`). */
export function useUnsubscribeStatus(token: string) {
  return useQuery({
    queryKey: ['member', 'unsubscribe', token],
    queryFn: ({ signal }) =>
      apiFetch<{ businessName: string; unsubscribed: boolean }>(
        `/api/member-emails/unsubscribe/${encodeURIComponent(token)}/status`,
        { signal },
      ),
    retry: false,
  });
}

/** Unsubscribes (`POST /api/member-emails/unsubscribe/:token`). */
export function useUnsubscribe(token: string) {
  return useMutation({
    mutationFn: () =>
      apiFetch<{ message: string }>(`/api/member-emails/unsubscribe/${encodeURIComponent(token)}`, {
        method: 'POST',
      }),
  });
}
