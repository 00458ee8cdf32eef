import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WelcomeOffer } from '@grove/contracts';
import { api, unwrap } from '@grove/web-data-access';
import { welcomeOfferKey } from '../query-keys/query-keys';

/**
 * The business's welcome offer for referred friends (`GET /api/settings/welcome-offer`,
 * docs/product.md#welcome-offer): Account Settings edits it; the approval dialog states it.
 */
export function useWelcomeOffer() {
  return useQuery({
    queryKey: welcomeOfferKey,
    queryFn: ({ signal }) => unwrap(api.GET('/settings/welcome-offer', { signal })),
  });
}

/**
 * Saves the offer (`PUT /api/settings/welcome-offer`, amounts in cents). Rejects with an ApiError
 * (400: the rule's message and `fieldErrors`; nothing saved).
 */
export function useSaveWelcomeOffer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: WelcomeOffer) => unwrap(api.PUT('/settings/welcome-offer', { body })),
    onSuccess: (saved) => client.setQueryData(welcomeOfferKey, saved),
  });
}
