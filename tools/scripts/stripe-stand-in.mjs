// Starts the built Stripe stand-in (dist/apps/stripe-sandbox) and creates Grove's plan in it:
// `npm start` (tools/scripts/start.mjs) and `npm run bench:stripe` (tools/bench/stripe.mjs).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The secret key the Stripe stand-in takes (its default; never a real key). */
export const STRIPE_SANDBOX_KEY = 'sk_test_grove_sandbox';

/** Grove's plan, as `GROVE_PLAN` in libs/shared/contracts/src/owner/billing.ts says ($99). */
const GROVE_MONTHLY_PRICE_CENTS = 9_900;

/**
 * A Stripe API call to the stand-in as the SDK sends it (form-encoded, the secret key as Bearer).
 * @param {string} origin the stand-in's origin
 * @param {string} apiPath e.g. '/v1/products'
 * @param {Record<string, string> | null} fields a POST's fields, or null for a GET
 * @returns {Promise<any>} Stripe's JSON object
 * @throws Error with Stripe's status and body on a refusal
 */
export async function stripeCall(origin, apiPath, fields = null) {
  const reply = await fetch(`${origin}${apiPath}`, {
    method: fields ? 'POST' : 'GET',
    headers: {
      authorization: `Bearer ${STRIPE_SANDBOX_KEY}`,
      ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: fields ? new URLSearchParams(fields) : undefined,
  });
  if (!reply.ok) throw new Error(`${apiPath}: ${reply.status} ${await reply.text()}`);
  return reply.json();
}

/**
 * Starts the stand-in on `port` (127.0.0.1), delivering its webhooks to `webhooks`, and creates
 * Grove's plan ($99 a month, USD). Its data lives in memory.
 * @param {{ root: string, port: number, webhooks: { url: string, secret: string }[] }} options
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, origin: string, priceId: string } | null>}
 *   null when the stand-in is not built
 * @throws Error when it does not answer within 30 s
 */
export async function startStripeStandIn({ root, port, webhooks }) {
  const bundle = path.join(root, 'dist/apps/stripe-sandbox/main.js');
  if (!fs.existsSync(bundle)) return null;
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [bundle], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      STRIPE_SANDBOX_WEBHOOKS: JSON.stringify(webhooks),
    },
  });
  for (let attempt = 0; attempt < 120 && child.exitCode === null; attempt++) {
    try {
      if ((await fetch(`${origin}/health`)).ok) {
        const product = await stripeCall(origin, '/v1/products', { name: 'Grove' });
        const price = await stripeCall(origin, '/v1/prices', {
          product: product.id,
          currency: 'usd',
          unit_amount: String(GROVE_MONTHLY_PRICE_CENTS),
          'recurring[interval]': 'month',
          lookup_key: 'grove_monthly_usd',
        });
        return { child, origin, priceId: price.id };
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGTERM');
  throw new Error('the Stripe stand-in did not start');
}
