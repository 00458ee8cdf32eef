import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiUrl } from '@grove/api-contract';
import { api, unwrap } from '@grove/web-data-access';

export const dataExportsKey = ['data-exports'] as const;
export const closureKey = ['account-closure'] as const;
export const emailSendingKey = ['member-emails', 'sending'] as const;

/**
 * The business's latest exports (`GET /api/data-exports`, docs/product.md#data-rights), polled
 * every 2 s while one is queued or running (the progress bar).
 */
export function useDataExports(enabled = true) {
  return useQuery({
    queryKey: dataExportsKey,
    enabled,
    queryFn: ({ signal }) => unwrap(api.GET('/data-exports', { signal })),
    refetchInterval: (query) =>
      query.state.data?.exports.some((e) => e.state === 'queued' || e.state === 'running')
        ? 2_000
        : false,
  });
}

/** 'Export everything' (`POST /api/data-exports`); rejects with the 409/429 message. */
export function useStartExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/data-exports')),
    onSuccess: () => client.invalidateQueries({ queryKey: dataExportsKey }),
  });
}

/** The download URL of a finished export (a plain link: the browser streams the ZIP). */
export function exportDownloadUrl(id: string): string {
  return apiUrl('/data-exports/{id}/download', { id });
}

/** Whether the business is closing (`GET /api/account/closure`). */
export function useClosure(enabled = true) {
  return useQuery({
    queryKey: closureKey,
    enabled,
    queryFn: ({ signal }) => unwrap(api.GET('/account/closure', { signal })),
  });
}

/** 'Close account' with the password (`POST /api/account/closure`). */
export function useCloseAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => unwrap(api.POST('/account/closure', { body: { password } })),
    onSuccess: (reply) => client.setQueryData(closureKey, reply),
  });
}

/** 'Cancel closing' (`DELETE /api/account/closure`). */
export function useCancelClosure() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/account/closure')),
    onSuccess: () => client.setQueryData(closureKey, { closingAt: null }),
  });
}

/** Whether member emails go out or wait, and why (`GET /api/member-emails/sending`). */
export function useEmailSending() {
  return useQuery({
    queryKey: emailSendingKey,
    queryFn: ({ signal }) => unwrap(api.GET('/member-emails/sending', { signal })),
    refetchInterval: 30_000,
  });
}

/** 'Resend verification' (`POST /api/account/email-verification`). */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => unwrap(api.POST('/account/email-verification')),
  });
}
