import type { ApiErrorBody } from '@grove/contracts';

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

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
