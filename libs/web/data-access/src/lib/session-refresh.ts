/**
 * Silent session refresh, one at a time per browser.
 *
 * The API rotates the refresh token on every `POST /api/auth/refresh`; a second tab presenting the
 * token the first one just rotated would look like a stolen token (the server forgives that for a
 * short grace window only). So every tab refreshes under one Web Lock (`navigator.locks`, shared
 * by all tabs of the origin), and a tab that waited for the lock first looks whether another tab
 * refreshed after its failed request was sent: the browser's cookies are then already new, and it
 * just retries. Refreshes are counted in `localStorage` (the count, not a time: no clock to
 * trust). Without Web Locks or storage, the tab still refreshes once for all its own requests.
 */

/** Name of the Web Lock every tab of Grove's origin takes to refresh. */
export const REFRESH_LOCK_NAME = 'grove-session-refresh';
/** `localStorage` key holding how many refreshes succeeded in this browser. */
export const REFRESH_COUNT_KEY = 'grove-session-refreshes';

/** This tab's own count, for when storage is not available. */
let localCount = 0;
/** The refresh this tab is doing (or waiting to do) now; its requests share it. */
let inFlight: Promise<boolean> | null = null;

/**
 * How many refreshes succeeded in this browser so far. Read it when sending a request and hand
 * it to {@link refreshSession} when that request comes back 401.
 */
export function refreshCount(): number {
  try {
    const stored = Number(window.localStorage.getItem(REFRESH_COUNT_KEY));
    return Number.isSafeInteger(stored) ? Math.max(stored, localCount) : localCount;
  } catch {
    return localCount;
  }
}

function countRefresh(): void {
  localCount = refreshCount() + 1;
  try {
    window.localStorage.setItem(REFRESH_COUNT_KEY, String(localCount));
  } catch {
    // Storage blocked: this tab's own count still spares its other requests.
  }
}

/** Runs `work` holding the browser-wide refresh lock (or directly, without Web Locks). */
function underRefreshLock(work: () => Promise<boolean>): Promise<boolean> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? locks.request(REFRESH_LOCK_NAME, work) : work();
}

/**
 * Gets the browser a fresh access cookie after a request sent when `refreshCount()` was
 * `countWhenSent` came back 401: nothing to do when a refresh (in any tab) succeeded since then,
 * else one `POST /api/auth/refresh` under the browser-wide lock. Concurrent callers in this tab
 * share one attempt.
 * @returns true when the request is worth retrying (the cookies are fresh), false when the
 *   session has ended or the API cannot be reached
 */
export function refreshSession(countWhenSent: number): Promise<boolean> {
  inFlight ??= underRefreshLock(async () => {
    if (refreshCount() !== countWhenSent) return true;
    const refreshed = await fetch('/api/auth/refresh', {
      method: 'POST',
      credentials: 'same-origin',
    })
      .then((reply) => reply.ok)
      .catch(() => false);
    if (refreshed) countRefresh();
    return refreshed;
  }).finally(() => {
    inFlight = null;
  });
  return inFlight;
}
