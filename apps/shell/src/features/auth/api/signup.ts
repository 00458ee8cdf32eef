import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SignupConfirmRequest, SignupInput } from '@grove/contracts';
import { api, sessionKey, unwrap } from '@grove/web-data-access';

/**
 * Signs up (`POST /api/auth/signup`): the reply is the same for every address (`{ status:
 * 'check-email' }`), the account is made from the emailed link (docs/product.md#signup).
 */
export function useSignup() {
  return useMutation({
    mutationFn: (body: SignupInput) => unwrap(api.POST('/auth/signup', { body })),
  });
}

/**
 * Uses the emailed sign-up link (`POST /api/auth/signup/confirm`): creates the business and its
 * owner and signs this browser in; rejects with the 400/409 message.
 */
export function useConfirmSignup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SignupConfirmRequest) => unwrap(api.POST('/auth/signup/confirm', { body })),
    onSuccess: (user) => client.setQueryData(sessionKey, user),
  });
}
