import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  MessageReply,
  PasswordResetConfirmRequest,
  PasswordResetRequest,
  SessionUser,
} from '@grove/contracts';
import { apiFetch, sessionKey } from '@grove/web-data-access';

/** Asks for a reset link (`POST /api/auth/password-reset`); the reply is the same for any address. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (body: PasswordResetRequest) =>
      apiFetch<MessageReply>('/api/auth/password-reset', { method: 'POST', body }),
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
      apiFetch<SessionUser>('/api/auth/password-reset/confirm', { method: 'POST', body }),
    onSuccess: (user) => client.setQueryData(sessionKey, user),
  });
}
