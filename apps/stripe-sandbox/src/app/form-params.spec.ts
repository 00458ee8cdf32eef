import { STRIPE_OPERATIONS } from '../contract/stripe-operations';
import { periodEnd } from './billing-period';
import { parseForm } from './form-body';
import { checkParams } from './param-validator';
import { StripeRequestError } from './stripe-error';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (cause) {
    expect(cause).toBeInstanceOf(StripeRequestError);
    return (cause as StripeRequestError).body;
  }
  throw new Error('expected a refusal');
};

describe('form parsing and parameter checks (as Stripe encodes and refuses)', () => {
  it('parses nested keys, indexed arrays, empty-bracket arrays and metadata', () => {
    expect(
      parseForm(
        'line_items[0][price]=price_1&line_items[0][quantity]=2&expand[]=customer&expand[]=subscription&metadata[o%27k]=Z%C3%B6%C3%AB&mode=subscription',
      ),
    ).toEqual({
      line_items: [{ price: 'price_1', quantity: '2' }],
      expand: ['customer', 'subscription'],
      metadata: { "o'k": 'Zöë' },
      mode: 'subscription',
    });
  });

  it('converts to the contract types', () => {
    const params = checkParams(
      parseForm(
        'line_items[0][price]=p&line_items[0][quantity]=3&allow_promotion_codes=true&mode=subscription&metadata=',
      ),
      STRIPE_OPERATIONS.PostCheckoutSessions.params,
    );
    expect(params).toEqual({
      line_items: [{ price: 'p', quantity: 3 }],
      allow_promotion_codes: true,
      mode: 'subscription',
      metadata: {},
    });
    expect(
      checkParams(
        parseForm('created[gte]=10&created[lt]=20&limit=5'),
        STRIPE_OPERATIONS.GetInvoices.params,
      ),
    ).toEqual({ created: { gte: 10, lt: 20 }, limit: 5 });
    expect(
      checkParams(
        parseForm('discounts='),
        STRIPE_OPERATIONS.PostSubscriptionsSubscriptionExposedId.params,
      ),
    ).toEqual({
      discounts: [],
    });
  });

  it('refuses as Stripe does, naming the nested param', () => {
    const ops = STRIPE_OPERATIONS;
    expect(refusal(() => checkParams(parseForm('limit=0'), ops.GetPrices.params))).toMatchObject({
      param: 'limit',
    });
    expect(refusal(() => checkParams(parseForm('limit=101'), ops.GetPrices.params))).toMatchObject({
      param: 'limit',
    });
    expect(
      refusal(() => checkParams(parseForm('created[near]=1'), ops.GetInvoices.params)),
    ).toMatchObject({
      code: 'parameter_unknown',
      param: 'created[near]',
    });
    expect(
      refusal(() =>
        checkParams(parseForm('line_items[0][quantity]=1.5'), ops.PostCheckoutSessions.params),
      ),
    ).toMatchObject({ code: 'parameter_invalid_integer', param: 'line_items[0][quantity]' });
    expect(
      refusal(() => checkParams(parseForm('expand=customer'), ops.GetCustomersCustomer.params)),
    ).toMatchObject({
      param: 'expand',
    });
    expect(
      refusal(() => checkParams(parseForm(`name=${'x'.repeat(300)}`), ops.PostCustomers.params)),
    ).toMatchObject({
      param: 'name',
    });
    expect(refusal(() => parseForm('a[b][c][d][e][f][g]=1'))).toMatchObject({
      type: 'invalid_request_error',
    });
  });

  it('ends a monthly period on the same day, clamped to the month end (Jan 31 → Feb 29 in 2028)', () => {
    const jan31 = Date.UTC(2028, 0, 31, 10) / 1000;
    expect(
      new Date(
        periodEnd(jan31, { interval: 'month', interval_count: 1, usage_type: 'licensed' }) * 1000,
      ).toISOString(),
    ).toBe('2028-02-29T10:00:00.000Z');
    expect(periodEnd(jan31, { interval: 'week', interval_count: 2, usage_type: 'licensed' })).toBe(
      jan31 + 14 * 86_400,
    );
    expect(
      new Date(
        periodEnd(jan31, { interval: 'year', interval_count: 1, usage_type: 'licensed' }) * 1000,
      ).toISOString(),
    ).toBe('2029-01-31T10:00:00.000Z');
  });
});
