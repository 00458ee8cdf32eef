import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@grove/web-data-access';

export const retentionKey = ['audit-log', 'retention'] as const;

/** How many days the activity log is kept (`GET /api/audit-log/retention`). */
export function useActivityRetention() {
  return useQuery({
    queryKey: retentionKey,
    queryFn: ({ signal }) => unwrap(api.GET('/audit-log/retention', { signal })),
  });
}

/** Saves the days kept (`PUT /api/audit-log/retention`, owners); rejects with the 400's message. */
export function useSaveActivityRetention() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (days: number) => unwrap(api.PUT('/audit-log/retention', { body: { days } })),
    onSuccess: (saved) => client.setQueryData(retentionKey, saved),
  });
}
