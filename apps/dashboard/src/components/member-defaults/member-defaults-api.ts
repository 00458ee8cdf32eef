import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberDefaults } from '@grove/contracts';
import { api, unwrap } from '@grove/web-data-access';
import { gettingStartedKey, memberDefaultsKey } from '../query-keys/query-keys';

/**
 * The business's default discount per referral and membership price, in cents (null = none):
 * Account Settings edits them; the add-tree form and the CSV import start from them
 * (docs/product.md#member-defaults).
 */
export function useMemberDefaults() {
  return useQuery({
    queryKey: memberDefaultsKey,
    queryFn: ({ signal }) => unwrap(api.GET('/settings/member-defaults', { signal })),
  });
}

/**
 * Saves the defaults (`PUT /api/settings/member-defaults`, cents); the checklist's 'Set your
 * discount' is fetched again. Rejects with an ApiError (field messages on 400).
 */
export function useSaveMemberDefaults() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberDefaults) => unwrap(api.PUT('/settings/member-defaults', { body })),
    onSuccess: (saved) => {
      client.setQueryData(memberDefaultsKey, saved);
      return client.invalidateQueries({ queryKey: gettingStartedKey });
    },
  });
}
