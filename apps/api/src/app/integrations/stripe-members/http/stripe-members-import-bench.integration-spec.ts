// A measurement, skipped unless BENCH_STRIPE_CUSTOMERS is set (the gate does not run it): the Stripe member
// import of 10,000 customers against the stand-in on the real PostgreSQL, beside the fetch floor
// (the same pages through the SDK alone), and the Stripe calls of a sync with nothing to change.
// docs/decisions/stripe-member-billing.md has the figures. Run:
//   BENCH_STRIPE_CUSTOMERS=10000 npx jest -c apps/api/jest.integration.config.cjs stripe-members-import-bench
import { createTestApp } from '../../../../../test/test-app';
import { sdkFor, startStripeSandbox, stripeRun } from '../../../../../test/stripe-sandbox';

jest.setTimeout(600_000);

const KEY = 'rk_test_bench_gym';
const CUSTOMERS = Number(process.env.BENCH_STRIPE_CUSTOMERS ?? 0);

(CUSTOMERS > 0 ? it : it.skip)(
  `imports ${CUSTOMERS} Stripe customers with active subscriptions`,
  async () => {
    const stripe = await startStripeSandbox({
      restrictedKeys: {
        [KEY]: { customer: 'read', subscription: 'write', coupon: 'write', invoice: 'read' },
      },
    });
    await fetch(`${stripe.controlUrl}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: CUSTOMERS, seed: 'bench', amount: 4_900 }),
    });
    const t = await createTestApp({ STRIPE_API_URL: stripe.url });
    try {
      const owner = (await t.signUp({ businessName: 'Bench Gym' })).agent;
      await owner.put('/api/stripe-members/credentials').send({ apiKey: KEY }).expect(200);

      const sdk = sdkFor(stripe, KEY);
      let fetchMs = Date.now();
      let after: string | undefined;
      for (;;) {
        const page = await sdk.subscriptions.list({
          status: 'active',
          limit: 100,
          expand: ['data.customer'],
          ...(after ? { starting_after: after } : {}),
        });
        if (!page.has_more) break;
        after = page.data.at(-1)?.id;
      }
      fetchMs = Date.now() - fetchMs;

      const calls = stripe.sandbox.requests().length;
      let firstMs = Date.now();
      const first = await stripeRun(owner, 'import', undefined, 600_000);
      firstMs = Date.now() - firstMs;
      const importCalls = stripe.sandbox.requests().length - calls;
      let againMs = Date.now();
      const again = await stripeRun(owner, 'import', undefined, 600_000);
      againMs = Date.now() - againMs;

      await owner
        .put('/api/stripe-members/discounts')
        .send({ discountOnReferralCents: 1_000 })
        .expect(200);
      const beforeSync = stripe.sandbox.requests().length;
      const preview = await owner.get('/api/stripe-members/sync/preview').expect(200);
      await stripeRun(owner, 'sync', {
        confirm: (preview.body as { fingerprint: string }).fingerprint,
      });
      const syncCalls = stripe.sandbox.requests().length - beforeSync;

      console.log(
        JSON.stringify({
          customers: CUSTOMERS,
          fetchFloorMs: fetchMs,
          firstImportMs: firstMs,
          firstImportVsFetch: Number((firstMs / fetchMs).toFixed(2)),
          importStripeCalls: importCalls,
          unchangedImportMs: againMs,
          unchangedImportVsFetch: Number((againMs / fetchMs).toFixed(2)),
          membersWritten: [first.membersWritten, again.membersWritten],
          unchangedSyncStripeCalls: syncCalls,
        }),
      );
      expect(first.listed).toBe(CUSTOMERS);
      expect(again.membersWritten).toBe(0);
    } finally {
      await t.close();
      await stripe.close();
    }
  },
);
