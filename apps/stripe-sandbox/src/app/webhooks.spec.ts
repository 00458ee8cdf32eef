import Stripe from 'stripe';
import { startStripeSandbox, type RunningStripeSandbox } from './start-sandbox';
import { monthlyPrice, sdkFor } from './testing/sandbox-client';
import { startWebhookReceiver, type WebhookReceiver } from './testing/webhook-receiver';
import { stripeSignatureHeader } from './webhook-signature';

const SECRET = 'whsec_grove_test_secret';

describe('Stripe sandbox: webhooks signed as Stripe signs them', () => {
  let running: RunningStripeSandbox;
  let receiver: WebhookReceiver;
  let stripe: Stripe;

  const control = async (path: string, body: unknown = {}) => {
    const reply = await fetch(`${running.controlUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
  };
  const idle = () => running.sandbox.webhooks.idle();
  /** A customer with an active subscription, paid through the hosted Checkout page. */
  const subscribed = async () => {
    const price = await monthlyPrice(stripe);
    const customer = await stripe.customers.create({ name: "Zoë O'Brien-Núñez" });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'https://grove.example/done',
    });
    await fetch(session.url as string, {
      method: 'POST',
      body: new URLSearchParams({ card: '4242424242424242' }),
      redirect: 'manual',
    });
    const [subscription] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    await idle();
    return subscription;
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    running = await startStripeSandbox({
      webhookEndpoints: [{ url: receiver.url, secret: SECRET }],
      webhookRetryDelayMs: 10,
      webhookAttempts: 3,
    });
    stripe = sdkFor(running);
  });
  afterAll(async () => {
    await running.close();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.nextStatuses.length = 0;
    running.sandbox.webhooks.clearDeliveries();
  });

  it("signs each delivery so the SDK's constructEvent verifies it, and refuses a forged one", async () => {
    const customer = await stripe.customers.create({
      name: "Zoë O'Brien-Núñez",
      email: 'zoe@example.com',
    });
    await idle();
    const [delivery] = receiver.received;
    expect(delivery.signature).toMatch(/^t=[0-9]+,v1=[0-9a-f]{64}$/);
    const event = stripe.webhooks.constructEvent(delivery.body, delivery.signature, SECRET);
    expect(event).toMatchObject({
      type: 'customer.created',
      object: 'event',
      livemode: false,
      pending_webhooks: 1,
    });
    expect((event.data.object as Stripe.Customer).name).toBe("Zoë O'Brien-Núñez");
    expect((event.data.object as Stripe.Customer).id).toBe(customer.id);
    expect(() =>
      stripe.webhooks.constructEvent(delivery.body, delivery.signature, 'whsec_other'),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    const forged = delivery.body.replace('zoe@example.com', 'mallory@example.com');
    expect(() => stripe.webhooks.constructEvent(forged, delivery.signature, SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    const stale = stripeSignatureHeader(
      delivery.body,
      SECRET,
      Math.floor(Date.now() / 1000) - 3_600,
    );
    expect(() => stripe.webhooks.constructEvent(delivery.body, stale, SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    // The same event is retrievable with GetEventsId.
    expect((await stripe.events.retrieve(event.id)).type).toBe('customer.created');
  });

  it('matches the SDK’s own test header for the same timestamp', () => {
    const payload = '{"id":"evt_1"}';
    const timestamp = 1_700_000_000;
    expect(stripeSignatureHeader(payload, SECRET, timestamp)).toBe(
      stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp }),
    );
  });

  it('retries a delivery the receiver answered with 500, then records it delivered', async () => {
    receiver.nextStatuses.push(500, 503);
    await stripe.customers.create({ name: 'Retry' });
    await idle();
    expect(receiver.received.map((r) => r.type)).toEqual([
      'customer.created',
      'customer.created',
      'customer.created',
    ]);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    expect(running.sandbox.webhooks.deliveries()).toEqual([
      expect.objectContaining({
        eventType: 'customer.created',
        state: 'delivered',
        attempts: 3,
        lastStatus: 200,
      }),
    ]);
  });

  it('gives up after the configured attempts when the endpoint is down, and retries a network error', async () => {
    const down = await startWebhookReceiver();
    await down.close();
    const { body } = await control('/webhook_endpoints', { url: down.url, secret: 'whsec_down' });
    expect(body).toMatchObject({ url: down.url, secret: 'whsec_down' });
    await stripe.customers.create({ name: 'Down' });
    await idle();
    const records = running.sandbox.webhooks
      .deliveries()
      .filter((record) => record.url === down.url);
    expect(records).toEqual([
      expect.objectContaining({ state: 'failed', attempts: 3, lastStatus: null }),
    ]);
    running.sandbox.webhooks.clearEndpoints();
    running.sandbox.webhooks.addEndpoint({ url: receiver.url, secret: SECRET });
  });

  it('delivers an event twice and a batch out of order on demand', async () => {
    const first = await stripe.customers.create({ name: 'First' });
    const second = await stripe.customers.create({ name: 'Second' });
    await idle();
    const events = running.sandbox.store.all('event').slice(0, 2).reverse();
    expect(events.map((event) => (event.data.object as { id: string }).id)).toEqual([
      first.id,
      second.id,
    ]);
    receiver.received.length = 0;

    expect((await control(`/events/${events[0].id}/deliver`, { times: 2 })).status).toBe(200);
    await idle();
    expect(receiver.received.map((r) => r.id)).toEqual([events[0].id, events[0].id]);
    for (const copy of receiver.received)
      expect(stripe.webhooks.constructEvent(copy.body, copy.signature, SECRET).id).toBe(
        events[0].id,
      );

    receiver.received.length = 0;
    const batch = await control('/events/deliver', { ids: events.map((event) => event.id) });
    expect(batch.body.delivered).toEqual([events[1].id, events[0].id]);
    await idle();
    expect(receiver.received.map((r) => r.id).sort()).toEqual(
      events.map((event) => event.id).sort(),
    );
    expect((await control('/events/evt_nope/deliver')).status).toBe(404);
    expect((await control('/events/deliver', { ids: [] })).status).toBe(400);
  });

  it('fails the next payment (invoice.payment_failed, past_due) and pays the open invoice (invoice.paid, active)', async () => {
    const subscription = await subscribed();
    receiver.received.length = 0;
    const failed = await control(`/subscriptions/${subscription.id}/fail_next_payment`);
    expect(failed.body).toMatchObject({
      object: 'invoice',
      status: 'open',
      attempt_count: 1,
      billing_reason: 'subscription_cycle',
    });
    await idle();
    expect(receiver.received.map((r) => r.type)).toEqual(
      expect.arrayContaining(['invoice.payment_failed', 'customer.subscription.updated']),
    );
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');
    const open = await stripe.invoices.list({ subscription: subscription.id, status: 'open' });
    expect(open.data.map((invoice) => invoice.id)).toEqual([failed.body.id]);

    receiver.received.length = 0;
    const paid = await control(`/invoices/${String(failed.body.id)}/pay`);
    expect(paid.body).toMatchObject({ status: 'paid', amount_remaining: 0 });
    await idle();
    expect(receiver.received.map((r) => r.type)).toEqual([
      'invoice.paid',
      'customer.subscription.updated',
    ]);
    const updated = stripe.webhooks.constructEvent(
      receiver.received[1].body,
      receiver.received[1].signature,
      SECRET,
    );
    expect(updated.data.previous_attributes).toEqual({ status: 'past_due' });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
    expect((await control(`/invoices/${String(failed.body.id)}/pay`)).status).toBe(400);
  });

  it('writes a member discount with the subscription update and bills the next period with it', async () => {
    const subscription = await subscribed();
    const coupon = await stripe.coupons.create({ percent_off: 25, duration: 'forever' });
    receiver.received.length = 0;
    await stripe.subscriptions.update(subscription.id, { discounts: [{ coupon: coupon.id }] });
    await control(`/subscriptions/${subscription.id}/end_period`);
    await idle();
    expect(receiver.received.map((r) => r.type)).toContain('customer.subscription.updated');
    const [latest] = (await stripe.invoices.list({ subscription: subscription.id, limit: 1 })).data;
    expect(latest).toMatchObject({
      status: 'paid',
      subtotal: 4_900,
      total: 3_675,
      billing_reason: 'subscription_cycle',
    });
  });
});
