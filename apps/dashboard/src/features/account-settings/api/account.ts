import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountDetails,
  ChangePasswordRequest,
  MessageReply,
  UpdateAccountRequest,
} from '@grove/contracts';
import { apiFetch, sessionKey } from '@grove/web-data-access';

export const accountKey = ['account'] as const;

/** The signed-in owner's name and business details (`GET /api/account`) for Account Settings. */
export function useAccount() {
  return useQuery({
    queryKey: accountKey,
    queryFn: ({ signal }) => apiFetch<AccountDetails>('/api/account', { signal }),
  });
}

/**
 * Saves the owner's details (`PATCH /api/account`) and refreshes the session, so the account
 * button shows the new name. Rejects with an ApiError (per-field messages on 400).
 */
export function useUpdateAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAccountRequest) =>
      apiFetch<AccountDetails>('/api/account', { method: 'PATCH', body }),
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
    mutationFn: (body: ChangePasswordRequest) =>
      apiFetch<MessageReply>('/api/account/password', { method: 'POST', body }),
  });
}
