import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordRequest, UpdateAccountRequest } from '@grove/contracts';
import { api, sessionKey, unwrap } from '@grove/web-data-access';

export const accountKey = ['account'] as const;

/** The signed-in owner's name and business details (`GET /api/account`) for Account Settings. */
export function useAccount() {
  return useQuery({
    queryKey: accountKey,
    queryFn: ({ signal }) => unwrap(api.GET('/account', { signal })),
  });
}

/**
 * Saves the owner's details (`PATCH /api/account`) and refreshes the session, so the account
 * button shows the new name. Rejects with an ApiError (per-field messages on 400).
 */
export function useUpdateAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAccountRequest) => unwrap(api.PATCH('/account', { body })),
    onSuccess: (account) => {
      client.setQueryData(accountKey, account);
      return client.invalidateQueries({ queryKey: sessionKey });
    },
  });
}

/**
 * Changes the owner's password (`POST /api/account/password`; the owner's other sessions end).
 * Resolves with the server's confirmation; rejects with an ApiError whose message is
 * MESSAGES.currentPasswordWrong when the current password does not match.
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) => unwrap(api.POST('/account/password', { body })),
  });
}
