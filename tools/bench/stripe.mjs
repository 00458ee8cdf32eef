#!/usr/bin/env node
// `npm run bench:stripe` (issue 30): Stripe's webhooks to Grove's own bill under a burst. Starts
// the built Stripe stand-in and the built API (billing on, a throwaway embedded PostgreSQL), takes
// the bench business through Checkout (a paying subscription in the stand-in), then sends 1,000
// signed events to `POST /api/billing/stripe-webhook`, 50 at a time: 900 distinct events
// (`customer.subscription.updated` and `invoice.paid` of that subscription, alternately) and 100
// of them delivered a second time, as Stripe may. It prints the replies (every one must be 2xx),
// the API's latency as autocannon measures it (p50, p99, max; target p99 ≤ 50 ms), /api/health's p99 at the same
// concurrency in the same run, the events recorded (each once) and how long the job queue took
// to apply them all. Run `npm run build` first (it builds the API and the stand-in).
//
// BENCH_EVENTS (default 1,000) and BENCH_CONCURRENCY (50) change the burst; BENCH_RATE (events a
// second, autocannon's overallRate) paces it (docs/decisions/stripe-webhook-burst.md).
//
// Then (issue 32, `stripe-member-import.mjs`) the Stripe member import of BENCH_STRIPE_CUSTOMERS
// (default 10,000; 0 skips it) against its fetch + write floor (target ≤ 1.5x), and the Stripe
// calls of an import and of a sync with nothing to change (target: the list pages only); the API
// reaches the stand-in through a counting proxy. BENCH_PART=members runs only this part.
import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '../db/embedded-postgres.mjs';
import { startStripeStandIn, STRIPE_SANDBOX_KEY, stripeCall } from '../scripts/stripe-stand-in.mjs';
import autocannon from 'autocannon';
import { startBenchApi } from './harness.mjs';
import { benchStripeMemberImport, countingProxy } from './stripe-member-import.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
// Events a second, as Stripe sends them over time (0: as fast as CONCURRENCY connections allow).
const RATE = Number(process.env.BENCH_RATE ?? 0);
const DUPLICATES = Math.floor(EVENTS / 10);
const QUEUE = 'billing.stripe-event';
const CUSTOMERS = Number(process.env.BENCH_STRIPE_CUSTOMERS ?? 10_000);
const ONLY_MEMBERS = process.env.BENCH_PART === 'members';

const secret = `whsec_${randomBytes(24).toString('hex')}`;
// No endpoint in the stand-in: the bench sends the events itself, so the burst is its own.
const stripe = await startStripeStandIn({ root, port: await freePort(), webhooks: [] });
if (!stripe) throw new Error('dist/apps/stripe-sandbox is missing; run `npm run build` first.');
// Every call the API makes to Stripe goes through it, counted (the member import's figures).
const proxy = await countingProxy(stripe.origin);
const bench = await startBenchApi({
  GROVE_BILLING: 'on',
  STRIPE_SECRET_KEY: STRIPE_SANDBOX_KEY,
  STRIPE_WEBHOOK_SECRET: secret,
  STRIPE_PRICES: `usd:${stripe.priceId}`,
  STRIPE_API_URL: proxy.origin,
});
try {
  const { base, cookie, sql } = bench;
  // A paying subscription: Checkout through Grove, paid on the stand-in's hosted page.
  const checkout = await fetch(`${base}/api/billing/checkout`, {
    method: 'POST',
    headers: { cookie },
  });
  if (!checkout.ok) throw new Error(`checkout: ${checkout.status} ${await checkout.text()}`);
  const { url } = await checkout.json();
  const paid = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card: '4242 4242 4242 4242', name: "Siobhán O'Brien" }),
  });
  if (paid.status >= 400) throw new Error(`paying Checkout: ${paid.status}`);
  const {
    rows: [{ customer }],
  } = await sql('SELECT stripe_customer_id AS customer FROM business_billing');
  const [subscription] = (await stripeCall(stripe.origin, `/v1/subscriptions?customer=${customer}`))
    .data;
  const [invoice] = (await stripeCall(stripe.origin, `/v1/invoices?customer=${customer}`)).data;
  if (!subscription || !invoice) throw new Error('Checkout left no subscription or invoice');

  if (!ONLY_MEMBERS) await webhookBurst();
  if (CUSTOMERS > 0) {
    const members = await benchStripeMemberImport({
      bench,
      origin: stripe.origin,
      proxy,
      customers: CUSTOMERS,
    });
    // The stand-in is one account: the bench business's own Grove subscription is listed too.
    if (members.listed < CUSTOMERS || members.syncCalls > 0) process.exitCode = 1;
  }

  /** The webhook burst (issue 30): see the file's comment. */
  async function webhookBurst() {
    const event = (index) => ({
      id: `evt_bench_${index}`,
      object: 'event',
      api_version: '2025-03-31.basil',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: index % 2 === 0 ? 'customer.subscription.updated' : 'invoice.paid',
      data: { object: index % 2 === 0 ? subscription : invoice },
    });
    const distinct = EVENTS - DUPLICATES;
    const payloads = [
      ...Array.from({ length: distinct }, (_, index) => JSON.stringify(event(index))),
      // Stripe delivers at least once: some events a second time.
      ...Array.from({ length: DUPLICATES }, (_, index) => JSON.stringify(event(index * 3))),
    ];
    const signature = (payload) => {
      const at = Math.floor(Date.now() / 1000);
      const v1 = createHmac('sha256', secret).update(`${at}.${payload}`).digest('hex');
      return `t=${at},v1=${v1}`;
    };

    /**
     * `amount` requests, CONCURRENCY connections (autocannon, as the other benches load), the
     * i-th one shaped by `shape(i)` → 2xx count and latency percentiles (ms).
     */
    const burst = async (path, amount, shape = () => ({})) => {
      let next = 0;
      const result = await autocannon({
        url: base + path,
        connections: CONCURRENCY,
        amount,
        ...(RATE > 0 ? { overallRate: RATE } : {}),
        requests: [{ setupRequest: (request) => ({ ...request, ...shape(next++) }) }],
      });
      return {
        ok: result['2xx'],
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
      };
    };

    const health = await burst('/api/health', EVENTS);
    const startedAt = performance.now();
    const webhooks = await burst('/api/billing/stripe-webhook', EVENTS, (index) => {
      const payload = payloads[index % payloads.length];
      return {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature(payload) },
        body: payload,
      };
    });
    const answeredMs = performance.now() - startedAt;
    for (let i = 0; ; i++) {
      const {
        rows: [{ waiting }],
      } = await sql(
        `SELECT count(*)::int AS waiting FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
        [QUEUE],
      );
      if (waiting === 0) break;
      if (i > 1_200) throw new Error(`${waiting} events still waiting after 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const appliedMs = performance.now() - startedAt;
    const {
      rows: [{ recorded }],
    } = await sql('SELECT count(*)::int AS recorded FROM stripe_events');
    const {
      rows: [{ completed, failed }],
    } = await sql(
      `SELECT count(*) FILTER (WHERE state = 'completed')::int AS completed,
            count(*) FILTER (WHERE state = 'failed')::int AS failed
     FROM pgboss.job WHERE name = $1`,
      [QUEUE],
    );
    const ms = (value) => `${value.toFixed(1)} ms`;
    console.log(
      `\n${EVENTS} signed events (${distinct} distinct, ${DUPLICATES} sent twice), ${CONCURRENCY} at a time:`,
    );
    console.log(`  2xx: ${webhooks.ok} of ${EVENTS}`);
    console.log(
      `  latency at the API: p50 ${ms(webhooks.p50)}, p99 ${ms(webhooks.p99)}, max ${ms(webhooks.max)} (target p99 ≤ 50 ms)`,
    );
    console.log(
      `  /api/health, same concurrency, same run: p50 ${ms(health.p50)}, p99 ${ms(health.p99)} → webhook p99 ${(webhooks.p99 / health.p99).toFixed(2)}x health's`,
    );
    console.log(
      `  events recorded: ${recorded} (each distinct event once: ${recorded === distinct})`,
    );
    console.log(
      `  jobs: ${completed} completed, ${failed} failed (one per distinct event: ${completed === distinct})`,
    );
    console.log(
      `  all answered in ${(answeredMs / 1000).toFixed(1)} s; all applied (queue empty) after ${(appliedMs / 1000).toFixed(1)} s`,
    );
    if (webhooks.ok !== EVENTS || recorded !== distinct || completed !== distinct)
      process.exitCode = 1;
  }
} finally {
  await bench.close();
  await proxy.close();
  stripe.child.kill('SIGTERM');
}
