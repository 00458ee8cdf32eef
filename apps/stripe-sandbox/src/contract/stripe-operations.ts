/**
 * The Stripe operations Grove uses, transcribed from Stripe's OpenAPI description
 * (github.com/stripe/openapi, `openapi/spec3.json`; object shapes from `openapi/fixtures3.json`)
 * and checked against the official SDK's parameter types by `stripe-operations.typetest.ts`.
 * Each operation is named by its operationId. Only the parameters Grove sends, plus those a
 * caller commonly sends, are listed; the sandbox refuses any other parameter as Stripe refuses an
 * unknown one (400 `parameter_unknown`). Amounts are integers in the currency's smallest unit
 * (cents); times are Unix seconds.
 */

/** One parameter of an operation (form-encoded for POST, query string for GET). */
export type ParamSpec =
  | { type: 'string'; required?: true; maxLength?: number }
  | { type: 'integer'; required?: true; min?: number; max?: number }
  | { type: 'number'; required?: true; min?: number; max?: number }
  | { type: 'boolean'; required?: true }
  | { type: 'enum'; required?: true; values: readonly string[] }
  /** `metadata[key]=value`: at most 50 keys of ≤ 40 chars, values ≤ 500 chars ('' empties it). */
  | { type: 'metadata'; required?: true }
  | { type: 'object'; required?: true; properties: Readonly<Record<string, ParamSpec>> }
  | { type: 'array'; required?: true; items: ParamSpec; maxItems: number }
  /** A range filter: an integer, or `{gt, gte, lt, lte}` integers (e.g. `created[gte]=`). */
  | { type: 'range'; required?: true };

/** One operation: HTTP method, path (`{name}` marks a path parameter) and parameters. */
export interface StripeOperation {
  method: 'GET' | 'POST';
  path: string;
  params: Readonly<Record<string, ParamSpec>>;
}

/** `expand[]=`: dotted paths of fields to expand (Stripe: at most 4 levels; 20 paths here). */
const expand = { type: 'array', items: { type: 'string', maxLength: 200 }, maxItems: 20 } as const;
const metadata = { type: 'metadata' } as const;
/** List paging (Stripe's List API): `limit` 1–100 (default 10), cursors are object ids. */
const paging = {
  limit: { type: 'integer', min: 1, max: 100 },
  starting_after: { type: 'string', maxLength: 255 },
  ending_before: { type: 'string', maxLength: 255 },
} as const;
const id = { type: 'string', maxLength: 255 } as const;
const url = { type: 'string', maxLength: 5000 } as const;
const currency = { type: 'string', maxLength: 3 } as const;
const amount = { type: 'integer', min: 0, max: 99_999_999 } as const;
const interval = { type: 'enum', values: ['day', 'week', 'month', 'year'] } as const;
const subscriptionStatus = {
  type: 'enum',
  values: [
    'active',
    'all',
    'canceled',
    'ended',
    'incomplete',
    'incomplete_expired',
    'past_due',
    'paused',
    'trialing',
    'unpaid',
  ],
} as const;
/** A discount to apply: `discounts[0][coupon]=` or `discounts[0][promotion_code]=`. */
const discounts = {
  type: 'array',
  maxItems: 20,
  items: { type: 'object', properties: { coupon: id, promotion_code: id } },
} as const;

/**
 * A subscription's discounts: a new coupon (`discounts[0][coupon]=`), or one of its existing
 * discounts kept as it is (`discounts[0][discount]=di_…`), or a promotion code.
 */
const subscriptionDiscounts = {
  type: 'array',
  maxItems: 20,
  items: { type: 'object', properties: { coupon: id, discount: id, promotion_code: id } },
} as const;

/**
 * Every operation the sandbox serves, by Stripe operationId (docs: https://docs.stripe.com/api).
 * `satisfies` keeps the literal types the type-level test reads.
 */
export const STRIPE_OPERATIONS = {
  /** https://docs.stripe.com/api/customers/create */
  PostCustomers: {
    method: 'POST',
    path: '/v1/customers',
    params: {
      email: { type: 'string', maxLength: 512 },
      name: { type: 'string', maxLength: 256 },
      phone: { type: 'string', maxLength: 20 },
      description: { type: 'string', maxLength: 350 },
      metadata,
      expand,
    },
  },
  /** https://docs.stripe.com/api/customers/retrieve */
  GetCustomersCustomer: {
    method: 'GET',
    path: '/v1/customers/{customer}',
    params: { expand },
  },
  /**
   * https://docs.stripe.com/api/customers/list — `email` is an exact, case-sensitive match
   * (Grove finds an approved friend's customer by the email the friend joined with).
   */
  GetCustomers: {
    method: 'GET',
    path: '/v1/customers',
    params: {
      email: { type: 'string', maxLength: 512 },
      created: { type: 'range' },
      ...paging,
      expand,
    },
  },
  /**
   * https://docs.stripe.com/api/customer_balance_transactions/create — a negative `amount` is a
   * credit the customer's next invoices use (Grove: a referrer's one-off credit).
   */
  PostCustomersCustomerBalanceTransactions: {
    method: 'POST',
    path: '/v1/customers/{customer}/balance_transactions',
    params: {
      amount: { type: 'integer', required: true, min: -99_999_999, max: 99_999_999 },
      currency: { ...currency, required: true },
      description: { type: 'string', maxLength: 350 },
      metadata,
      expand,
    },
  },
  /** https://docs.stripe.com/api/checkout/sessions/create (Grove: mode 'subscription'). */
  PostCheckoutSessions: {
    method: 'POST',
    path: '/v1/checkout/sessions',
    params: {
      mode: { type: 'enum', values: ['payment', 'setup', 'subscription'] },
      line_items: {
        type: 'array',
        maxItems: 20,
        items: {
          type: 'object',
          properties: { price: id, quantity: { type: 'integer', min: 1, max: 999_999 } },
        },
      },
      customer: id,
      customer_email: { type: 'string', maxLength: 512 },
      client_reference_id: { type: 'string', maxLength: 200 },
      success_url: url,
      cancel_url: url,
      metadata,
      discounts,
      allow_promotion_codes: { type: 'boolean' },
      subscription_data: {
        type: 'object',
        properties: { metadata },
      },
      expand,
    },
  },
  /** https://docs.stripe.com/api/checkout/sessions/retrieve */
  GetCheckoutSessionsSession: {
    method: 'GET',
    path: '/v1/checkout/sessions/{session}',
    params: { expand },
  },
  /** https://docs.stripe.com/api/customer_portal/sessions/create */
  PostBillingPortalSessions: {
    method: 'POST',
    path: '/v1/billing_portal/sessions',
    params: { customer: { ...id, required: true }, return_url: url, expand },
  },
  /** https://docs.stripe.com/api/subscriptions/list */
  GetSubscriptions: {
    method: 'GET',
    path: '/v1/subscriptions',
    params: {
      customer: id,
      price: id,
      status: subscriptionStatus,
      created: { type: 'range' },
      ...paging,
      expand,
    },
  },
  /** https://docs.stripe.com/api/subscriptions/retrieve */
  GetSubscriptionsSubscriptionExposedId: {
    method: 'GET',
    path: '/v1/subscriptions/{subscription_exposed_id}',
    params: { expand },
  },
  /**
   * https://docs.stripe.com/api/subscriptions/update — Grove writes member discounts with
   * `discounts` ('' or `[]` removes them) and cancels with `cancel_at_period_end`.
   */
  PostSubscriptionsSubscriptionExposedId: {
    method: 'POST',
    path: '/v1/subscriptions/{subscription_exposed_id}',
    params: {
      discounts: subscriptionDiscounts,
      cancel_at_period_end: { type: 'boolean' },
      metadata,
      description: { type: 'string', maxLength: 500 },
      proration_behavior: { type: 'enum', values: ['always_invoice', 'create_prorations', 'none'] },
      expand,
    },
  },
  /** https://docs.stripe.com/api/invoices/list */
  GetInvoices: {
    method: 'GET',
    path: '/v1/invoices',
    params: {
      customer: id,
      subscription: id,
      status: { type: 'enum', values: ['draft', 'open', 'paid', 'uncollectible', 'void'] },
      created: { type: 'range' },
      ...paging,
      expand,
    },
  },
  /**
   * https://docs.stripe.com/api/invoices/create_preview — the next invoice of a subscription
   * (the `stripe` SDK from v18 on: `GET /v1/invoices/upcoming` was removed in API 2025-03-31.basil).
   */
  PostInvoicesCreatePreview: {
    method: 'POST',
    path: '/v1/invoices/create_preview',
    params: { customer: id, subscription: id, expand },
  },
  /** https://docs.stripe.com/api/products/create */
  PostProducts: {
    method: 'POST',
    path: '/v1/products',
    params: {
      name: { type: 'string', required: true, maxLength: 250 },
      id,
      active: { type: 'boolean' },
      description: { type: 'string', maxLength: 40_000 },
      metadata,
      expand,
    },
  },
  /** https://docs.stripe.com/api/prices/create (Grove: recurring prices of a product). */
  PostPrices: {
    method: 'POST',
    path: '/v1/prices',
    params: {
      currency: { ...currency, required: true },
      unit_amount: amount,
      product: id,
      recurring: {
        type: 'object',
        properties: {
          interval: { ...interval, required: true },
          interval_count: { type: 'integer', min: 1, max: 365 },
        },
      },
      nickname: { type: 'string', maxLength: 250 },
      lookup_key: { type: 'string', maxLength: 200 },
      active: { type: 'boolean' },
      metadata,
      expand,
    },
  },
  /** https://docs.stripe.com/api/prices/list */
  GetPrices: {
    method: 'GET',
    path: '/v1/prices',
    params: {
      product: id,
      active: { type: 'boolean' },
      currency,
      type: { type: 'enum', values: ['one_time', 'recurring'] },
      lookup_keys: { type: 'array', items: { type: 'string', maxLength: 200 }, maxItems: 10 },
      ...paging,
      expand,
    },
  },
  /** https://docs.stripe.com/api/coupons/create — one of `percent_off` or `amount_off` (+ `currency`). */
  PostCoupons: {
    method: 'POST',
    path: '/v1/coupons',
    params: {
      id,
      name: { type: 'string', maxLength: 40 },
      percent_off: { type: 'number', min: 0.01, max: 100 },
      amount_off: amount,
      currency,
      duration: { type: 'enum', values: ['forever', 'once', 'repeating'] },
      duration_in_months: { type: 'integer', min: 1, max: 120 },
      max_redemptions: { type: 'integer', min: 1 },
      metadata,
      expand,
    },
  },
  /** https://docs.stripe.com/api/events/retrieve */
  GetEventsId: {
    method: 'GET',
    path: '/v1/events/{id}',
    params: { expand },
  },
} as const satisfies Record<string, StripeOperation>;

/** An operationId of the contract. */
export type StripeOperationId = keyof typeof STRIPE_OPERATIONS;
