import { useMutation } from '@tanstack/react-query';
import type { SupportIssueRequest } from '@grove/contracts';
import { api, unwrap } from '@grove/web-data-access';

/**
 * Reports an issue to Grove's support (`POST /api/support/issues`, signed in; docs/product.md#issue-form Issue form).
 * Resolves with the server's message (MESSAGES.supportSuccess); rejects with an ApiError.
 */
export function useSubmitSupportIssue() {
  return useMutation({
    mutationFn: (body: SupportIssueRequest) => unwrap(api.POST('/support/issues', { body })),
  });
}
