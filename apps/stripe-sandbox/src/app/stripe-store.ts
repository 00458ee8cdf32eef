import { newId, nowSeconds } from './ids';
import { listPage, type PageParams } from './list-page';
import type { CheckedParams } from './param-validator';
import { invalidRequest, resourceMissing } from './stripe-error';
import type {
  StripeCheckoutSession,
  StripeCoupon,
  StripeCustomer,
  StripeCustomerBalanceTransaction,
  StripeDiscount,
  StripeEvent,
  StripeInvoice,
  StripeList,
  StripePortalSession,
  StripePrice,
  StripeProduct,
  StripeSubscription,
} from './stripe-objects';

/** What a Checkout Session sells (not part of its JSON; Stripe lists it at /line_items). */
export interface SessionPurchase {
  items: { price: string; quantity: number }[];
  /** Coupon ids from `discounts[][coupon]`. */
  coupons: string[];
  /** `subscription_data[metadata]`, copied to the subscription. */
  subscriptionMetadata: Record<string, string>;
}

/** Where the store's hosted pages live (Checkout `url`, portal `url`). */
export interface PageUrls {
  checkout(sessionId: string): string;
  portal(sessionId: string): string;
}

/** Called for each new event (the server delivers it to the webhook endpoints). */
export type EventSink = (event: StripeEvent) => void;

type Kinds = {
  customer: StripeCustomer;
  customer_balance_transaction: StripeCustomerBalanceTransaction;
  product: StripeProduct;
  price: StripePrice;
  coupon: StripeCoupon;
  discount: StripeDiscount;
  subscription: StripeSubscription;
  invoice: StripeInvoice;
  'checkout.session': StripeCheckoutSession;
  'billing_portal.session': StripePortalSession;
  event: StripeEvent;
};
type Kind = keyof Kinds;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const meta = (value: unknown): Record<string, string> =>
  value && typeof value === 'object' ? { ...(value as Record<string, string>) } : {};

/**
 * The sandbox's Stripe account: every object by id, in creation order, and the events. Its
 * methods are the contract's operations (named by operationId in the comments) on checked
 * parameters; a refusal throws StripeRequestError (404 `resource_missing` for an unknown id).
 * The billing flows (Checkout payment, renewals, failures) are in BillingFlows.
 */
export class StripeStore {
  private readonly objects = new Map<string, Kinds[Kind]>();
  private readonly order: string[] = [];
  private readonly purchases = new Map<string, SessionPurchase>();
  /** The API version events are rendered in (the last `Stripe-Version` seen, or the default). */
  apiVersion: string;

  constructor(
    defaultApiVersion: string,
    private readonly sink: EventSink,
  ) {
    this.apiVersion = defaultApiVersion;
  }

  /** Any object by id (for `expand`), or undefined. */
  find(id: string): object | undefined {
    return this.objects.get(id);
  }

  /** An object of one kind by id. @throws StripeRequestError 404 `resource_missing` */
  get<K extends Kind>(kind: K, id: string, param = 'id'): Kinds[K] {
    const object = this.objects.get(id);
    if (!object || object.object !== kind)
      throw resourceMissing(kind.replace(/^.*\./, ''), id, param);
    return object as Kinds[K];
  }

  /** Every object of a kind, newest first, that passes `filter`. */
  all<K extends Kind>(kind: K, filter: (object: Kinds[K]) => boolean = () => true): Kinds[K][] {
    const found: Kinds[K][] = [];
    for (let index = this.order.length - 1; index >= 0; index -= 1) {
      const object = this.objects.get(this.order[index]);
      if (object?.object === kind && filter(object as Kinds[K])) found.push(object as Kinds[K]);
    }
    return found;
  }

  /** Keeps a new object. */
  add<T extends Kinds[Kind]>(object: T): T {
    this.objects.set(object.id, object);
    this.order.push(object.id);
    return object;
  }

  /**
   * Records an event of `type` about `object` (a snapshot) and hands it to the sink.
   * `previous` holds the changed fields' former values (`data.previous_attributes`).
   */
  emit(
    type: string,
    object: object,
    previous?: Record<string, unknown>,
    idempotencyKey?: string,
  ): StripeEvent {
    const event = this.add<StripeEvent>({
      id: newId('evt'),
      object: 'event',
      api_version: this.apiVersion,
      created: nowSeconds(),
      livemode: false,
      type,
      data: {
        object: structuredClone(object),
        ...(previous ? { previous_attributes: previous } : {}),
      },
      pending_webhooks: 0,
      request: { id: null, idempotency_key: idempotencyKey ?? null },
    });
    this.sink(event);
    return event;
  }

  /** What a Checkout Session sells. */
  purchase(sessionId: string): SessionPurchase {
    const purchase = this.purchases.get(sessionId);
    if (!purchase) throw resourceMissing('checkout.session', sessionId);
    return purchase;
  }

  // ---- operations ----------------------------------------------------------------------------

  /** PostCustomers. */
  createCustomer(params: CheckedParams): StripeCustomer {
    const customer = this.add<StripeCustomer>({
      id: newId('cus'),
      object: 'customer',
      created: nowSeconds(),
      livemode: false,
      email: str(params.email) ?? null,
      name: str(params.name) ?? null,
      phone: str(params.phone) ?? null,
      description: str(params.description) ?? null,
      metadata: meta(params.metadata),
      balance: 0,
      currency: null,
      delinquent: false,
      invoice_prefix: newId('x').slice(2, 10).toUpperCase(),
      tax_exempt: 'none',
      preferred_locales: [],
    });
    this.emit('customer.created', customer);
    return customer;
  }

  /** GetCustomers: newest first, `email` an exact (case-sensitive) match as Stripe's. */
  listCustomers(params: CheckedParams): StripeList<StripeCustomer> {
    const found = this.all(
      'customer',
      (customer) =>
        (params.email === undefined || customer.email === params.email) &&
        inRange(customer.created, params.created),
    );
    return listPage(found, params as PageParams, '/v1/customers');
  }

  /**
   * PostCustomersCustomerBalanceTransactions: `amount` (cents; negative is a credit) is added to
   * the customer's balance, whose currency it sets when the customer has none; a customer of
   * another currency is refused (the sandbox keeps one balance a customer).
   * @throws StripeRequestError 404 for an unknown customer, 400 for another currency
   */
  createBalanceTransaction(
    customerId: string,
    params: CheckedParams,
  ): StripeCustomerBalanceTransaction {
    const customer = this.get('customer', customerId, 'customer');
    const currency = String(params.currency).toLowerCase();
    if (customer.currency !== null && customer.currency !== currency)
      throw invalidRequest(
        `The customer's balance is in ${customer.currency}; this transaction is in ${currency}.`,
        'currency',
      );
    customer.currency = currency;
    customer.balance += params.amount as number;
    const transaction = this.add<StripeCustomerBalanceTransaction>({
      id: newId('cbtxn'),
      object: 'customer_balance_transaction',
      created: nowSeconds(),
      livemode: false,
      metadata: meta(params.metadata),
      amount: params.amount as number,
      currency,
      customer: customer.id,
      description: str(params.description) ?? null,
      ending_balance: customer.balance,
      type: 'adjustment',
      credit_note: null,
      invoice: null,
    });
    this.emit('customer.updated', customer);
    return transaction;
  }

  /** PostProducts. @throws 400 when a caller-chosen `id` is taken */
  createProduct(params: CheckedParams): StripeProduct {
    const id = str(params.id) ?? newId('prod');
    if (this.objects.has(id))
      throw invalidRequest(`Product already exists.`, 'id', 'resource_already_exists');
    const now = nowSeconds();
    const product = this.add<StripeProduct>({
      id,
      object: 'product',
      created: now,
      updated: now,
      livemode: false,
      name: String(params.name),
      active: params.active !== false,
      description: str(params.description) ?? null,
      default_price: null,
      metadata: meta(params.metadata),
      type: 'service',
    });
    this.emit('product.created', product);
    return product;
  }

  /** PostPrices: needs `product` and `unit_amount` here (Grove sends both). */
  createPrice(params: CheckedParams): StripePrice {
    if (params.product === undefined)
      throw invalidRequest('Missing required param: product.', 'product', 'parameter_missing');
    if (params.unit_amount === undefined)
      throw invalidRequest(
        'Missing required param: unit_amount.',
        'unit_amount',
        'parameter_missing',
      );
    this.get('product', String(params.product), 'product');
    const recurring = params.recurring as
      { interval: 'month'; interval_count?: number } | undefined;
    const price = this.add<StripePrice>({
      id: newId('price'),
      object: 'price',
      created: nowSeconds(),
      livemode: false,
      active: params.active !== false,
      currency: String(params.currency).toLowerCase(),
      product: String(params.product),
      unit_amount: Number(params.unit_amount),
      nickname: str(params.nickname) ?? null,
      lookup_key: str(params.lookup_key) ?? null,
      metadata: meta(params.metadata),
      type: recurring ? 'recurring' : 'one_time',
      billing_scheme: 'per_unit',
      recurring: recurring
        ? {
            interval: recurring.interval,
            interval_count: recurring.interval_count ?? 1,
            usage_type: 'licensed',
          }
        : null,
    });
    this.emit('price.created', price);
    return price;
  }

  /** GetPrices. */
  listPrices(params: CheckedParams): StripeList<StripePrice> {
    const keys = params.lookup_keys as string[] | undefined;
    const prices = this.all(
      'price',
      (price) =>
        (params.product === undefined || price.product === params.product) &&
        (params.active === undefined || price.active === params.active) &&
        (params.currency === undefined ||
          price.currency === String(params.currency).toLowerCase()) &&
        (params.type === undefined || price.type === params.type) &&
        (keys === undefined || (price.lookup_key !== null && keys.includes(price.lookup_key))),
    );
    return listPage(prices, params as PageParams, '/v1/prices');
  }

  /**
   * PostCoupons: exactly one of `percent_off` and `amount_off` (the latter with `currency`);
   * `duration_in_months` only with `duration=repeating` (https://docs.stripe.com/api/coupons/create).
   */
  createCoupon(params: CheckedParams): StripeCoupon {
    if ((params.percent_off === undefined) === (params.amount_off === undefined))
      throw invalidRequest(
        'You must pass exactly one of percent_off or amount_off.',
        'percent_off',
      );
    if (params.amount_off !== undefined && params.currency === undefined)
      throw invalidRequest(
        'You must pass currency when passing amount_off.',
        'currency',
        'parameter_missing',
      );
    const duration = (str(params.duration) ?? 'once') as StripeCoupon['duration'];
    if ((duration === 'repeating') !== (params.duration_in_months !== undefined))
      throw invalidRequest(
        'duration_in_months is required with, and only with, duration=repeating.',
        'duration_in_months',
      );
    const id = str(params.id) ?? newId('x').slice(2, 10);
    if (this.objects.has(id))
      throw invalidRequest('Coupon already exists.', 'id', 'resource_already_exists');
    const coupon = this.add<StripeCoupon>({
      id,
      object: 'coupon',
      created: nowSeconds(),
      livemode: false,
      name: str(params.name) ?? null,
      percent_off: (params.percent_off as number | undefined) ?? null,
      amount_off: (params.amount_off as number | undefined) ?? null,
      currency: params.currency === undefined ? null : String(params.currency).toLowerCase(),
      duration,
      duration_in_months: (params.duration_in_months as number | undefined) ?? null,
      max_redemptions: (params.max_redemptions as number | undefined) ?? null,
      times_redeemed: 0,
      valid: true,
      metadata: meta(params.metadata),
    });
    this.emit('coupon.created', coupon);
    return coupon;
  }

  /**
   * PostCheckoutSessions, `mode=subscription` only (Grove's use): `line_items` of recurring prices
   * in one currency, `success_url` required (the hosted page redirects there), at most one of
   * `customer` and `customer_email`. The session's `url` is the sandbox's hosted page.
   */
  createCheckoutSession(params: CheckedParams, urls: PageUrls): StripeCheckoutSession {
    if (params.mode === undefined)
      throw invalidRequest('Missing required param: mode.', 'mode', 'parameter_missing');
    if (params.mode !== 'subscription')
      throw invalidRequest('The sandbox serves Checkout in mode subscription only.', 'mode');
    const lines = (params.line_items as { price?: string; quantity?: number }[] | undefined) ?? [];
    if (lines.length === 0)
      throw invalidRequest(
        'Missing required param: line_items.',
        'line_items',
        'parameter_missing',
      );
    if (params.success_url === undefined)
      throw invalidRequest(
        'Missing required param: success_url.',
        'success_url',
        'parameter_missing',
      );
    if (params.customer !== undefined && params.customer_email !== undefined)
      throw invalidRequest(
        'You may only specify one of these parameters: customer, customer_email.',
        'customer_email',
      );
    if (params.customer !== undefined) this.get('customer', String(params.customer), 'customer');
    const items = lines.map((line, index) => {
      if (line.price === undefined)
        throw invalidRequest(
          `Missing required param: line_items[${index}][price].`,
          `line_items[${index}][price]`,
          'parameter_missing',
        );
      const price = this.get('price', line.price, `line_items[${index}][price]`);
      if (!price.recurring)
        throw invalidRequest(
          'You must provide at least one recurring price in `subscription` mode when using prices.',
          `line_items[${index}][price]`,
        );
      return {
        price: price.id,
        quantity: line.quantity ?? 1,
        unitAmount: price.unit_amount ?? 0,
        currency: price.currency,
      };
    });
    if (new Set(items.map((item) => item.currency)).size > 1)
      throw invalidRequest('All prices must be in the same currency.', 'line_items');
    const coupons = this.coupons(params.discounts);
    const subtotal = items.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
    const id = newId('cs_test');
    const now = nowSeconds();
    const session = this.add<StripeCheckoutSession>({
      id,
      object: 'checkout.session',
      created: now,
      livemode: false,
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      url: urls.checkout(id),
      success_url: String(params.success_url),
      cancel_url: str(params.cancel_url) ?? null,
      customer: str(params.customer) ?? null,
      customer_email: str(params.customer_email) ?? null,
      customer_details: null,
      client_reference_id: str(params.client_reference_id) ?? null,
      subscription: null,
      invoice: null,
      currency: items[0].currency,
      amount_subtotal: subtotal,
      amount_total: this.discounted(subtotal, coupons),
      expires_at: now + 24 * 3600,
      metadata: meta(params.metadata),
    });
    const subscriptionData = params.subscription_data as
      { metadata?: Record<string, string> } | undefined;
    this.purchases.set(id, {
      items: items.map(({ price, quantity }) => ({ price, quantity })),
      coupons,
      subscriptionMetadata: meta(subscriptionData?.metadata),
    });
    return session;
  }

  /** PostBillingPortalSessions: a portal session for an existing customer. */
  createPortalSession(params: CheckedParams, urls: PageUrls): StripePortalSession {
    const customer = this.get('customer', String(params.customer), 'customer');
    const id = newId('bps');
    return this.add<StripePortalSession>({
      id,
      object: 'billing_portal.session',
      created: nowSeconds(),
      livemode: false,
      customer: customer.id,
      return_url: str(params.return_url) ?? null,
      url: urls.portal(id),
      configuration: 'bpc_sandbox_default',
      locale: null,
      on_behalf_of: null,
      flow: null,
    });
  }

  /** GetSubscriptions: `status` defaults to every status but canceled (Stripe's default). */
  listSubscriptions(params: CheckedParams): StripeList<StripeSubscription> {
    const status = str(params.status);
    const found = this.all(
      'subscription',
      (subscription) =>
        (params.customer === undefined || subscription.customer === params.customer) &&
        (params.price === undefined ||
          subscription.items.data.some((item) => item.price.id === params.price)) &&
        (status === 'all' ||
          (status === undefined
            ? subscription.status !== 'canceled'
            : subscription.status === status ||
              (status === 'ended' && subscription.status === 'canceled'))) &&
        inRange(subscription.created, params.created),
    );
    return listPage(found, params as PageParams, '/v1/subscriptions');
  }

  /** GetInvoices. */
  listInvoices(params: CheckedParams): StripeList<StripeInvoice> {
    const found = this.all(
      'invoice',
      (invoice) =>
        (params.customer === undefined || invoice.customer === params.customer) &&
        (params.subscription === undefined || invoice.subscription === params.subscription) &&
        (params.status === undefined || invoice.status === params.status) &&
        inRange(invoice.created, params.created),
    );
    return listPage(found, params as PageParams, '/v1/invoices');
  }

  /**
   * The coupon ids of a checked `discounts` parameter (`discounts[n][coupon]`), each existing.
   * @throws StripeRequestError 400 for a promotion code (the sandbox applies coupons only), 404
   * for an unknown coupon
   */
  coupons(discounts: unknown): string[] {
    return ((discounts as { coupon?: string }[] | undefined) ?? []).map((discount, index) => {
      const param = `discounts[${index}][coupon]`;
      if (discount.coupon === undefined)
        throw invalidRequest('The sandbox applies coupons only: pass discounts[][coupon].', param);
      return this.get('coupon', discount.coupon, param).id;
    });
  }

  /**
   * An amount (cents) after the coupons: percent_off rounds to the nearest cent, amount_off
   * subtracts; never below 0.
   */
  discounted(amount: number, couponIds: readonly string[]): number {
    let total = amount;
    for (const couponId of couponIds) {
      const coupon = this.get('coupon', couponId);
      if (coupon.percent_off !== null) total -= Math.round((total * coupon.percent_off) / 100);
      if (coupon.amount_off !== null) total -= coupon.amount_off;
    }
    return Math.max(0, total);
  }
}

/** Whether `created` (Unix seconds) is within a `created` filter (an exact value or gt/gte/lt/lte). */
function inRange(created: number, filter: unknown): boolean {
  if (filter === undefined) return true;
  if (typeof filter === 'number') return created === filter;
  const range = filter as { gt?: number; gte?: number; lt?: number; lte?: number };
  return (
    (range.gt === undefined || created > range.gt) &&
    (range.gte === undefined || created >= range.gte) &&
    (range.lt === undefined || created < range.lt) &&
    (range.lte === undefined || created <= range.lte)
  );
}
