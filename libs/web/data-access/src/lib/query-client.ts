import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** The one query client of the app (created by the shell, shared with every remote). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: (failures, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}
