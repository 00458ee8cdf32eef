import Stripe from 'stripe';
import { startStripeSandbox, type RunningStripeSandbox } from './start-sandbox';
import { sdkFor } from './testing/sandbox-client';

/** The restricted key docs/decisions/stripe-member-billing.md asks a gym for. */
const GYM_KEY = 'rk_test_gym_renee';
/** A restricted key without Coupons or Customers. */
const NARROW_KEY = 'rk_test_subscriptions_only';

describe("Stripe sandbox: a gym's member billing through a restricted key", () => {
  let running: RunningStripeSandbox;
  let gym: Stripe;

  const seed = async (body: Record<string, unknown>) => {
    const reply = await fetch(`${running.controlUrl}/members`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(reply.status).toBe(200);
    return (await reply.json()) as Stripe.Subscription & { subscriptions?: string[] };
  };
  const refusal = async (promise: Promise<unknown>) => {
    const error = (await promise.then(
      () => undefined,
      (cause: unknown) => cause,
    )) as InstanceType<typeof Stripe.errors.StripeError> | undefined;
    expect(error).toBeInstanceOf(Stripe.errors.StripeError);
    return error as InstanceType<typeof Stripe.errors.StripeError>;
  };

  beforeAll(async () => {
    running = await startStripeSandbox({
      restrictedKeys: {
        [GYM_KEY]: { customer: 'read', subscription: 'write', coupon: 'write', invoice: 'read' },
        [NARROW_KEY]: { subscription: 'read' },
      },
    });
    gym = sdkFor(running, GYM_KEY);
  });
  afterAll(() => running.close());

  it('lists the active subscriptions with their customers, page by page', async () => {
    await seed({
      email: 'zoë.o’brien@example.com',
      name: 'Zoë O’Brien',
      amount: 6_500,
      currency: 'usd',
    });
    await seed({ count: 4, seed: 'list', amount: 4_900 });
    const canceled = await seed({ email: 'gone@example.com', name: 'Gone', amount: 3_000 });
    await fetch(`${running.controlUrl}/subscriptions/${canceled.id}/cancel`, { method: 'POST' });

    const seen: Stripe.Subscription[] = [];
    let startingAfter: string | undefined;
    for (;;) {
      const page = await gym.subscriptions.list({
        status: 'active',
        limit: 2,
        expand: ['data.customer'],
        ...(startingAfter ? { starting_after: startingAfter } : {}),
      });
      seen.push(...page.data);
      if (!page.has_more) break;
      startingAfter = page.data[page.data.length - 1].id;
    }
    expect(seen).toHaveLength(5);
    expect(seen.every((subscription) => subscription.status === 'active')).toBe(true);
    const zoe = seen.find(
      (subscription) => (subscription.customer as Stripe.Customer).name === 'Zoë O’Brien',
    );
    expect(zoe?.currency).toBe('usd');
    expect(zoe?.items.data[0].price.unit_amount).toBe(6_500);
  });

  it("refuses what a restricted key's permissions do not allow with Stripe's 403", async () => {
    const narrow = sdkFor(running, NARROW_KEY);
    await expect(narrow.subscriptions.list({ status: 'active' })).resolves.toBeDefined();

    const coupon = await refusal(
      narrow.coupons.create({ amount_off: 500, currency: 'aud', duration: 'forever' }),
    );
    expect(coupon).toBeInstanceOf(Stripe.errors.StripePermissionError);
    expect(coupon.statusCode).toBe(403);
    expect(coupon.type).toBe('StripePermissionError');
    expect(coupon.message).toContain("Having the 'rak_coupon_write' permission");
    expect(coupon.message).toContain("on account 'acct_grove_sandbox'");
    expect(coupon.message).not.toContain('subscriptions_only');

    const expanded = await refusal(
      narrow.subscriptions.list({ status: 'active', expand: ['data.customer'] }),
    );
    expect(expanded.statusCode).toBe(403);
    expect(expanded.message).toContain("'rak_customer_read'");

    const write = await refusal(gym.customers.create({ email: 'new@example.com' }));
    expect(write.statusCode).toBe(403);
    expect(write.message).toContain("'rak_customer_write'");

    const wrongKey = await refusal(sdkFor(running, 'rk_test_unknown').subscriptions.list());
    expect(wrongKey.statusCode).toBe(401);
  });

  it('writes an amount_off forever coupon into the subscription and takes it off again', async () => {
    const member = await seed({ email: 'amélie@example.com', name: 'Amélie', amount: 5_000 });
    const missing = await refusal(gym.coupons.create({ amount_off: 500, duration: 'forever' }));
    expect(missing.statusCode).toBe(400);
    expect(missing.code).toBe('parameter_missing');
    expect(missing.param).toBe('currency');
    const twoKinds = await refusal(
      gym.coupons.create({
        amount_off: 500,
        percent_off: 10,
        currency: 'aud',
        duration: 'forever',
      }),
    );
    expect(twoKinds.statusCode).toBe(400);

    const coupon = await gym.coupons.create({
      amount_off: 1_500,
      currency: 'aud',
      duration: 'forever',
      name: 'Grove referrals',
    });
    expect(coupon).toMatchObject({ amount_off: 1_500, currency: 'aud', duration: 'forever' });

    const before = await gym.invoices.createPreview({ subscription: member.id });
    expect(before.id.startsWith('upcoming_in_')).toBe(true);
    expect(before.total).toBe(5_000);

    const updated = await gym.subscriptions.update(member.id, {
      discounts: [{ coupon: coupon.id }],
    });
    expect(updated.discounts).toHaveLength(1);
    const after = await gym.invoices.createPreview({ subscription: member.id });
    expect(after.total).toBe(3_500);
    expect(after.next_payment_attempt).toBe(updated.items.data[0].current_period_end);

    const gymsOwn = await gym.coupons.create({ percent_off: 10, duration: 'forever' });
    const both = await gym.subscriptions.update(member.id, {
      discounts: [{ discount: updated.discounts[0] as string }, { coupon: gymsOwn.id }],
    });
    expect(both.discounts[0]).toBe(updated.discounts[0]);
    expect(both.discounts).toHaveLength(2);
    const other = await seed({ email: 'other@example.com', name: 'Other', amount: 5_000 });
    const foreign = await refusal(
      gym.subscriptions.update(other.id, {
        discounts: [{ discount: both.discounts[0] as string }],
      }),
    );
    expect(foreign.param).toBe('discounts[0][discount]');

    await gym.subscriptions.update(member.id, { discounts: '' });
    expect((await gym.invoices.createPreview({ subscription: member.id })).total).toBe(5_000);
  });

  it('replays a write sent again with its Idempotency-Key, and refuses the key with other parameters', async () => {
    const first = await gym.coupons.create(
      { amount_off: 700, currency: 'aud', duration: 'forever' },
      { idempotencyKey: 'grove-coupon-700-aud' },
    );
    const again = await gym.coupons.create(
      { amount_off: 700, currency: 'aud', duration: 'forever' },
      { idempotencyKey: 'grove-coupon-700-aud' },
    );
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    const other = await refusal(
      gym.coupons.create(
        { amount_off: 800, currency: 'aud', duration: 'forever' },
        { idempotencyKey: 'grove-coupon-700-aud' },
      ),
    );
    expect(other.type).toBe('StripeIdempotencyError');
  });

  it('has no upcoming invoice for a canceled subscription', async () => {
    const member = await seed({ email: 'leaving@example.com', name: 'Léa', amount: 4_000 });
    await fetch(`${running.controlUrl}/subscriptions/${member.id}/cancel`, { method: 'POST' });
    const none = await refusal(gym.invoices.createPreview({ subscription: member.id }));
    expect(none.statusCode).toBe(404);
    expect(none.code).toBe('invoice_upcoming_none');
    const neither = await refusal(gym.invoices.createPreview({}));
    expect(neither.code).toBe('parameter_missing');
  });

  it('makes a restricted key on request, as the Dashboard does, holding exactly the permissions asked for', async () => {
    const create = (permissions: unknown) =>
      fetch(`${running.controlUrl}/restricted_keys`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ permissions }),
      });
    for (const bad of [undefined, {}, { charge: 'read' }, { customer: 'admin' }]) {
      const refused = await create(bad);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
        /permissions|Unknown resource|read or write/,
      );
    }
    const reply = await create({ subscription: 'read', customer: 'read' });
    expect(reply.status).toBe(200);
    const { id } = (await reply.json()) as { id: string };
    expect(id).toMatch(/^rk_test_[A-Za-z0-9]{24}$/);
    const made = sdkFor(running, id);
    await expect(made.subscriptions.list({ limit: 1 })).resolves.toBeDefined();
    const refused = await refusal(
      made.coupons.create({ amount_off: 100, currency: 'aud', duration: 'forever' }),
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.message).toContain("'rak_coupon_write'");
  });

  it('deletes a webhook endpoint: no more deliveries to it', async () => {
    const control = (path: string, method: string, body?: unknown) =>
      fetch(`${running.controlUrl}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const added = (await (
      await control('/webhook_endpoints', 'POST', { url: 'http://127.0.0.1:9/hooks' })
    ).json()) as { id: string };
    expect((await control(`/webhook_endpoints/${added.id}`, 'DELETE')).status).toBe(200);
    const listed = (await (await control('/webhook_endpoints', 'GET')).json()) as { id: string }[];
    expect(listed.map((endpoint) => endpoint.id)).not.toContain(added.id);
    expect((await control(`/webhook_endpoints/${added.id}`, 'DELETE')).status).toBe(404);
  });
});
