import { createHmac } from 'node:crypto';

/**
 * The `Stripe-Signature` header of a webhook delivery, as Stripe signs it
 * (https://docs.stripe.com/webhooks#verify-manually): `t=<timestamp>,v1=<signature>` where the
 * signature is the hex HMAC-SHA256 of `${timestamp}.${payload}` keyed with the endpoint's
 * `whsec_…` secret (the whole string, prefix included). `timestamp` in Unix seconds.
 */
export function stripeSignatureHeader(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret)
    .update(`${timestamp}.${payload}`, 'utf8')
    .digest('hex');
  return `t=${timestamp},v1=${signature}`;
}
