import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { sessionKey } from './session';

/**
 * The one query client of the app (created by the shell, shared with every remote). A 401 that
 * reaches a query or a mutation has already been through the API client's one session refresh
 * (`api.ts`), so the session has ended elsewhere (signed out in another tab, 'Sign out everywhere
 * else', removed from the team, a password change): the session query becomes `null` and the
 * shell's `RequireSession` sends the person to the login page (and back after), instead of leaving
 * a signed-in frame full of 'Please log in'.
 */
export function createQueryClient(): QueryClient {
  const endSessionOn401 = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401 && client.getQueryData(sessionKey))
      client.setQueryData(sessionKey, null);
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: endSessionOn401 }),
    mutationCache: new MutationCache({ onError: endSessionOn401 }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: (failures, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
  return client;
}
