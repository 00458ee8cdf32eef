// Runs the Stripe sandbox: `node dist/apps/stripe-sandbox/main.js`. Settings (all optional):
// PORT (4020), HOST (127.0.0.1), STRIPE_SANDBOX_API_KEY (the secret key it takes; default
// sk_test_grove_sandbox), STRIPE_SANDBOX_PUBLIC_URL (origin of the hosted Checkout and portal
// pages; default its own address), STRIPE_SANDBOX_WEBHOOKS (JSON array of endpoints, e.g.
// '[{"url":"http://127.0.0.1:3000/api/stripe/webhooks","secret":"whsec_dev"}]'),
// STRIPE_SANDBOX_WEBHOOK_RETRY_MS (first retry wait, default 1000). See docs/stripe.md.
import { DEFAULT_STRIPE_SANDBOX_OPTIONS } from './app/stripe-sandbox';
import { startStripeSandbox } from './app/start-sandbox';
import type { WebhookEndpointInput } from './app/webhook-dispatcher';

function endpointsFromEnv(text: string | undefined): WebhookEndpointInput[] {
  if (!text) return [];
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value))
    throw new TypeError('STRIPE_SANDBOX_WEBHOOKS must be a JSON array of {url, secret}');
  return value as WebhookEndpointInput[];
}

async function main() {
  const running = await startStripeSandbox({
    port: Number(process.env.PORT ?? 4020),
    host: process.env.HOST ?? '127.0.0.1',
    apiKeys: [process.env.STRIPE_SANDBOX_API_KEY || DEFAULT_STRIPE_SANDBOX_OPTIONS.apiKeys[0]],
    publicUrl: process.env.STRIPE_SANDBOX_PUBLIC_URL || undefined,
    webhookEndpoints: endpointsFromEnv(process.env.STRIPE_SANDBOX_WEBHOOKS),
    webhookRetryDelayMs: Number(
      process.env.STRIPE_SANDBOX_WEBHOOK_RETRY_MS ??
        DEFAULT_STRIPE_SANDBOX_OPTIONS.webhookRetryDelayMs,
    ),
  });
  const endpoints = running.sandbox.webhooks.listEndpoints().length;
  console.log(
    `Stripe sandbox on ${running.url} (${endpoints} webhook endpoint${endpoints === 1 ? '' : 's'}); control ${running.controlUrl}`,
  );
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
