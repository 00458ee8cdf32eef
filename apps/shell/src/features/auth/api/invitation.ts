import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  InvitationAcceptRequest,
  InvitationPasskeyOptionsRequest,
  SessionUser,
} from '@grove/contracts';
import { api, createPasskey, sessionKey, unwrap } from '@grove/web-data-access';

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

/**
 * Accepts the invitation with a passkey instead of a password (docs/product.md#staff-accounts):
 * the registration options for the new account (`POST /api/team/invitations/passkey/options`,
 * which checks the names first), the browser's passkey prompt (`createPasskey`), then
 * `POST /api/team/invitations/passkey` → `{ user, recoveryCodes }` (signed in by its cookies; the
 * tab enters with `useEnterAsJoined` once the codes are saved). Errors: `passkeyErrorMessage`.
 */
export function useAcceptInvitationWithPasskey() {
  return useMutation({
    mutationFn: async (body: InvitationPasskeyOptionsRequest) => {
      const { options } = await unwrap(api.POST('/team/invitations/passkey/options', { body }));
      const response = await createPasskey(options);
      return unwrap(api.POST('/team/invitations/passkey', { body: { ...body, response } }));
    },
  });
}

/** Puts the member of staff who just joined into this tab's session. */
export function useEnterAsJoined() {
  const client = useQueryClient();
  return (user: SessionUser) => client.setQueryData(sessionKey, user);
}
