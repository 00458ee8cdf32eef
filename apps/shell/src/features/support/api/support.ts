import { useMutation } from '@tanstack/react-query';
import type { MessageReply, SupportIssueRequest } from '@grove/contracts';
import { apiFetch } from '@grove/web-data-access';

/**
 * Reports an issue to Grove's support (`POST /api/support/issues`, signed in; docs/product.md#issue-form Issue form).
 * Resolves with the server's message (MESSAGES.supportSuccess); rejects with an ApiError.
 */
export function useSubmitSupportIssue() {
  return useMutation({
    mutationFn: (body: SupportIssueRequest) =>
      apiFetch<MessageReply>('/api/support/issues', { method: 'POST', body }),
  });
}
