/**
 * Stripe's error reply (https://docs.stripe.com/api/errors): HTTP status plus
 * `{ error: { type, code?, param?, message } }`. Every refusal of the sandbox is one of these.
 */

/** The JSON body of a Stripe error reply. */
export interface StripeErrorBody {
  error: {
    type: 'invalid_request_error' | 'idempotency_error' | 'card_error' | 'api_error';
    code?: string;
    param?: string;
    message: string;
    doc_url?: string;
  };
}

/** A refusal: thrown by the sandbox's modules, answered as Stripe's error JSON with `status`. */
export class StripeRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody['error'],
  ) {
    super(body.message);
  }

  /** The reply body, `{ error: {...} }`. */
  toJSON(): StripeErrorBody {
    return { error: this.body };
  }
}

const docUrl = (code: string) => `https://docs.stripe.com/error-codes/${code.replace(/_/g, '-')}`;

/** 400 an invalid request, with Stripe's `code` (https://docs.stripe.com/error-codes) when it has one. */
export function invalidRequest(message: string, param?: string, code?: string): StripeRequestError {
  return new StripeRequestError(400, {
    type: 'invalid_request_error',
    ...(code ? { code, doc_url: docUrl(code) } : {}),
    ...(param ? { param } : {}),
    message,
  });
}

/** 400 `parameter_unknown`: "Received unknown parameter: foo". */
export const unknownParameter = (param: string) =>
  invalidRequest(`Received unknown parameter: ${param}`, param, 'parameter_unknown');

/** 400 `parameter_missing`: "Missing required param: name.". */
export const missingParameter = (param: string) =>
  invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing');

/** 404 `resource_missing`: "No such customer: 'cus_123'". */
export function resourceMissing(kind: string, id: string, param = 'id'): StripeRequestError {
  return new StripeRequestError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    doc_url: docUrl('resource_missing'),
    param,
    message: `No such ${kind}: '${id}'`,
  });
}

/** 404 for a path Stripe does not serve ("Unrecognized request URL (GET: /v1/foo)."). */
export const unrecognizedUrl = (method: string, path: string) =>
  new StripeRequestError(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${path}).`,
  });

/** 401 for a missing or unknown secret key (Stripe answers `invalid_request_error` with 401). */
export const unauthorized = (message: string) =>
  new StripeRequestError(401, { type: 'invalid_request_error', message });
