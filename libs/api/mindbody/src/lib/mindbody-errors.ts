/** Base class of every error the Mindbody client throws. */
export class MindbodyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * Mindbody refused the caller's identity: invalid staff credentials at `POST /usertoken/issue`, a
 * missing/expired staff token, or a wrong `Api-Key` (HTTP 401/403). The API layer shows docs/product.md#errors
 * 'Invalid credentials provided'. Never retried.
 */
export class MindbodyAuthError extends MindbodyError {
  constructor(
    /** HTTP status (401 or 403). */
    readonly status: number,
    /** Mindbody's `Error.Code`, e.g. 'DeniedAccess'. */
    readonly code: string,
    /** Mindbody's `Error.Message`. */
    readonly mindbodyMessage: string,
  ) {
    super(`Mindbody denied access (${status} ${code}): ${mindbodyMessage}`);
  }
}

/**
 * Mindbody answered a request with a client error other than 401/403/429 (e.g. 400 for a bad
 * parameter or a wrong SiteId, 404). Never retried. `toString()` gives the text docs/product.md#errors shows
 * for "other Mindbody errors".
 */
export class MindbodyRequestError extends MindbodyError {
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** Mindbody's `Error.Code` ('Unknown' when the body had none). */
    readonly code: string,
    /** Mindbody's `Error.Message` (or the raw body text when it was not Mindbody's shape). */
    readonly mindbodyMessage: string,
  ) {
    super(`Mindbody request failed (${status} ${code}): ${mindbodyMessage}`);
  }

  /** `Mindbody request failed (<status> <code>): <message>` */
  override toString(): string {
    return this.message;
  }
}

/**
 * Mindbody could not be reached or kept failing: every attempt ended in a timeout, a dropped
 * connection, a 429 or a 5xx. The API layer shows docs/product.md#errors 'Something went wrong'.
 */
export class MindbodyUnavailableError extends MindbodyError {
  constructor(
    /** Attempts made (1 + retries). */
    readonly attempts: number,
    /** What ended the last attempt: an HTTP status, 'timeout' or 'network'. */
    readonly lastFailure: number | 'timeout' | 'network',
    cause?: unknown,
  ) {
    super(`Mindbody unavailable after ${attempts} attempt(s); last failure: ${lastFailure}`, {
      cause,
    });
  }
}
