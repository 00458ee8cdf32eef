import { apiUrl } from '@grove/api-contract';
import { SESSION_HINT_COOKIE } from '@grove/contracts';

/**
 * Silent session refresh, one at a time per browser.
 *
 * The API rotates the refresh token on every `POST /api/auth/refresh`; a second tab presenting the
 * token the first one just rotated would look like a stolen token (the server forgives that for a
 * short grace window only). So every tab refreshes under one Web Lock (`navigator.locks`, shared
 * by all tabs of the origin), and a tab that got the lock first looks whether the session cookies
 * changed since its failed request was sent: the readable session hint cookie gets a new random
 * value with every set of cookies the API issues. If it changed, another tab (or this one) has
 * refreshed, and the request is just retried. The cookie store is the browser's one source of
 * truth for every tab (unlike `localStorage`, which Chromium syncs between tabs asynchronously).
 * Without Web Locks, the tab still refreshes once for all its own requests.
 */

/** Name of the Web Lock every tab of Grove's origin takes to refresh. */
export const REFRESH_LOCK_NAME = 'grove-session-refresh';

/** The refresh this tab is doing (or waiting to do) now; its requests share it. */
let inFlight: Promise<boolean> | null = null;

/**
 * The session hint cookie's value (`SESSION_HINT_COOKIE`, plain or `__Host-` prefixed), or null
 * when there is none (signed out, or never signed in on this browser).
 * @param cookies a `document.cookie` string
 */
export function sessionHint(cookies: string = document.cookie): string | null {
  for (const cookie of cookies.split(';')) {
    const [name, ...value] = cookie.trim().split('=');
    if (name === SESSION_HINT_COOKIE || name === `__Host-${SESSION_HINT_COOKIE}`)
      return value.join('=');
  }
  return null;
}

/** Runs `work` holding the browser-wide refresh lock (or directly, without Web Locks). */
function underRefreshLock(work: () => Promise<boolean>): Promise<boolean> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? locks.request(REFRESH_LOCK_NAME, work) : work();
}

/**
 * Gets the browser a fresh access cookie after a request sent while the session hint was
 * `hintWhenSent` (`sessionHint()`) came back 401: nothing to do when the session cookies changed
 * since then (a refresh in any tab, a login), else one `POST /api/auth/refresh` under the
 * browser-wide lock. Concurrent callers in this tab share one attempt.
 * @returns true when the request is worth retrying (the cookies changed), false when the
 *   session has ended or the API cannot be reached
 */
export function refreshSession(hintWhenSent: string | null): Promise<boolean> {
  inFlight ??= underRefreshLock(async () => {
    const hint = sessionHint();
    if (hint !== null && hint !== hintWhenSent) return true;
    return fetch(apiUrl('/auth/refresh'), { method: 'POST', credentials: 'same-origin' })
      .then((reply) => reply.ok)
      .catch(() => false);
  }).finally(() => {
    inFlight = null;
  });
  return inFlight;
}
