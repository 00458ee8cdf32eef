import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, createPasskey, unwrap } from '@grove/web-data-access';
import { secondFactorKey } from './second-factor';

export const passkeysKey = ['account', 'passkeys'] as const;

/** The signed-in user's passkeys (`GET /api/account/passkeys`), oldest first. */
export function usePasskeys() {
  return useQuery({
    queryKey: passkeysKey,
    queryFn: ({ signal }) => unwrap(api.GET('/account/passkeys', { signal })),
  });
}

/**
 * Adds a passkey named `name`: the registration options (`POST /api/account/passkeys/options`),
 * the browser's prompt (`createPasskey`), then
 * `POST /api/account/passkeys` → `{ passkey, recoveryCodes? }` (the codes when it is the first
 * second factor, shown once). Errors: `passkeyErrorMessage`.
 */
export function useAddPasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const { options } = await unwrap(api.POST('/account/passkeys/options'));
      const response = await createPasskey(options);
      return unwrap(api.POST('/account/passkeys', { body: { name, response } }));
    },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: passkeysKey }),
        client.invalidateQueries({ queryKey: secondFactorKey }),
      ]),
  });
}

/**
 * Removes one of the user's passkeys with a code, a recovery code or the password
 * (`POST /api/account/passkeys/{id}/remove`); 400 'That code or password is not correct.', 404
 * 'That passkey was already removed.'.
 */
export function useRemovePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, proof }: { id: string; proof: { code: string } | { password: string } }) =>
      unwrap(api.POST('/account/passkeys/{id}/remove', { params: { path: { id } }, body: proof })),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: passkeysKey }),
        client.invalidateQueries({ queryKey: secondFactorKey }),
      ]),
  });
}
