import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BranchSettings } from '@grove/contracts';
import { api, membersKey, unwrap } from '@grove/web-data-access';

const branchSettingsKey = ['settings', 'branches'] as const;

/** The business's rule for when a branch counts (`GET /api/settings/branches`). */
export function useBranchSettings() {
  return useQuery({
    queryKey: branchSettingsKey,
    queryFn: ({ signal }) => unwrap(api.GET('/settings/branches', { signal })),
  });
}

/**
 * Saves the rule (`PUT /api/settings/branches`); pending branches the new rule lets count start
 * at once, so the Branches table is fetched again. Rejects with an ApiError (field messages on 400).
 */
export function useSaveBranchSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BranchSettings) => unwrap(api.PUT('/settings/branches', { body })),
    onSuccess: (saved) => {
      client.setQueryData(branchSettingsKey, saved);
      return client.invalidateQueries({ queryKey: membersKey });
    },
  });
}
