import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberInput } from '@grove/contracts';
import { api, membersKey, unwrap } from '@grove/web-data-access';

/** The profile's query key: under `membersKey`, so every member change reloads it. */
const profileKey = (id: string) => [...membersKey, 'profile', id] as const;

/** A member's profile (`GET /api/members/:id/profile`); a 404 is not retried. */
export function useMemberProfile(id: string) {
  return useQuery({
    queryKey: profileKey(id),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/members/{id}/profile', { params: { path: { id } }, signal })),
    retry: (failures, error) =>
      failures < 2 && !(error instanceof Error && 'status' in error && error.status === 404),
  });
}

/** Saves a member's details (`PATCH /api/members/:id`); the profile and every list reload. */
export function useUpdateMember(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberInput) =>
      unwrap(api.PATCH('/members/{id}', { params: { path: { id } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: membersKey }),
  });
}

/**
 * Erases the member's personal data on request (`POST /api/members/:id/erase`,
 * docs/product.md#data-rights); the profile and every list reload.
 */
export function useEraseMember(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/members/{id}/erase', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: membersKey }),
  });
}
