// Helpers of the billing tests (issue 30): an in-process Stripe stand-in wired to a listening
// test API, and the referral loop that makes members arrive through Grove.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type TestAgent from 'supertest/lib/agent';
import type { Page } from '@grove/contracts';
import { startSmtpCatcher, type SmtpCatcher } from '@grove/testing-smtp';
// The API's tests drive the Stripe stand-in in-process, as they do Mindbody's; the API code
// itself never imports it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import {
  startStripeSandbox,
  stripeSignatureHeader,
  TEST_CARD,
  type RunningStripeSandbox,
} from '../../stripe-sandbox/src/index';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { sdkFor, TEST_KEY } from '../../stripe-sandbox/src/app/testing/sandbox-client';
import { createTestApp, type TestApp } from './test-app';
import { waitFor } from './stub-servers';

/** The webhook endpoint's signing secret every billing test API is given. */
export const TEST_WEBHOOK_SECRET = 'whsec_grove0billing0test0secret';

/** A test API billing on a Stripe stand-in, with a real SMTP server for the owner's emails. */
export interface BillingTestBed {
  t: TestApp;
  stripe: RunningStripeSandbox;
  smtp: SmtpCatcher;
  /** The plan's price in the stand-in ($99 a month, USD). */
  priceId: string;
  close(): Promise<void>;
}

/**
 * Starts the stand-in, creates Grove's plan in it ($99/month USD), boots a test API billing on
 * it (listening, so the stand-in's webhooks reach `POST /api/billing/stripe-webhook`) and
 * registers that endpoint.
 * @param env more environment for the API (e.g. BILLING_GRACE_DAYS)
 */
export async function startBillingTestBed(
  env: Record<string, string> = {},
): Promise<BillingTestBed> {
  const stripe = await startStripeSandbox({ webhookRetryDelayMs: 20 });
  const billing = await stripeBillingEnv(stripe);
  const smtp = await startSmtpCatcher();
  const t = await createTestApp({
    SMTP_URL: smtp.url,
    PUBLIC_ORIGIN: 'https://grove.example.com',
    ...billing,
    THROTTLE_REFERRAL_LIMIT: '1000',
    ...env,
  });
  const server = t.app.getHttpServer() as import('node:http').Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await fetch(`${stripe.controlUrl}/webhook_endpoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      url: `http://127.0.0.1:${port}/api/billing/stripe-webhook`,
      secret: TEST_WEBHOOK_SECRET,
    }),
  });
  return {
    t,
    stripe,
    smtp,
    priceId: billing.STRIPE_PRICES.slice('usd:'.length),
    async close() {
      await t.close();
      await stripe.close();
      await smtp.close();
    },
  };
}

/**
 * Creates Grove's plan in the stand-in ($99 a month, USD) and returns the configuration that
 * bills on it (key, webhook secret, price, the stand-in's URL).
 */
export async function stripeBillingEnv(stripe: RunningStripeSandbox) {
  const sdk = sdkFor(stripe);
  const product = await sdk.products.create({ name: 'Grove' });
  const price = await sdk.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 9_900,
    recurring: { interval: 'month' },
  });
  return {
    STRIPE_SECRET_KEY: TEST_KEY,
    STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    STRIPE_PRICES: `usd:${price.id}`,
    STRIPE_API_URL: stripe.url,
  };
}

export { startStripeSandbox, type RunningStripeSandbox };
export { sdkFor, TEST_CARD, stripeSignatureHeader };

let friends = 0;

/**
 * Members arriving through Grove: for each name, a friend joins through `referrerId`'s referral
 * link and the owner approves them (docs/product.md#billing counts these).
 * @returns the approve replies' statuses, in order (201, or 402 once paused)
 */
export async function approveFriends(
  owner: TestAgent,
  t: TestApp,
  referrerId: string,
  names: readonly string[],
): Promise<number[]> {
  const link = (await owner.post(`/api/members/${referrerId}/referral-link`)).body as {
    code: string;
  };
  const statuses: number[] = [];
  for (const name of names) {
    friends += 1;
    const email = `friend${friends}.${process.pid}@example.com`;
    await t.agent().post(`/api/referrals/${link.code}/join`).send({ name, email }).expect(201);
    const page = (await owner.get('/api/prospects?pageSize=100').expect(200)).body as Page<{
      id: string;
      email: string;
    }>;
    const prospect = page.items.find((item) => item.email === email);
    if (!prospect) throw new Error(`${email} was not queued`);
    const reply = await owner.post(`/api/prospects/${prospect.id}/approve`).send({
      memberName: name,
      memberEmail: email,
      membershipPriceCents: 6_000,
      discountCents: 1_000,
    });
    statuses.push(reply.status);
  }
  return statuses;
}

/** A finished Stripe member run as `GET /api/stripe-members` reports it (`run`). */
export interface FinishedStripeRun {
  kind: 'import' | 'sync';
  state: 'done' | 'failed';
  done: number;
  total: number | null;
  listed: number | null;
  membersWritten: number | null;
  ended: number | null;
  billsWritten: number | null;
  error: string | null;
}

/**
 * Starts a Stripe member import (`POST /api/stripe-members/import`) or confirmed sync
 * (`POST /api/stripe-members/sync` with `body`) — 202, a background job — and waits until its run
 * has finished (issue 32). @returns the finished run ('done' or 'failed')
 */
export async function stripeRun(
  owner: TestAgent,
  kind: 'import' | 'sync',
  body?: object,
  timeoutMs = 120_000,
): Promise<FinishedStripeRun> {
  const started = await owner.post(`/api/stripe-members/${kind}`).send(body ?? {});
  if (started.status !== 202)
    throw new Error(`${kind}: ${started.status} ${JSON.stringify(started.body)}`);
  return waitFor(async () => {
    const run = (await owner.get('/api/stripe-members').expect(200)).body.run as {
      state: string;
    } | null;
    return run && run.state !== 'running' ? (run as FinishedStripeRun) : null;
  }, timeoutMs);
}

/** A proxy in front of the Stripe stand-in (`delayingStripeProxy`). */
export interface DelayingStripeProxy {
  /** The proxy's origin: the API's STRIPE_API_URL. */
  url: string;
  /** Requests matching `match` (`METHOD /path`, no query) are held back `ms` before they go on. */
  delay: { match: RegExp | null; ms: number };
  /** Every request seen, as `METHOD /path` (no query), in order of arrival. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * A proxy in front of `target` (the stand-in) that forwards every request as is, after holding
 * back those `delay.match` selects by `delay.ms`: Stripe being slow, or a write kept in flight
 * while something else runs (issue 32). `accounts` sends the requests made with one of its keys
 * (`Authorization: Bearer <key>`) to that key's stand-in instead: one stand-in is one Stripe
 * account, so two gyms with accounts of their own need two.
 */
export async function delayingStripeProxy(
  target: string,
  accounts: Record<string, string> = {},
): Promise<DelayingStripeProxy> {
  const seen: string[] = [];
  const delay: DelayingStripeProxy['delay'] = { match: null, ms: 0 };
  const server = http.createServer((request, response) => {
    const line = `${request.method} ${(request.url ?? '').split('?')[0]}`;
    seen.push(line);
    const forward = () => {
      const key = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      const upstream = http.request(
        `${accounts[key] ?? target}${request.url}`,
        { method: request.method, headers: request.headers },
        (reply) => {
          response.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(response);
        },
      );
      upstream.on('error', () => response.destroy());
      request.pipe(upstream);
    };
    if (delay.match?.test(line) && delay.ms > 0) setTimeout(forward, delay.ms).unref();
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    delay,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
