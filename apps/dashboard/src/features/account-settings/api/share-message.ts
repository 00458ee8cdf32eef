import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShareMessageSettings } from '@grove/contracts';
import { api, unwrap } from '@grove/web-data-access';

const shareMessageKey = ['settings', 'share-message'] as const;

/** The message members share, placeholders unfilled (`GET /api/settings/share-message`). */
export function useShareMessage() {
  return useQuery({
    queryKey: shareMessageKey,
    queryFn: ({ signal }) => unwrap(api.GET('/settings/share-message', { signal })),
  });
}

/**
 * Saves the message (`PUT /api/settings/share-message`). Rejects with an ApiError (400: the
 * rule's message, also as `fieldErrors.message`; nothing saved).
 */
export function useSaveShareMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ShareMessageSettings) =>
      unwrap(api.PUT('/settings/share-message', { body })),
    onSuccess: (saved) => client.setQueryData(shareMessageKey, saved),
  });
}
