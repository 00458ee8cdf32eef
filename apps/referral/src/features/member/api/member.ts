import { useMutation, useQuery } from '@tanstack/react-query';
import type { MemberLinkRequest, MemberPage } from '@grove/contracts';
import { ApiError, apiFetch } from '@grove/web-data-access';

/** The query key of the signed-in member's page. */
export const MEMBER_PAGE_KEY = ['member', 'me'] as const;

/**
 * The signed-in member's page (`GET /api/member/me`, member cookie). `enabled` false while a
 * magic link is being used. No retry: a 401 means "ask for a new link".
 */
export function useMemberPage(enabled: boolean) {
  return useQuery({
    queryKey: MEMBER_PAGE_KEY,
    queryFn: ({ signal }) => apiFetch<MemberPage>('/api/member/me', { signal }),
    enabled,
    retry: false,
  });
}

/** The latest magic link landing of this page load: its number and whether it signed in. */
let landing: { attempt: number; signedIn: Promise<boolean> } | null = null;

/** The landing number the current history entry was marked with, if any. */
function landingMark(): number | undefined {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null
    ? (state as { memberLanding?: number }).memberLanding
    : undefined;
}

/**
 * Uses the magic link's token of the address bar (`#token=…`), once per token even if the page
 * mounts twice (`POST /api/member/session` sets the member cookie). The token leaves the address
 * bar at once (a clean `/member`), and the history entry is marked with the landing's number,
 * so a remount of that entry sees the same landing and a later visit to `/member` sees none.
 * @returns resolves true when signed in, false when the link was refused (used, expired,
 *   malformed); null when this entry has no landing
 */
function landFromMagicLink(): typeof landing {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (token) {
    const attempt = (landing?.attempt ?? 0) + 1;
    const state: unknown = window.history.state;
    window.history.replaceState(
      { ...(typeof state === 'object' ? state : {}), memberLanding: attempt },
      '',
      window.location.pathname,
    );
    landing = {
      attempt,
      signedIn: apiFetch<void>('/api/member/session', { method: 'POST', body: { token } }).then(
        () => true,
        (error: unknown) => {
          if (error instanceof ApiError && (error.status === 401 || error.status === 400))
            return false;
          throw error;
        },
      ),
    };
  }
  return landing !== null && landing.attempt === landingMark() ? landing : null;
}

/**
 * The magic link landing (see `landFromMagicLink`): `pending` while the token is being used,
 * `refused` when the link was used or expired.
 */
export function useMagicLinkLanding(): { pending: boolean; refused: boolean } {
  const current = landFromMagicLink();
  const result = useQuery({
    queryKey: ['member', 'landing', current?.attempt ?? 0],
    queryFn: () => current?.signedIn ?? true,
    enabled: current !== null,
    staleTime: Infinity,
    retry: false,
  });
  if (current === null) return { pending: false, refused: false };
  return { pending: result.isPending, refused: result.data === false };
}

/** Asks for a new link by email (`POST /api/member/magic-link`): the same answer for anyone. */
export function useRequestMemberLink() {
  return useMutation({
    mutationFn: (body: MemberLinkRequest) =>
      apiFetch<{ message: string }>('/api/member/magic-link', { method: 'POST', body }),
  });
}

/** Signs the member out (`POST /api/member/logout`). */
export function useMemberSignOut() {
  return useMutation({
    mutationFn: () => apiFetch<void>('/api/member/logout', { method: 'POST' }),
  });
}

/** Which business an unsubscribe link is of (`GET /api/member-emails/unsubscribe/:token/status`). */
export function useUnsubscribeStatus(token: string) {
  return useQuery({
    queryKey: ['member', 'unsubscribe', token],
    queryFn: ({ signal }) =>
      apiFetch<{ businessName: string; unsubscribed: boolean }>(
        `/api/member-emails/unsubscribe/${encodeURIComponent(token)}/status`,
        { signal },
      ),
    retry: false,
  });
}

/** Unsubscribes (`POST /api/member-emails/unsubscribe/:token`). */
export function useUnsubscribe(token: string) {
  return useMutation({
    mutationFn: () =>
      apiFetch<{ message: string }>(`/api/member-emails/unsubscribe/${encodeURIComponent(token)}`, {
        method: 'POST',
      }),
  });
}
