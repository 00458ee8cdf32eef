import { useMutation } from '@tanstack/react-query';
import type { ContactRequest } from '@grove/contracts';
import { api, unwrap } from '@grove/web-data-access';

/**
 * Sends the contact form (`POST /api/contact`, public). Resolves with the server's message
 * (MESSAGES.contactSuccess); rejects with an ApiError carrying the server's message and per-field
 * messages (400), MESSAGES.contactFailed for a missing, invalid or reused captcha, or 429 when
 * throttled.
 */
export function useSendContactMessage() {
  return useMutation({
    mutationFn: (body: ContactRequest) => unwrap(api.POST('/contact', { body })),
  });
}
