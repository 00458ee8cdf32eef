import Stripe from 'stripe';
import { STRIPE_OPERATIONS } from '../contract/stripe-operations';
import { startStripeSandbox, type RunningStripeSandbox } from './start-sandbox';
import { DEFAULT_API_VERSION } from './stripe-sandbox';
import { TEST_KEY, monthlyPrice, sdkFor } from './testing/sandbox-client';

const NAME = "Zoë O'Brien-Núñez";
const EMAIL = "zoë.o'brien@example.com";

describe('Stripe sandbox: the contract through the official SDK', () => {
  let running: RunningStripeSandbox;
  let stripe: Stripe;

  beforeAll(async () => {
    running = await startStripeSandbox({ webhookRetryDelayMs: 5 });
    stripe = sdkFor(running);
  });
  afterAll(() => running.close());

  it("answers in the pinned SDK's API version", () => {
    expect(DEFAULT_API_VERSION).toBe(Stripe.API_VERSION);
  });

  it('serves one request of every operation in the contract without a refusal, in Stripe shapes', async () => {
    const customer = await stripe.customers.create({
      name: NAME,
      email: EMAIL,
      metadata: { business_id: 'b-1', "o'note": 'Núñez' },
    });
    expect(customer).toMatchObject({
      object: 'customer',
      name: NAME,
      email: EMAIL,
      livemode: false,
    });
    expect(customer.id).toMatch(/^cus_/);
    expect(customer.metadata["o'note"]).toBe('Núñez');
    expect(Math.abs(customer.created - Date.now() / 1000)).toBeLessThan(5);
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({
      id: customer.id,
      name: NAME,
    });
    const byEmail = await stripe.customers.list({ email: EMAIL, limit: 1 });
    expect(byEmail).toMatchObject({ object: 'list', url: '/v1/customers' });
    expect(byEmail.data.map((found) => found.id)).toEqual([customer.id]);
    const credit = await stripe.customers.createBalanceTransaction(customer.id, {
      amount: -2_500,
      currency: 'aud',
      description: 'Referral credit',
      metadata: { grove: 'referrer-reward' },
    });
    expect(credit).toMatchObject({
      object: 'customer_balance_transaction',
      amount: -2_500,
      ending_balance: -2_500,
      customer: customer.id,
      type: 'adjustment',
    });
    expect(credit.id).toMatch(/^cbtxn_/);

    const product = await stripe.products.create({
      name: 'Grove Growth',
      metadata: { plan: 'growth' },
    });
    expect(product.id).toMatch(/^prod_/);
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'aud',
      unit_amount: 4_900,
      recurring: { interval: 'month' },
      lookup_key: 'growth_monthly',
    });
    expect(price).toMatchObject({ object: 'price', unit_amount: 4_900, type: 'recurring' });
    expect(price.id).toMatch(/^price_/);
    const prices = await stripe.prices.list({ product: product.id, active: true, limit: 5 });
    expect(prices).toMatchObject({ object: 'list', has_more: false, url: '/v1/prices' });
    expect(prices.data.map((p) => p.id)).toEqual([price.id]);
    expect((await stripe.prices.list({ lookup_keys: ['growth_monthly'] })).data).toHaveLength(1);

    const coupon = await stripe.coupons.create({
      percent_off: 10,
      duration: 'forever',
      name: 'Referral 10%',
    });
    expect(coupon).toMatchObject({ object: 'coupon', percent_off: 10, valid: true });

    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price.id, quantity: 1 }],
      customer: customer.id,
      client_reference_id: 'business-1',
      metadata: { business_id: 'b-1' },
      success_url: 'https://grove.example/billing/done?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://grove.example/billing',
    });
    expect(session).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      amount_total: 4_900,
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${running.url}/c/pay/${session.id}`);
    const again = await stripe.checkout.sessions.retrieve(session.id, { expand: ['customer'] });
    expect((again.customer as Stripe.Customer).name).toBe(NAME);

    const paid = await fetch(session.url as string, {
      method: 'POST',
      body: new URLSearchParams({ card: '4242 4242 4242 4242' }),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);

    const subscriptions = await stripe.subscriptions.list({
      customer: customer.id,
      expand: ['data.customer'],
    });
    expect(subscriptions.data).toHaveLength(1);
    const [subscription] = subscriptions.data;
    expect(subscription.id).toMatch(/^sub_/);
    expect((subscription.customer as Stripe.Customer).email).toBe(EMAIL);
    expect(subscription.status).toBe('active');
    const item = subscription.items.data[0];
    expect(item.current_period_end).toBeGreaterThan(item.current_period_start);

    const updated = await stripe.subscriptions.update(subscription.id, {
      discounts: [{ coupon: coupon.id }],
      expand: ['discounts'],
    });
    expect((updated.discounts[0] as Stripe.Discount).source.coupon).toBe(coupon.id);
    const retrieved = await stripe.subscriptions.retrieve(subscription.id, {
      expand: ['latest_invoice'],
    });
    expect((retrieved.latest_invoice as Stripe.Invoice).status).toBe('paid');
    const removed = await stripe.subscriptions.update(subscription.id, { discounts: '' });
    expect(removed.discounts).toEqual([]);

    const invoices = await stripe.invoices.list({
      subscription: subscription.id,
      expand: ['data.customer'],
    });
    expect(invoices.data[0]).toMatchObject({
      object: 'invoice',
      status: 'paid',
      amount_paid: 4_900,
    });
    expect(invoices.data[0].id).toMatch(/^in_/);
    const upcoming = await stripe.invoices.createPreview({ subscription: subscription.id });
    expect(upcoming).toMatchObject({ object: 'invoice', subscription: subscription.id });
    expect(upcoming.id).toMatch(/^upcoming_in_/);

    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'https://grove.example/billing',
    });
    expect(portal.id).toMatch(/^bps_/);
    expect(portal.url).toBe(`${running.url}/p/session/${portal.id}`);

    const events = running.sandbox.store.all('event');
    const event = await stripe.events.retrieve(events[0].id);
    expect(event).toMatchObject({ object: 'event', id: events[0].id, livemode: false });
    expect(event.id).toMatch(/^evt_/);

    const served = new Set(
      running.sandbox
        .requests()
        .filter((request) => request.status === 200)
        .map((request) => request.operationId),
    );
    expect([...served].sort()).toEqual(Object.keys(STRIPE_OPERATIONS).sort());
    expect(running.sandbox.requests().filter((request) => request.status !== 200)).toEqual([]);
  });

  it('pages lists newest first with has_more and starting_after', async () => {
    const price = await monthlyPrice(stripe);
    const product = price.product as string;
    const second = await stripe.prices.create({ product, currency: 'aud', unit_amount: 9_900 });
    const first = await stripe.prices.list({ product, limit: 1 });
    expect(first).toMatchObject({ has_more: true });
    expect(first.data[0].id).toBe(second.id);
    const next = await stripe.prices.list({ product, limit: 1, starting_after: second.id });
    expect(next.data[0].id).toBe(price.id);
    expect(next.has_more).toBe(false);
  });

  it('echoes Stripe-Version and records it', async () => {
    const reply = await fetch(`${running.url}/v1/prices?limit=1`, {
      headers: { Authorization: `Bearer ${TEST_KEY}`, 'Stripe-Version': '2025-03-31.basil' },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('stripe-version')).toBe('2025-03-31.basil');
    expect(running.sandbox.requests().at(-1)?.stripeVersion).toBe('2025-03-31.basil');
    const plain = await fetch(`${running.url}/v1/prices`, {
      headers: { Authorization: `Bearer ${TEST_KEY}` },
    });
    expect(plain.headers.get('stripe-version')).toBe(DEFAULT_API_VERSION);
  });
});
