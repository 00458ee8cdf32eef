import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  roleMay,
  type LoginRequest,
  type SessionUser,
  type StaffCapability,
} from '@grove/contracts';
import { ApiError } from './api-client';
import { api, unwrap } from './api';
import { sessionHint } from './session-refresh';

export const sessionKey = ['session'] as const;

/**
 * True when the API's `SESSION_HINT_COOKIE` is present (plain, or `__Host-` prefixed when the
 * API's cookies are Secure): a session may exist.
 */
export function mayBeSignedIn(cookies: string = document.cookie): boolean {
  return sessionHint(cookies) !== null;
}

/**
 * Reads the signed-in owner (`GET /api/auth/me`; an expired access token is refreshed by
 * the API client, once per browser); `null` when signed out. Without the session hint cookie it
 * answers `null` without asking the API.
 */
export async function fetchSession(): Promise<SessionUser | null> {
  if (!mayBeSignedIn()) return null;
  try {
    return await unwrap(api.GET('/auth/me'));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** The session as a query: `data` is the owner, `null` when signed out, `undefined` while loading. */
export function useSession() {
  return useQuery({ queryKey: sessionKey, queryFn: fetchSession, staleTime: 60_000 });
}

/**
 * True when the signed-in member of staff's role may do `capability` (contracts' `roleMay`,
 * docs/product.md#staff-accounts): the screens hide what the role cannot do; the API refuses it
 * anyway (403). While the session is unknown, an owner's view.
 */
export function useRoleMay(capability: StaffCapability): boolean {
  return roleMay(useSession().data?.role, capability);
}

/**
 * Logs in (`POST /api/auth/login`) and stores the owner in the session query. When the account
 * has a second factor the reply is `{ secondFactorRequired: true, challenge }` instead (202, not
 * signed in yet): the login page then asks for the code (`useSecondFactorSignIn`).
 */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginRequest) => unwrap(api.POST('/auth/login', { body })),
    onSuccess: (reply) => {
      if (!('secondFactorRequired' in reply)) client.setQueryData(sessionKey, reply);
    },
  });
}

/**
 * The sign-in's second step (`POST /api/auth/second-factor`): the login's challenge and a code
 * from the authenticator app or a recovery code; stores the owner in the session query.
 */
export function useSecondFactorSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { challenge: string; code: string }) =>
      unwrap(api.POST('/auth/second-factor', { body })),
    onSuccess: (user) => client.setQueryData(sessionKey, user),
  });
}

/** Ends the session on the server (`POST /api/auth/logout`) and forgets every cached reply. */
export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/auth/logout')),
    onSettled: () => {
      client.clear();
      client.setQueryData(sessionKey, null);
    },
  });
}
