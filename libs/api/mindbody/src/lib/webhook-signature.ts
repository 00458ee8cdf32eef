import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256=';

/**
 * The `X-Mindbody-Signature` value of a webhook body: `sha256=` + base64 HMAC-SHA256 of the raw
 * body bytes keyed with the subscription's `messageSignatureKey` (Mindbody Webhooks API,
 * "X-Mindbody-Signature header").
 * @param rawBody the exact bytes sent (a string is taken as UTF-8)
 * @param key the subscription's messageSignatureKey
 */
export function signWebhookBody(rawBody: string | Buffer, key: string): string {
  return PREFIX + createHmac('sha256', key).update(rawBody).digest('base64');
}

/**
 * Checks a delivery's `X-Mindbody-Signature` header against the raw body, in constant time.
 * Verify the raw bytes as received, before any JSON parsing.
 * @param rawBody the request body exactly as received
 * @param header the header value (`sha256=<base64>`); absent, repeated or malformed → false
 * @param key the subscription's messageSignatureKey
 * @returns true only when the signature matches
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  header: string | string[] | null | undefined,
  key: string,
): boolean {
  if (typeof header !== 'string' || !header.startsWith(PREFIX) || !key) return false;
  const expected = Buffer.from(signWebhookBody(rawBody, key), 'utf8');
  const given = Buffer.from(header.trim(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
