import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberInput, MemberProfile, MemberRow } from '@grove/contracts';
import { apiFetch, membersKey } from '@grove/web-data-access';

/** The profile's query key: under `membersKey`, so every member change reloads it. */
const profileKey = (id: string) => [...membersKey, 'profile', id] as const;

/** A member's profile (`GET /api/members/:id/profile`); a 404 is not retried. */
export function useMemberProfile(id: string) {
  return useQuery({
    queryKey: profileKey(id),
    queryFn: ({ signal }) =>
      apiFetch<MemberProfile>(`/api/members/${encodeURIComponent(id)}/profile`, { signal }),
    retry: (failures, error) =>
      failures < 2 && !(error instanceof Error && 'status' in error && error.status === 404),
  });
}

/** Saves a member's details (`PATCH /api/members/:id`); the profile and every list reload. */
export function useUpdateMember(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberInput) =>
      apiFetch<MemberRow>(`/api/members/${encodeURIComponent(id)}`, { method: 'PATCH', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: membersKey }),
  });
}
