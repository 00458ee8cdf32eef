import Stripe from 'stripe';
import { cardOutcome } from './card-number';
import { TEST_CARD } from './hosted-pages';
import { startStripeSandbox, type RunningStripeSandbox } from './start-sandbox';
import { monthlyPrice, sdkFor } from './testing/sandbox-client';
import { startWebhookReceiver, type WebhookReceiver } from './testing/webhook-receiver';

const SECRET = 'whsec_pages_secret';
const NAME = "Zoë O'Brien-Núñez";
const EMAIL = "zoë.o'brien@example.com";

describe('Stripe sandbox: hosted Checkout and Customer Portal pages', () => {
  let running: RunningStripeSandbox;
  let receiver: WebhookReceiver;
  let stripe: Stripe;

  const types = () => receiver.received.map((r) => r.type);
  const newSession = async (extra: Partial<Stripe.Checkout.SessionCreateParams> = {}) => {
    const price = await monthlyPrice(stripe, 4_900);
    return stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price.id, quantity: 1 }],
      client_reference_id: 'business-42',
      metadata: { business_id: '42' },
      success_url: 'https://grove.example/billing/done?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://grove.example/billing',
      ...extra,
    });
  };
  const pay = (url: string, fields: Record<string, string>) =>
    fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    running = await startStripeSandbox({
      webhookEndpoints: [{ url: receiver.url, secret: SECRET }],
      webhookRetryDelayMs: 5,
    });
    stripe = sdkFor(running);
  });
  afterAll(async () => {
    await running.close();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
  });

  it('shows the amount, a prefilled test card and a Pay button; paying creates customer, active subscription and paid invoice, then 303 to success_url', async () => {
    const session = await newSession({ customer_email: EMAIL });
    const page = await fetch(session.url as string);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('A$49.00');
    expect(html).toContain(`value="${TEST_CARD}"`);
    expect(html).toMatch(/<button type="submit">Pay/);
    expect(html).toContain('width=device-width');
    expect(html).not.toContain('<script');
    expect(html).toContain('o&#39;brien@example.com');

    const reply = await pay(session.url as string, { card: TEST_CARD, name: NAME });
    expect(reply.status).toBe(303);
    expect(reply.headers.get('location')).toBe(
      `https://grove.example/billing/done?session=${session.id}`,
    );

    const done = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ['subscription', 'customer'],
    });
    expect(done).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: 'business-42',
    });
    const customer = done.customer as Stripe.Customer;
    expect(customer).toMatchObject({ email: EMAIL, name: NAME });
    const subscription = done.subscription as Stripe.Subscription;
    expect(subscription.status).toBe('active');
    const item = subscription.items.data[0];
    expect(item.current_period_start).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(28 * 86_400);
    const invoices = await stripe.invoices.list({ customer: customer.id });
    expect(invoices.data).toEqual([
      expect.objectContaining({ status: 'paid', amount_paid: 4_900, customer_name: NAME }),
    ]);

    await running.sandbox.webhooks.idle();
    expect(types()).toEqual(
      expect.arrayContaining([
        'customer.created',
        'customer.subscription.created',
        'invoice.paid',
        'checkout.session.completed',
      ]),
    );
    const completed = receiver.received.find((r) => r.type === 'checkout.session.completed');
    const event = stripe.webhooks.constructEvent(
      completed?.body ?? '',
      completed?.signature ?? '',
      SECRET,
    );
    expect(event.data.object).toMatchObject({
      id: session.id,
      subscription: subscription.id,
      metadata: { business_id: '42' },
    });

    // A paid session's page is gone; paying again changes nothing.
    expect((await fetch(session.url as string)).status).toBe(410);
    expect((await pay(session.url as string, { card: TEST_CARD })).status).toBe(410);
  });

  it('re-shows the page for a declined or invalid card and a missing email, without paying', async () => {
    const session = await newSession();
    const declined = await pay(session.url as string, {
      email: 'a@example.com',
      card: '4000 0000 0000 0002',
    });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect(
      (await pay(session.url as string, { email: 'a@example.com', card: '4242 4242 4242 4241' }))
        .status,
    ).toBe(400);
    expect((await pay(session.url as string, { card: TEST_CARD })).status).toBe(400);
    expect((await pay(session.url as string, { card: TEST_CARD, 'x[y]': 'z' })).status).toBe(400);
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    expect((await fetch(`${running.url}/c/pay/cs_test_unknown`)).status).toBe(404);
  });

  it('shows the portal (plan, status, next charge, invoices, return link) and cancels at period end, then ends', async () => {
    const session = await newSession({ customer_email: 'portal@example.com' });
    await pay(session.url as string, { card: TEST_CARD });
    const { customer, subscription } = await stripe.checkout.sessions.retrieve(session.id);
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer as string,
      return_url: 'https://grove.example/billing',
    });
    const html = await (await fetch(portal.url)).text();
    expect(html).toContain('Grove Growth');
    expect(html).toContain('<strong>active</strong>');
    expect(html).toMatch(/Next charge A\$49\.00 on /);
    expect(html).toContain('href="https://grove.example/billing"');
    expect(html).toContain('Cancel subscription');
    expect(html).toContain('paid');

    await running.sandbox.webhooks.idle();
    receiver.received.length = 0;
    const cancel = await fetch(`${portal.url}/cancel`, {
      method: 'POST',
      body: new URLSearchParams({ subscription: subscription as string }),
      redirect: 'manual',
    });
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get('location')).toBe(portal.url);
    const cancelling = await stripe.subscriptions.retrieve(subscription as string);
    expect(cancelling).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(cancelling.cancel_at).toBe(cancelling.items.data[0].current_period_end);
    expect(await (await fetch(portal.url)).text()).toMatch(/Cancels on /);

    await fetch(`${running.controlUrl}/subscriptions/${subscription as string}/end_period`, {
      method: 'POST',
    });
    expect((await stripe.subscriptions.retrieve(subscription as string)).status).toBe('canceled');
    await running.sandbox.webhooks.idle();
    expect(types()).toEqual(['customer.subscription.updated', 'customer.subscription.deleted']);
    const updated = stripe.webhooks.constructEvent(
      receiver.received[0].body,
      receiver.received[0].signature,
      SECRET,
    );
    expect(updated.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });

    const other = await stripe.customers.create({ name: 'Other' });
    const otherPortal = await stripe.billingPortal.sessions.create({ customer: other.id });
    const foreign = await fetch(`${otherPortal.url}/cancel`, {
      method: 'POST',
      body: new URLSearchParams({ subscription: subscription as string }),
      redirect: 'manual',
    });
    expect(foreign.status).toBe(404);
  });

  it('a past_due subscription: the portal asks for a new card; a declined card pays nothing, a good one pays the open invoice and the subscription is active again', async () => {
    const session = await newSession({ customer_email: 'renewal@example.com' });
    await pay(session.url as string, { card: TEST_CARD });
    const { customer, subscription } = await stripe.checkout.sessions.retrieve(session.id);
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer as string,
      return_url: 'https://grove.example/billing',
    });
    expect(await (await fetch(portal.url)).text()).not.toContain('Update card');
    await fetch(`${running.controlUrl}/subscriptions/${subscription as string}/fail_next_payment`, {
      method: 'POST',
    });
    const html = await (await fetch(portal.url)).text();
    expect(html).toContain('<strong>past_due</strong>');
    expect(html).toContain('Your last payment of A$49.00 failed.');
    expect(html).toContain(`value="${TEST_CARD}"`);
    expect(html).toContain('Update card and pay A$49.00');
    const updateCard = (fields: Record<string, string>) =>
      fetch(`${portal.url}/payment_method`, {
        method: 'POST',
        body: new URLSearchParams({ subscription: subscription as string, ...fields }),
        redirect: 'manual',
      });

    const declined = await updateCard({ card: '4000 0000 0000 0002' });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect((await updateCard({ card: '4242 4242 4242 4241' })).status).toBe(400);
    expect((await stripe.subscriptions.retrieve(subscription as string)).status).toBe('past_due');

    await running.sandbox.webhooks.idle();
    receiver.received.length = 0;
    const paid = await updateCard({ card: TEST_CARD });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(portal.url);
    expect((await stripe.subscriptions.retrieve(subscription as string)).status).toBe('active');
    const invoices = await stripe.invoices.list({ subscription: subscription as string });
    expect(invoices.data.map((invoice) => invoice.status)).toEqual(['paid', 'paid']);
    await running.sandbox.webhooks.idle();
    expect(types()).toEqual(['invoice.paid', 'customer.subscription.updated']);
    expect(await (await fetch(portal.url)).text()).not.toContain('Update card');

    const other = await stripe.customers.create({ name: 'Other' });
    const otherPortal = await stripe.billingPortal.sessions.create({ customer: other.id });
    const foreign = await fetch(`${otherPortal.url}/payment_method`, {
      method: 'POST',
      body: new URLSearchParams({ subscription: subscription as string, card: TEST_CARD }),
      redirect: 'manual',
    });
    expect(foreign.status).toBe(404);
  });

  it('reads test cards as Stripe does (Luhn, decline cards)', () => {
    expect(cardOutcome('4242 4242 4242 4242')).toBe('succeeds');
    expect(cardOutcome('4000-0000-0000-0002')).toBe('declined');
    expect(cardOutcome('4242 4242 4242 4243')).toBe('invalid');
    expect(cardOutcome('abc')).toBe('invalid');
  });
});
