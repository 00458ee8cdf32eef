import { Injectable } from '@nestjs/common';
import Stripe from 'stripe';
import { AppConfig } from '../../platform/config/app-config';
import { BillingUnavailableException } from './billing.exceptions';

/**
 * The official `stripe` SDK, configured from `AppConfig.billing.stripe` (Stripe itself, or the
 * stand-in at STRIPE_API_URL through the SDK's `host`/`port`/`protocol`: docs/stripe.md). Two
 * network retries (the SDK adds an idempotency key to retried POSTs) and a 10 s timeout.
 */
@Injectable()
export class StripeClient {
  private readonly client: Stripe | null;

  constructor(private readonly config: AppConfig) {
    const connection = config.billing.stripe;
    this.client = connection
      ? new Stripe(connection.secretKey, {
          ...(connection.api ?? {}),
          maxNetworkRetries: 2,
          timeout: 10_000,
          appInfo: { name: 'Grove' },
        })
      : null;
  }

  /** @throws BillingUnavailableException 503 when Stripe is not configured */
  get stripe(): Stripe {
    if (!this.client) throw new BillingUnavailableException();
    return this.client;
  }

  /** Whether Stripe is configured. */
  get configured(): boolean {
    return this.client !== null;
  }

  /**
   * Verifies a webhook delivery as Stripe documents (https://docs.stripe.com/webhooks#verify-official-libraries):
   * `constructEvent` on the raw body, the `Stripe-Signature` header and the endpoint's secret,
   * 300 s tolerance. @throws Stripe's signature error when it does not verify
   */
  verifyEvent(rawBody: Buffer, signature: string): Stripe.Event {
    const connection = this.config.billing.stripe;
    if (!connection || !this.client) throw new BillingUnavailableException();
    return this.client.webhooks.constructEvent(rawBody, signature, connection.webhookSecret);
  }

  /** The plan's Stripe Price for `currency` (lower case), else the first configured one. */
  priceFor(currency: string): string {
    const prices = this.config.billing.stripe?.prices;
    if (!prices) throw new BillingUnavailableException();
    return prices.get(currency.toLowerCase()) ?? [...prices.values()][0];
  }
}
