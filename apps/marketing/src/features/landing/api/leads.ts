import { useMutation } from '@tanstack/react-query';
import type { LeadRequest } from '@grove/contracts';
import { api, unwrap } from '@grove/web-data-access';

/**
 * Sends the landing page's "Learn More" lead (`POST /api/leads`, public, throttled) with
 * `{ fullName, email, phone, company }`. Resolves with the server's `{ message }` to show; rejects
 * with an ApiError carrying the server's message (and per-field messages on 400, 429 when
 * throttled, status 0 when the network fails).
 */
export function useCreateLead() {
  return useMutation({
    mutationFn: (body: LeadRequest) => unwrap(api.POST('/leads', { body })),
  });
}
