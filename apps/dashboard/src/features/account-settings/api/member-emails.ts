import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberEmailSettings } from '@grove/contracts';
import { api, unwrap } from '@grove/web-data-access';

const memberEmailsKey = ['settings', 'member-emails'] as const;

/** Which event emails the business sends its members (`GET /api/settings/member-emails`). */
export function useMemberEmailSettings() {
  return useQuery({
    queryKey: memberEmailsKey,
    queryFn: ({ signal }) => unwrap(api.GET('/settings/member-emails', { signal })),
  });
}

/**
 * Saves all four settings (`PUT /api/settings/member-emails`). The boxes show the new choice at
 * once; a refused save puts the previous one back.
 */
export function useSaveMemberEmailSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberEmailSettings) => unwrap(api.PUT('/settings/member-emails', { body })),
    onMutate: async (body) => {
      await client.cancelQueries({ queryKey: memberEmailsKey });
      const previous = client.getQueryData<MemberEmailSettings>(memberEmailsKey);
      client.setQueryData(memberEmailsKey, body);
      return { previous };
    },
    onError: (_error, _body, context) => client.setQueryData(memberEmailsKey, context?.previous),
    onSuccess: (saved) => client.setQueryData(memberEmailsKey, saved),
  });
}
