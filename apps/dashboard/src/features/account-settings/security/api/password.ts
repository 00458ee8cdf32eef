import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerPasskey, api, unwrap } from '@grove/web-data-access';
import { secondFactorKey } from './second-factor';

/**
 * 'Set a password' of an account that joined with a passkey: the passkey options
 * (`POST /api/account/password/set/options`), the browser's prompt (`answerPasskey`), then
 * `POST /api/account/password/set` → `{ message: 'Your password has been set' }`; the Security
 * state is marked stale, not refetched, so the card can say so (Change password from the next
 * visit on). 400 the password rule's messages (as field
 * errors) or "Your passkey could not confirm it's you. Please try again."; 409 when a password was
 * set meanwhile. Browser errors: `passkeyErrorMessage`.
 */
export function useSetPassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (newPassword: string) => {
      const { options } = await unwrap(api.POST('/account/password/set/options'));
      const response = await answerPasskey(options);
      return unwrap(api.POST('/account/password/set', { body: { newPassword, response } }));
    },
    onSuccess: () => client.invalidateQueries({ queryKey: secondFactorKey, refetchType: 'none' }),
  });
}
