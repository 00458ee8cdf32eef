import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@grove/web-data-access';

export const secondFactorKey = ['account', 'second-factor'] as const;

/** The Security card's state (`GET /api/account/second-factor`): `{ totp, recoveryCodesLeft }`. */
export function useSecondFactor() {
  return useQuery({
    queryKey: secondFactorKey,
    queryFn: ({ signal }) => unwrap(api.GET('/account/second-factor', { signal })),
  });
}

/**
 * Starts setting up an authenticator app (`POST /api/account/second-factor/totp`) →
 * `{ secret, uri, qrSvg }`, shown once.
 */
export function useStartTotp() {
  return useMutation({
    mutationFn: () => unwrap(api.POST('/account/second-factor/totp')),
  });
}

/**
 * Confirms the app with a code it shows (`POST /api/account/second-factor/totp/confirm`) →
 * `{ recoveryCodes }` (10, shown once); the card's state reloads.
 */
export function useConfirmTotp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      unwrap(api.POST('/account/second-factor/totp/confirm', { body: { code } })),
    onSuccess: () => client.invalidateQueries({ queryKey: secondFactorKey }),
  });
}

/**
 * Turns the app off (`POST /api/account/second-factor/totp/disable`) with a code, a recovery
 * code or the password; the card's state reloads.
 */
export function useDisableTotp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { code?: string; password?: string }) =>
      unwrap(api.POST('/account/second-factor/totp/disable', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: secondFactorKey }),
  });
}

/**
 * The owner requires (or no longer requires) a second factor of every member of staff
 * (`PUT /api/settings/second-factor`); 409 'Set up your own authenticator app first.'.
 */
export function useSetSecondFactorRequirement() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) =>
      unwrap(api.PUT('/settings/second-factor', { body: { required } })),
    onSuccess: (status) => client.setQueryData(secondFactorKey, status),
  });
}

/**
 * Replaces the recovery codes (`POST /api/account/second-factor/recovery-codes`) with a code, a
 * recovery code or the password → `{ recoveryCodes }` (10, shown once); the card's state reloads.
 */
export function useReplaceRecoveryCodes() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { code?: string; password?: string }) =>
      unwrap(api.POST('/account/second-factor/recovery-codes', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: secondFactorKey }),
  });
}
