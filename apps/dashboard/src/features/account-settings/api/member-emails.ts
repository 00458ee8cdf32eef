import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberEmailSettings } from '@grove/contracts';
import { apiFetch } from '@grove/web-data-access';

const memberEmailsKey = ['settings', 'member-emails'] as const;

/** Which event emails the business sends its members (`GET /api/settings/member-emails`). */
export function useMemberEmailSettings() {
  return useQuery({
    queryKey: memberEmailsKey,
    queryFn: ({ signal }) =>
      apiFetch<MemberEmailSettings>('/api/settings/member-emails', { signal }),
  });
}

/** Saves all four settings (`PUT /api/settings/member-emails`); the query holds the saved ones. */
export function useSaveMemberEmailSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberEmailSettings) =>
      apiFetch<MemberEmailSettings>('/api/settings/member-emails', { method: 'PUT', body }),
    onSuccess: (saved) => client.setQueryData(memberEmailsKey, saved),
  });
}
