import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GettingStartedUpdate } from '@grove/contracts';
import { api, unwrap } from '@grove/web-data-access';
import { gettingStartedKey } from '../../../components/query-keys/query-keys';

/**
 * The checklist's steps as the API finds them (`GET /api/getting-started`). Read again whenever
 * the Branches page mounts and after any member change (`gettingStartedKey` is under `membersKey`).
 */
export function useGettingStarted() {
  return useQuery({
    queryKey: gettingStartedKey,
    queryFn: ({ signal }) => unwrap(api.GET('/getting-started', { signal })),
    refetchOnMount: 'always',
  });
}

/** Hides the checklist for the business (`PUT /api/getting-started { dismissed: true }`). */
export function useDismissGettingStarted() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: GettingStartedUpdate) => unwrap(api.PUT('/getting-started', { body })),
    onSuccess: (saved) => client.setQueryData(gettingStartedKey, saved),
  });
}
