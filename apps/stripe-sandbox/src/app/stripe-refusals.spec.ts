import Stripe from 'stripe';
import { STRIPE_OPERATIONS } from '../contract/stripe-operations';
import { startStripeSandbox, type RunningStripeSandbox } from './start-sandbox';
import { TEST_KEY, monthlyPrice, sdkFor } from './testing/sandbox-client';

type ErrorBody = { error: { type: string; code?: string; param?: string; message: string } };

describe("Stripe sandbox: refusals as Stripe's errors, idempotency", () => {
  let running: RunningStripeSandbox;
  let stripe: Stripe;

  /** A raw form POST with the test key (the SDK would refuse to send some of these). */
  const post = async (path: string, form: string, headers: Record<string, string> = {}) => {
    const reply = await fetch(`${running.url}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${TEST_KEY}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        ...headers,
      },
      body: form,
    });
    return {
      status: reply.status,
      headers: reply.headers,
      body: (await reply.json()) as ErrorBody & Record<string, unknown>,
    };
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
    running = await startStripeSandbox();
    stripe = sdkFor(running);
  });
  afterAll(() => running.close());

  it('refuses an unknown parameter with 400 parameter_unknown', async () => {
    const reply = await post('/v1/customers', 'name=A&nickname=B');
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'parameter_unknown',
      param: 'nickname',
      message: 'Received unknown parameter: nickname',
    });
    const nested = await post(
      '/v1/checkout/sessions',
      'mode=subscription&line_items[0][price]=p&line_items[0][colour]=red',
    );
    expect(nested.body.error).toMatchObject({
      code: 'parameter_unknown',
      param: 'line_items[0][colour]',
    });
    const error = await refusal(
      stripe.customers.create({ name: 'A', shoe_size: 9 } as Stripe.CustomerCreateParams),
    );
    expect(error).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'shoe_size' });
  });

  it('refuses a missing required parameter with 400 parameter_missing', async () => {
    const reply = await post('/v1/products', 'description=No+name');
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'parameter_missing',
      param: 'name',
    });
    const error = await refusal(
      stripe.billingPortal.sessions.create({ return_url: 'https://x.example' }),
    );
    expect(error).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'customer' });
  });

  it('refuses a wrong type: a non-integer amount, a bad enum, a bad boolean, a hash for a string', async () => {
    const product = await stripe.products.create({ name: 'P' });
    const amount = await post('/v1/prices', `product=${product.id}&currency=aud&unit_amount=49.5`);
    expect(amount.status).toBe(400);
    expect(amount.body.error).toMatchObject({
      code: 'parameter_invalid_integer',
      param: 'unit_amount',
    });
    const interval = await post(
      '/v1/prices',
      `product=${product.id}&currency=aud&unit_amount=100&recurring[interval]=fortnight`,
    );
    expect(interval.body.error).toMatchObject({
      type: 'invalid_request_error',
      param: 'recurring[interval]',
    });
    expect(interval.body.error.message).toMatch(/must be one of day, week, month, year/);
    const flag = await post('/v1/products', 'name=P&active=yes');
    expect(flag.body.error).toMatchObject({ type: 'invalid_request_error', param: 'active' });
    const inherited = await post('/v1/customers', 'name=A&toString=x&constructor=y');
    expect(inherited.body.error).toMatchObject({ code: 'parameter_unknown', param: 'toString' });
    const hash = await post('/v1/customers', 'name[first]=Zoë');
    expect(hash.status).toBe(400);
    expect(hash.body.error.param).toBe('name');
    const empty = await post('/v1/prices', `product=${product.id}&currency=`);
    expect(empty.body.error).toMatchObject({ code: 'parameter_invalid_empty', param: 'currency' });
    const mode = await refusal(
      stripe.checkout.sessions.create({
        mode: 'rental' as 'subscription',
        success_url: 'https://x.example',
      }),
    );
    expect(mode).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      param: 'mode',
    });
  });

  it('refuses a missing, malformed or unknown key with 401', async () => {
    const none = await fetch(`${running.url}/v1/prices`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as ErrorBody).error).toMatchObject({
      type: 'invalid_request_error',
    });
    const basicWrong = await fetch(`${running.url}/v1/prices`, {
      headers: { Authorization: 'Token abc' },
    });
    expect(basicWrong.status).toBe(401);
    const error = await refusal(
      sdkFor(running, 'sk_test_not_this_one').customers.create({ name: 'A' }),
    );
    expect(error).toMatchObject({ statusCode: 401, type: 'StripeAuthenticationError' });
    expect(error.message).toMatch(/^Invalid API Key provided: sk_test_\*{4}/);
  });

  it('refuses an unknown id with 404 resource_missing, and an unknown path with 404', async () => {
    const error = await refusal(stripe.customers.retrieve('cus_doesnotexist'));
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'customer' });
    expect(error.message).toBe("No such customer: 'cus_doesnotexist'");
    await expect(stripe.subscriptions.retrieve('sub_nope')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    await expect(stripe.events.retrieve('evt_nope')).rejects.toMatchObject({ statusCode: 404 });
    const price = await post(
      '/v1/checkout/sessions',
      'mode=subscription&line_items[0][price]=price_nope&success_url=https://x.example',
    );
    expect(price.status).toBe(404);
    expect(price.body.error).toMatchObject({
      code: 'resource_missing',
      param: 'line_items[0][price]',
    });
    const path = await post('/v1/charges', 'amount=100');
    expect(path.status).toBe(404);
    expect(path.body.error.message).toBe('Unrecognized request URL (POST: /v1/charges).');
    await monthlyPrice(stripe);
    // Paths are checked against the objects returned (docs/stripe.md#assumptions).
    const expand = await fetch(`${running.url}/v1/prices?expand[]=data.nothing`, {
      headers: { Authorization: `Bearer ${TEST_KEY}` },
    });
    expect(expand.status).toBe(400);
    const proto = await fetch(`${running.url}/v1/prices?expand[]=data.__proto__`, {
      headers: { Authorization: `Bearer ${TEST_KEY}` },
    });
    expect(proto.status).toBe(400);
  });

  it("refuses bodies beyond the parser's limits with 4xx, never a 500", async () => {
    const deep = await post('/v1/customers', `metadata${'[a]'.repeat(8)}=x`);
    expect(deep.status).toBe(400);
    const many = await post(
      '/v1/customers',
      Array.from({ length: 1_200 }, (_, i) => `metadata[k${i}]=v`).join('&'),
    );
    expect(many.status).toBe(400);
    const index = await post('/v1/checkout/sessions', 'line_items[500][price]=p');
    expect(index.status).toBe(400);
    const big = await post('/v1/customers', `description=${'x'.repeat(300 * 1024)}`).catch(() => ({
      status: 413,
    }));
    expect(big.status).toBe(413);
    const meta = await post(
      '/v1/customers',
      Array.from({ length: 51 }, (_, i) => `metadata[k${i}]=v`).join('&'),
    );
    expect(meta.status).toBe(400);
    // qs drops prototype keys (allowPrototypes: false): nothing is polluted.
    const proto = await post('/v1/customers', 'name=A&__proto__[polluted]=1');
    expect(proto.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const version = await post('/v1/customers', 'name=A', { 'Stripe-Version': 'yesterday' });
    expect(version.status).toBe(400);
  });

  it('answers malformed input on every operation and route with a 4xx, never a 500', async () => {
    const inputs = [
      'name=%E0%A4%A',
      'expand[0][a]=b',
      'expand=x',
      'metadata[a][b]=c',
      'metadata=x',
      'email[]=a',
      '=&&&=',
      '%%%',
      'line_items=x',
      'line_items[0]=x',
      'line_items[a][price]=x',
      'discounts[0]=x',
      'created[gt]=x',
      'limit=1e3',
      'unit_amount=99999999999999999999',
    ];
    const paths = [
      ...new Set(
        Object.values(STRIPE_OPERATIONS).map((operation) =>
          operation.path.replace(/\{[a-z_]+\}/, 'x_1'),
        ),
      ),
    ];
    const statuses = new Set<number>();
    for (const path of paths)
      for (const input of inputs)
        for (const method of ['GET', 'POST']) {
          const reply = await fetch(`${running.url}${path}${method === 'GET' ? `?${input}` : ''}`, {
            method,
            headers: { Authorization: `Bearer ${TEST_KEY}` },
            body: method === 'POST' ? input : undefined,
          });
          statuses.add(reply.status);
        }
    for (const path of [
      '/c/pay/cs_test_x',
      '/p/session/bps_x/cancel',
      '/_sandbox/events/deliver',
      '/_sandbox/x',
      '/%zz',
    ]) {
      const reply = await fetch(`${running.url}${path}`, { method: 'POST', body: '{"ids":' });
      statuses.add(reply.status);
    }
    expect([...statuses].every((status) => status < 500)).toBe(true);
  });

  it('replays the same Idempotency-Key and body with Idempotent-Replayed, refuses it with another body', async () => {
    const headers = { 'Idempotency-Key': 'grove-key-1' };
    const first = await post('/v1/customers', 'name=Zo%C3%AB&email=zoe%40example.com', headers);
    const second = await post('/v1/customers', 'name=Zo%C3%AB&email=zoe%40example.com', headers);
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(
      running.sandbox.store.all('customer', (customer) => customer.id === first.body.id),
    ).toHaveLength(1);
    const conflict = await post('/v1/customers', 'name=Other', headers);
    expect(conflict.status).toBe(400);
    expect(conflict.body.error.type).toBe('idempotency_error');

    const viaSdk = await stripe.customers.create(
      { name: 'Once' },
      { idempotencyKey: 'grove-key-2' },
    );
    const replay = await stripe.customers.create(
      { name: 'Once' },
      { idempotencyKey: 'grove-key-2' },
    );
    expect(replay.id).toBe(viaSdk.id);
    expect(replay.lastResponse.headers['idempotent-replayed']).toBe('true');
    const error = await refusal(
      stripe.customers.create({ name: 'Twice' }, { idempotencyKey: 'grove-key-2' }),
    );
    expect(error).toMatchObject({ statusCode: 400, type: 'StripeIdempotencyError' });
  });

  it('applies an amount_off coupon at Checkout and refuses both customer and customer_email', async () => {
    const price = await monthlyPrice(stripe, 5_000);
    const coupon = await stripe.coupons.create({
      amount_off: 1_000,
      currency: 'aud',
      duration: 'once',
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price.id, quantity: 2 }],
      customer_email: "o'brien@example.com",
      discounts: [{ coupon: coupon.id }],
      success_url: 'https://grove.example/done',
    });
    expect(session).toMatchObject({ amount_subtotal: 10_000, amount_total: 9_000 });
    await expect(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: price.id, quantity: 1 }],
        discounts: [{ promotion_code: 'promo_1' }],
        success_url: 'https://grove.example/done',
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'discounts[0][coupon]' });
    const customer = await stripe.customers.create({ name: 'C' });
    await expect(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: price.id, quantity: 1 }],
        customer: customer.id,
        customer_email: 'c@example.com',
        success_url: 'https://grove.example/done',
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
  });
});
