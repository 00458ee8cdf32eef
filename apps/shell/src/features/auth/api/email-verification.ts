import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@grove/web-data-access';

/**
 * Verifies the owner's email with the link's token (`POST /api/auth/verify-email`, public);
 * rejects with the 400's message for a link that is not valid. The sending status the dashboard's
 * banner shows (`member-emails` queries) is then stale.
 */
export function useVerifyEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => unwrap(api.POST('/auth/verify-email', { body: { token } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['member-emails'] });
    },
  });
}
