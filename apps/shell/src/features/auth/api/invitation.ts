import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvitationAcceptRequest } from '@grove/contracts';
import { api, sessionKey, unwrap } from '@grove/web-data-access';

/**
 * What an invitation link invites to (`POST /api/team/invitations/lookup`): the business, the
 * address and the role; an ApiError 400 when the link is no longer valid.
 */
export function useInvitation(token: string) {
  return useQuery({
    queryKey: ['invitation', token],
    queryFn: () => unwrap(api.POST('/team/invitations/lookup', { body: { token } })),
    enabled: token !== '',
    retry: false,
  });
}

/**
 * Accepts the invitation with a name and a password (`POST /api/team/invitations/accept`); the
 * reply signs this browser in as the new member of staff.
 */
export function useAcceptInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: InvitationAcceptRequest) =>
      unwrap(api.POST('/team/invitations/accept', { body })),
    onSuccess: (user) => client.setQueryData(sessionKey, user),
  });
}
