import type { ApiErrorBody } from '@grove/contracts';
import { refreshSession, sessionHint } from './session-refresh';

/** An API reply that was not 2xx; `message` is the text to show the user. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * Puts an {@link ApiError}'s per-field messages on a form's fields (e.g. react-hook-form's
 * `setError`, typed structurally so this library does not depend on react-hook-form). Only the
 * listed fields are set; anything else (not an ApiError, other fields) is left alone.
 * @returns whether at least one field got a message
 */
export function applyFieldErrors<F extends string>(
  error: unknown,
  setError: (field: F, error: { message: string }) => void,
  fields: readonly F[],
): boolean {
  if (!(error instanceof ApiError)) return false;
  let applied = false;
  for (const field of fields) {
    const message = error.fieldErrors[field];
    if (message) {
      setError(field, { message });
      applied = true;
    }
  }
  return applied;
}

/**
 * The {@link ApiError} of a non-2xx reply: the server's `message` (docs/rest-api.md#errors, the
 * contract's `ApiErrorBody`) and per-field messages, or 'Request failed (status)' for a body
 * that is not one.
 */
export async function errorFromReply(reply: Response): Promise<ApiError> {
  const body = (safeJson(await reply.text()) ?? {}) as Partial<ApiErrorBody>;
  const message =
    typeof body.message === 'string' ? body.message : `Request failed (${reply.status})`;
  return new ApiError(reply.status, message, body.fieldErrors ?? {});
}

/** Shown when the API cannot be reached at all. */
export const NETWORK_ERROR_MESSAGE =
  'Cannot reach Grove right now. Check your connection and try again.';

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON, except a Blob or File, which is sent as it is with `contentType`. */
  body?: unknown;
  /** The Content-Type of a Blob body (e.g. 'text/csv'). */
  contentType?: string;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

/**
 * Auth routes whose 401 is an answer, not an expired access token: no refresh and retry for them.
 * (`GET /api/auth/me` is not one: an expired access token there is refreshed like anywhere else.)
 */
const NO_REFRESH_PATHS = new Set([
  '/api/auth/login',
  '/api/auth/signup',
  '/api/auth/refresh',
  '/api/auth/logout',
]);

async function send(
  path: string,
  { method = 'GET', body, contentType, query, signal }: ApiRequest,
): Promise<Response> {
  const raw = typeof Blob !== 'undefined' && body instanceof Blob;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const url = params.size ? `${path}?${params}` : path;
  try {
    return await fetch(url, {
      method,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? undefined
          : { 'Content-Type': raw ? (contentType ?? body.type) : 'application/json' },
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
}

/**
 * Calls Grove's REST API with the session cookie and returns the parsed JSON reply.
 * A 401 triggers one silent refresh of the session (one at a time across the browser's tabs, see
 * `refreshSession`) and one retry, except on login, signup, refresh, logout and the member page
 * API (`/api/member/…`, its own session).
 * @throws ApiError with the server's message (and per-field messages) for any non-2xx reply,
 *   or status 0 when the network fails
 */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const reply = await sendWithRefresh(path, request);
  if (reply.status === 204) return undefined as T;
  const text = await reply.text();
  const data: unknown = text ? safeJson(text) : undefined;
  if (!reply.ok) {
    const body = (data ?? {}) as Partial<ApiErrorBody>;
    const message =
      typeof body.message === 'string' ? body.message : `Request failed (${reply.status})`;
    throw new ApiError(reply.status, message, body.fieldErrors ?? {});
  }
  return data as T;
}

/**
 * Downloads a file from the API (e.g. a CSV export) with the same session refresh as `apiFetch`.
 * @returns the reply's bytes and the file name of its Content-Disposition (or `fallbackName`)
 * @throws ApiError like `apiFetch`
 */
export async function apiDownload(
  path: string,
  fallbackName: string,
): Promise<{ blob: Blob; fileName: string }> {
  const reply = await sendWithRefresh(path, {});
  if (!reply.ok) {
    const body = (safeJson(await reply.text()) ?? {}) as Partial<ApiErrorBody>;
    throw new ApiError(reply.status, body.message ?? `Request failed (${reply.status})`);
  }
  const disposition = reply.headers.get('Content-Disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  return { blob: await reply.blob(), fileName };
}

/**
 * Sends once; on a 401 refreshes the owner's session (not for the auth routes, nor the member
 * page API `/api/member/…`, whose 401 is about the member session, its own cookie) and sends again.
 */
async function sendWithRefresh(path: string, request: ApiRequest): Promise<Response> {
  const hintWhenSent = sessionHint();
  const reply = await send(path, request);
  const ownerSession = !NO_REFRESH_PATHS.has(path) && !path.startsWith('/api/member/');
  if (reply.status === 401 && ownerSession && (await refreshSession(hintWhenSent))) {
    return send(path, request);
  }
  return reply;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
