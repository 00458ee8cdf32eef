import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasswordResetConfirmRequest, PasswordResetRequest } from '@grove/contracts';
import { api, sessionKey, unwrap } from '@grove/web-data-access';

/** Asks for a reset link (`POST /api/auth/password-reset`); the reply is the same for any address. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (body: PasswordResetRequest) => unwrap(api.POST('/auth/password-reset', { body })),
  });
}

/**
 * Chooses a new password with a reset link (`POST /api/auth/password-reset/confirm`); the reply
 * signs this browser in (every other session has ended).
 */
export function useResetPassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordResetConfirmRequest) =>
      unwrap(api.POST('/auth/password-reset/confirm', { body })),
    onSuccess: (user) => client.setQueryData(sessionKey, user),
  });
}
