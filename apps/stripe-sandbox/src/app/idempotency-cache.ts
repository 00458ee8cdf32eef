import { createHash } from 'node:crypto';
import { StripeRequestError } from './stripe-error';

/** A reply kept for replay. */
export interface KeptReply {
  status: number;
  body: unknown;
}

/** Limits of the cache (Stripe keeps keys ≥ 24 hours; https://docs.stripe.com/api/idempotent_requests). */
export const IDEMPOTENCY_LIMITS = {
  /** Longest key, characters (Stripe: 255). */
  keyLength: 255,
  /** Keys kept; the oldest is forgotten beyond. */
  entries: 10_000,
  /** How long a key is kept, seconds. */
  ttlSeconds: 24 * 3600,
} as const;

/**
 * Stripe's idempotent requests (https://docs.stripe.com/api/idempotent_requests): the first reply
 * to a POST with an `Idempotency-Key` is kept, per secret key; the same key with the same method,
 * path and parameters replays it (the server adds `Idempotent-Replayed: true`), the same key with
 * other parameters is refused with 400 `idempotency_error`. Replies with status 500 are not kept.
 */
export class IdempotencyCache {
  private readonly entries = new Map<
    string,
    { fingerprint: string; reply: KeptReply; at: number }
  >();

  /**
   * The kept reply for this key, or undefined when the key is new.
   * @throws StripeRequestError 400 when the key is too long or was used with other parameters
   */
  lookup(apiKey: string, key: string, request: string): KeptReply | undefined {
    if (key.length > IDEMPOTENCY_LIMITS.keyLength)
      throw new StripeRequestError(400, {
        type: 'invalid_request_error',
        message: `Idempotency keys can be at most ${IDEMPOTENCY_LIMITS.keyLength} characters long.`,
      });
    const entry = this.entries.get(this.slot(apiKey, key));
    if (!entry || entry.at < Date.now() - IDEMPOTENCY_LIMITS.ttlSeconds * 1000) return undefined;
    if (entry.fingerprint !== fingerprint(request))
      throw new StripeRequestError(400, {
        type: 'idempotency_error',
        message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      });
    return entry.reply;
  }

  /** Keeps the reply to `request` (method, path and body) under the key. */
  keep(apiKey: string, key: string, request: string, reply: KeptReply): void {
    if (reply.status >= 500) return;
    const slot = this.slot(apiKey, key);
    this.entries.delete(slot);
    this.entries.set(slot, { fingerprint: fingerprint(request), reply, at: Date.now() });
    if (this.entries.size > IDEMPOTENCY_LIMITS.entries)
      this.entries.delete(this.entries.keys().next().value as string);
  }

  private slot(apiKey: string, key: string): string {
    return `${fingerprint(apiKey)}:${key}`;
  }
}

const fingerprint = (text: string) => createHash('sha256').update(text).digest('hex');
