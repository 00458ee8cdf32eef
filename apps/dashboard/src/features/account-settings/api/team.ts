import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffInvitationRequest, StaffRole } from '@grove/contracts';
import { api, unwrap } from '@grove/web-data-access';

export const teamKey = ['team'] as const;

/**
 * The Team card (`GET /api/team`, owners only): the business's staff (owners first; name, email,
 * role, last sign-in, the caller marked `you`) and its pending invitations.
 */
export function useTeam(enabled = true) {
  return useQuery({
    queryKey: teamKey,
    queryFn: ({ signal }) => unwrap(api.GET('/team', { signal })),
    enabled,
  });
}

/**
 * Invites by email (`POST /api/team/invitations`): the link is emailed. Rejects with an ApiError
 * (400 the field's message, 409 'This email already has a Grove account.').
 */
export function useInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffInvitationRequest) => unwrap(api.POST('/team/invitations', { body })),
    onSettled: () => client.invalidateQueries({ queryKey: teamKey }),
  });
}

/** Revokes a pending invitation (`DELETE /api/team/invitations/{id}`). */
export function useRevokeInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/team/invitations/{id}', { params: { path: { id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: teamKey }),
  });
}

/** Changes a role (`PATCH /api/team/members/{id}`); 409 'A business always keeps at least one owner.' */
export function useChangeRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: StaffRole }) =>
      unwrap(api.PATCH('/team/members/{id}', { params: { path: { id } }, body: { role } })),
    onSettled: () => client.invalidateQueries({ queryKey: teamKey }),
  });
}

/** Removes a member of staff (`DELETE /api/team/members/{id}`): their sessions end at once. */
export function useRemoveStaff() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/team/members/{id}', { params: { path: { id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: teamKey }),
  });
}

/**
 * Lifts a member of staff's paused sign-in (`DELETE /api/team/members/{id}/sign-in-pause`): too
 * many failed sign-ins on their account; they may sign in at once.
 */
export function useLiftSignInPause() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/team/members/{id}/sign-in-pause', { params: { path: { id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: teamKey }),
  });
}
