import Stripe from 'stripe';
import { startStripeSandbox, type RunningStripeSandbox } from './start-sandbox';
import { sdkFor } from './testing/sandbox-client';

/** The gym's restricted key with Customers Write (a referrer's credit is a customer write). */
const GYM_KEY = 'rk_test_gym_rewards';
/** The key of issue 32's table: Customers Read only. */
const READ_CUSTOMERS_KEY = 'rk_test_gym_read_customers';

describe("Stripe sandbox: a friend's welcome coupon and a referrer's credit", () => {
  let running: RunningStripeSandbox;
  let gym: Stripe;

  const seed = async (body: Record<string, unknown>) => {
    const reply = await fetch(`${running.controlUrl}/members`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(reply.status).toBe(200);
    return (await reply.json()) as Stripe.Subscription;
  };
  const refusal = async (promise: Promise<unknown>) => {
    const error = (await promise.then(
      () => undefined,
      (cause: unknown) => cause,
    )) as InstanceType<typeof Stripe.errors.StripeError> | undefined;
    expect(error).toBeInstanceOf(Stripe.errors.StripeError);
    return error as InstanceType<typeof Stripe.errors.StripeError>;
  };
  const endPeriod = (subscriptionId: string) =>
    fetch(`${running.controlUrl}/subscriptions/${subscriptionId}/end_period`, { method: 'POST' });

  beforeAll(async () => {
    running = await startStripeSandbox({
      restrictedKeys: {
        [GYM_KEY]: { customer: 'write', subscription: 'write', coupon: 'write', invoice: 'read' },
        [READ_CUSTOMERS_KEY]: { customer: 'read', subscription: 'write', coupon: 'write' },
      },
    });
    gym = sdkFor(running, GYM_KEY);
  });
  afterAll(() => running.close());

  it('refuses a repeating coupon without its months, and months on another duration', async () => {
    const noMonths = await refusal(gym.coupons.create({ percent_off: 100, duration: 'repeating' }));
    expect(noMonths.statusCode).toBe(400);
    expect(noMonths.param).toBe('duration_in_months');
    const monthsOnce = await refusal(
      gym.coupons.create({ percent_off: 100, duration: 'once', duration_in_months: 1 }),
    );
    expect(monthsOnce.param).toBe('duration_in_months');
    const over = await refusal(
      gym.coupons.create({ percent_off: 101, duration: 'repeating', duration_in_months: 1 }),
    );
    expect(over.statusCode).toBe(400);
  });

  it("takes a 'first month free' coupon off one invoice only", async () => {
    const friend = await seed({
      email: 'siobhan@example.ie',
      name: "Siobhán O'Brien",
      amount: 6_500,
    });
    // Approved a second later: the coupon covers the invoices of the month after it is applied
    // (Stripe times are whole seconds; applied in the period's first second it would end exactly
    // at the next invoice and cover none).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const coupon = await gym.coupons.create({
      percent_off: 100,
      duration: 'repeating',
      duration_in_months: 1,
    });
    expect(coupon).toMatchObject({ duration: 'repeating', duration_in_months: 1 });
    const updated = await gym.subscriptions.update(friend.id, {
      discounts: [{ coupon: coupon.id }],
      expand: ['discounts'],
    });
    const discount = updated.discounts[0] as Stripe.Discount;
    expect(discount.end).toBeGreaterThan(discount.start);
    expect((await gym.invoices.createPreview({ subscription: friend.id })).total).toBe(0);

    // The invoice after it is made past the discount's end: charged in full.
    await endPeriod(friend.id);
    expect((await gym.invoices.createPreview({ subscription: friend.id })).total).toBe(6_500);
  });

  it('finds a customer by exact email', async () => {
    await seed({ email: 'Zoe.DArcy@example.com', name: "Zoë D'Arcy-Nguyễn", amount: 4_900 });
    const exact = await gym.customers.list({ email: 'Zoe.DArcy@example.com' });
    expect(exact.data.map((customer) => customer.name)).toEqual(["Zoë D'Arcy-Nguyễn"]);
    expect((await gym.customers.list({ email: 'zoe.darcy@example.com' })).data).toEqual([]);
  });

  it("credits a customer's balance once per Idempotency-Key, and needs Customers Write", async () => {
    const referrer = await seed({
      email: 'ana-sofia@example.es',
      name: 'Ana-Sofía',
      amount: 5_000,
    });
    const customerId = referrer.customer as string;
    const credit = () =>
      gym.customers.createBalanceTransaction(
        customerId,
        { amount: -2_500, currency: 'aud', description: 'Referral credit' },
        { idempotencyKey: 'grove-credit-test-1' },
      );
    const first = await credit();
    const again = await credit();
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ amount: -2_500, currency: 'aud', ending_balance: -2_500 });
    expect((await gym.customers.retrieve(customerId)) as Stripe.Customer).toMatchObject({
      balance: -2_500,
    });

    const missing = await refusal(
      gym.customers.createBalanceTransaction('cus_missing', { amount: -100, currency: 'aud' }),
    );
    expect(missing.statusCode).toBe(404);
    const otherCurrency = await refusal(
      gym.customers.createBalanceTransaction(customerId, { amount: -100, currency: 'usd' }),
    );
    expect(otherCurrency.param).toBe('currency');

    const readOnly = await refusal(
      sdkFor(running, READ_CUSTOMERS_KEY).customers.createBalanceTransaction(customerId, {
        amount: -100,
        currency: 'aud',
      }),
    );
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.message).toContain('rak_customer_write');
  });
});
