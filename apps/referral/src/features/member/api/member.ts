import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@grove/web-data-access';

/** Which business an unsubscribe link is of (`GET /api/member-emails/unsubscribe/:token/status`). */
export function useUnsubscribeStatus(token: string) {
  return useQuery({
    queryKey: ['member', 'unsubscribe', token],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/member-emails/unsubscribe/{token}/status', {
          params: { path: { token } },
          signal,
        }),
      ),
    retry: false,
  });
}

/** Unsubscribes (`POST /api/member-emails/unsubscribe/:token`). */
export function useUnsubscribe(token: string) {
  return useMutation({
    mutationFn: () =>
      unwrap(api.POST('/member-emails/unsubscribe/{token}', { params: { path: { token } } })),
  });
}
