import createClient, { type Middleware } from 'openapi-fetch';
import type { ApiPath, paths } from '@grove/api-contract';
import { ApiError, NETWORK_ERROR_MESSAGE, errorFromReply } from './api-client';
import { announceSecondFactorMissing } from './second-factor-gate';
import { refreshSession, sessionHint } from './session-refresh';

/**
 * Auth routes whose 401 is an answer, not an expired access token: no refresh and retry for them.
 * (`GET /api/auth/me` is not one: an expired access token there is refreshed like anywhere else.)
 * The member page API (`/api/member/…`) has its own session and is never refreshed either.
 * Paths are the contract's, relative to `/api`.
 */
const NO_REFRESH_PATHS: ReadonlySet<string> = new Set<ApiPath>([
  '/auth/login',
  '/auth/signup',
  '/auth/refresh',
  '/auth/logout',
]);

function refreshes(url: string): boolean {
  const path = new URL(url, 'http://grove.invalid').pathname.replace(/^\/api(?=\/)/, '');
  return !NO_REFRESH_PATHS.has(path) && !path.startsWith('/member/');
}

/**
 * Sends a request of the generated client with the session cookie; a 401 on an owner route
 * refreshes the session once (one refresh at a time across the browser's tabs, `refreshSession`)
 * and sends the request again. Reads `globalThis.fetch` on every call (the test fakes replace it).
 */
async function fetchWithSessionRefresh(request: Request): Promise<Response> {
  const hintWhenSent = sessionHint();
  const retry = request.clone();
  const reply = await globalThis.fetch(request);
  if (reply.status === 401 && refreshes(request.url) && (await refreshSession(hintWhenSent))) {
    return globalThis.fetch(retry);
  }
  return reply;
}

/**
 * Every non-2xx reply becomes an {@link ApiError}; a network failure one of status 0. The 403 of
 * a second factor the business requires is also announced (`onSecondFactorMissing`), for the shell
 * to send the person to Security.
 */
const apiErrors: Middleware = {
  async onResponse({ response }) {
    if (response.ok) return undefined;
    const error = await errorFromReply(response);
    announceSecondFactorMissing(error);
    throw error;
  },
  onError({ error }) {
    if (error instanceof DOMException && error.name === 'AbortError') return error;
    if (error instanceof ApiError) return error;
    return new ApiError(0, NETWORK_ERROR_MESSAGE);
  },
};

/**
 * Grove's API client, generated from the API's OpenAPI document (`@grove/api-contract`, written
 * by `npm run api:contract`): every path, parameter, body and reply is typed by the contract.
 * Same-origin, with the session cookie and one silent session refresh on a 401
 * (docs/architecture.md#the-api-contract).
 *
 * Paths are the contract's, relative to `/api`: `unwrap(api.GET('/members/{id}', { params: {
 * path: { id } } }))` is `GET /api/members/{id}`.
 * @throws ApiError (from every call) with the server's message and per-field messages for any
 *   non-2xx reply, or status 0 when the network fails
 */
export const api = createClient<paths>({
  baseUrl: `${typeof location === 'undefined' ? '' : location.origin}/api`,
  credentials: 'same-origin',
  fetch: fetchWithSessionRefresh,
});
api.use(apiErrors);

/**
 * The reply body of a generated client call (`undefined` for a 204): {@link api} throws on every
 * non-2xx reply, so a call that returns has its data.
 * @throws ApiError as {@link api} does
 */
export async function unwrap<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  return (await call).data as T;
}

/**
 * A file download of a generated client call (`parseAs: 'blob'`, e.g. a CSV export): its bytes and
 * the file name of its Content-Disposition, or `fallbackName`.
 * @throws ApiError as {@link api} does
 */
export async function unwrapDownload(
  call: Promise<{ data?: Blob; response: Response }>,
  fallbackName: string,
): Promise<{ blob: Blob; fileName: string }> {
  const { data, response } = await call;
  if (!data) throw new ApiError(response.status, `Request failed (${response.status})`);
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  return { blob: data, fileName };
}
