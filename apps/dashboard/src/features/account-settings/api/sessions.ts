import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@grove/web-data-access';

export const signInsKey = ['account', 'sessions'] as const;

/**
 * 'Where you're signed in' (`GET /api/account/sessions`): the owner's live sign-ins, this
 * browser's first (`current`), each with its browser and system, when it signed in and when it
 * was last active.
 */
export function useSignIns() {
  return useQuery({
    queryKey: signInsKey,
    queryFn: ({ signal }) => unwrap(api.GET('/account/sessions', { signal })),
  });
}

/** Signs one other browser out (`DELETE /api/account/sessions/{id}`); the list reloads. */
export function useEndSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/account/sessions/{id}', { params: { path: { id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: signInsKey }),
  });
}

/** Signs out every other browser (`POST /api/account/sessions/sign-out-others`) → `{ ended }`. */
export function useSignOutOthers() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/account/sessions/sign-out-others')),
    onSettled: () => client.invalidateQueries({ queryKey: signInsKey }),
  });
}
