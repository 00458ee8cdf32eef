import type { IncomingMessage } from 'node:http';
import { parse } from 'qs';
import { StripeRequestError, invalidRequest } from './stripe-error';

/**
 * Limits of the sandbox's body and form parsers. Stripe states none of them; these are above
 * anything Grove sends (docs/stripe.md#assumptions).
 */
export const FORM_LIMITS = {
  /** Largest request body, bytes (413 beyond). */
  maxBodyBytes: 256 * 1024,
  /** Nesting depth of `a[b][c]` keys (Stripe's deepest Grove uses: `line_items[0][price]`). */
  depth: 5,
  /** Highest array index `items[n]` read as an array. */
  arrayLimit: 100,
  /** Parameters per request. */
  parameterLimit: 1_000,
} as const;

/** A parsed form or query: strings, arrays and nested objects (qs's output). */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormParams = Record<string, FormValue>;

/**
 * Reads a request body as UTF-8 text. @throws StripeRequestError 413 beyond `maxBytes`
 */
export function readBody(
  request: IncomingMessage,
  maxBytes = FORM_LIMITS.maxBodyBytes,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(
          new StripeRequestError(413, {
            type: 'invalid_request_error',
            message: `Request body larger than ${maxBytes} bytes.`,
          }),
        );
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * Parses `application/x-www-form-urlencoded` text (a body or a query string) as Stripe does:
 * `a[b]=1` → `{a: {b: '1'}}`, `items[0][price]=p` → `{items: [{price: 'p'}]}`, `expand[]=x` →
 * `{expand: ['x']}`, `metadata[k]=v`. Within FORM_LIMITS; `__proto__`-style keys are dropped.
 * @throws StripeRequestError 400 when a limit is exceeded
 */
export function parseForm(text: string): FormParams {
  try {
    return parse(text, {
      depth: FORM_LIMITS.depth,
      arrayLimit: FORM_LIMITS.arrayLimit,
      parameterLimit: FORM_LIMITS.parameterLimit,
      throwOnLimitExceeded: true,
      strictDepth: true,
      allowPrototypes: false,
      plainObjects: true,
      charset: 'utf-8',
    }) as FormParams;
  } catch (cause) {
    throw invalidRequest(
      `Invalid form encoding: ${cause instanceof Error ? cause.message : 'unreadable'}`,
    );
  }
}
