import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest, SessionUser, SignupInput } from '@grove/contracts';
import { ApiError, apiFetch } from './api-client';

export const sessionKey = ['session'] as const;

/** Reads the signed-in owner (`GET /api/auth/me`); `null` when signed out. */
export async function fetchSession(): Promise<SessionUser | null> {
  try {
    return await apiFetch<SessionUser>('/api/auth/me');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      const refreshed = await fetch('/api/auth/refresh', { method: 'POST', credentials: 'same-origin' }).catch(() => null);
      if (refreshed?.ok) return apiFetch<SessionUser>('/api/auth/me');
      return null;
    }
    throw error;
  }
}

/** The session as a query: `data` is the owner, `null` when signed out, `undefined` while loading. */
export function useSession() {
  return useQuery({ queryKey: sessionKey, queryFn: fetchSession, staleTime: 60_000 });
}

/** Logs in (`POST /api/auth/login`) and stores the owner in the session query. */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginRequest) => apiFetch<SessionUser>('/api/auth/login', { method: 'POST', body }),
    onSuccess: (user) => client.setQueryData(sessionKey, user),
  });
}

/** Creates a business and its owner (`POST /api/auth/signup`) and signs them in. */
export function useSignup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SignupInput) => apiFetch<SessionUser>('/api/auth/signup', { method: 'POST', body }),
    onSuccess: (user) => client.setQueryData(sessionKey, user),
  });
}

/** Ends the session on the server (`POST /api/auth/logout`) and forgets every cached reply. */
export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<void>('/api/auth/logout', { method: 'POST' }),
    onSettled: () => {
      client.clear();
      client.setQueryData(sessionKey, null);
    },
  });
}
