import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { PASSKEY_MESSAGES } from '@grove/contracts';
import { api, unwrap } from './api';
import { ApiError } from './api-client';
import { sessionKey } from './session';

/**
 * What a person reads when the browser's passkey call failed (docs/product.md#passkeys): a
 * cancel or time-out (`NotAllowedError`), a passkey already added, a browser without WebAuthn;
 * an API refusal keeps its own message.
 */
export function passkeyErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return PASSKEY_MESSAGES.alreadyRegistered;
  if (error instanceof Error && error.name === 'NotAllowedError') return PASSKEY_MESSAGES.cancelled;
  if (typeof window !== 'undefined' && !window.PublicKeyCredential)
    return PASSKEY_MESSAGES.unsupported;
  return error instanceof Error && error.message ? error.message : PASSKEY_MESSAGES.signInFailed;
}

/**
 * Creates a passkey (docs/product.md#passkeys): the browser's passkey prompt
 * (`@simplewebauthn/browser`'s `startRegistration`) for the API's registration options (Security's
 * 'Add a passkey', an invitation's 'Use a passkey'); the answer as the API's body takes it.
 * Errors: `passkeyErrorMessage`.
 */
export async function createPasskey(
  options: Record<string, unknown>,
): Promise<Record<string, never>> {
  const response = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return response as unknown as Record<string, never>;
}

/**
 * Answers authentication options with one of the person's passkeys (the browser's prompt,
 * `@simplewebauthn/browser`'s `startAuthentication`): a sign-in, or a signed-in person confirming
 * it is them ('Set a password'); the answer as the API's body takes it. Errors:
 * `passkeyErrorMessage`.
 */
export async function answerPasskey(
  options: Record<string, unknown>,
): Promise<Record<string, never>> {
  const response = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return response as unknown as Record<string, never>;
}

/**
 * Signs in with a passkey (docs/product.md#passkeys): the sign-in options
 * (`POST /api/auth/passkey/options`, with the login's 202 `challenge` when the password came
 * first), the browser's passkey prompt (`@simplewebauthn/browser`'s `startAuthentication`), then
 * `POST /api/auth/passkey`; stores the user in the session query. Errors: `passkeyErrorMessage`.
 */
export function usePasskeySignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (challenge?: string) => {
      const { options } = await unwrap(
        api.POST('/auth/passkey/options', { body: challenge ? { challenge } : {} }),
      );
      const response = await answerPasskey(options);
      return unwrap(api.POST('/auth/passkey', { body: { response } }));
    },
    onSuccess: (user) => client.setQueryData(sessionKey, user),
  });
}
