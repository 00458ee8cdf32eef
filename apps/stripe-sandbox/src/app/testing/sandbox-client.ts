import Stripe from 'stripe';
import type { RunningStripeSandbox } from '../start-sandbox';

/** The secret key the test sandboxes accept. */
export const TEST_KEY = 'sk_test_grove_sandbox';

/** The official SDK pointed at a running sandbox (no retries: a refusal shows at once). */
export function sdkFor(running: RunningStripeSandbox, key = TEST_KEY): Stripe {
  return new Stripe(key, {
    host: running.host,
    port: running.port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
}

/** A product with a monthly price of `cents` (AUD), through the SDK. */
export async function monthlyPrice(stripe: Stripe, cents = 4_900): Promise<Stripe.Price> {
  const product = await stripe.products.create({ name: 'Grove Growth' });
  return stripe.prices.create({
    product: product.id,
    currency: 'aud',
    unit_amount: cents,
    recurring: { interval: 'month' },
  });
}
