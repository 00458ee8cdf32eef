import { periodEnd } from './billing-period';
import { newId, nowSeconds } from './ids';
import type { CheckedParams } from './param-validator';
import { StripeRequestError, invalidRequest } from './stripe-error';
import type {
  StripeCheckoutSession,
  StripeCustomer,
  StripeDiscount,
  StripeInvoice,
  StripePrice,
  StripeSubscription,
} from './stripe-objects';
import type { StripeStore } from './stripe-store';

/** Who pays on the hosted Checkout page (the form's fields). */
export interface CheckoutPayer {
  email?: string;
  name?: string;
}

/**
 * The billing life of subscriptions, with the events Stripe sends for each step
 * (https://docs.stripe.com/billing/subscriptions/webhooks): paying a Checkout Session, updating a
 * subscription (PostSubscriptionsSubscriptionExposedId), cancelling at period end, renewals, a
 * failed payment and paying an open invoice. Amounts in cents, times Unix seconds.
 */
export class BillingFlows {
  /** The seeded members' Prices by `<cents>:<currency>` (one each, like a gym's plan list). */
  private readonly membershipPrices = new Map<string, StripePrice>();
  private membershipProduct: string | null = null;

  constructor(private readonly store: StripeStore) {}

  /**
   * Pays an open subscription-mode Checkout Session: the customer (created from `payer` when the
   * session names none), an active subscription with its current period, a paid invoice; the
   * session becomes complete/paid. Events, in Stripe's order: customer.created (when new),
   * customer.subscription.created, invoice.created, invoice.finalized, invoice.paid,
   * checkout.session.completed. @throws StripeRequestError 400 when the session is not open
   */
  completeCheckout(sessionId: string, payer: CheckoutPayer): StripeCheckoutSession {
    const session = this.store.get('checkout.session', sessionId);
    if (session.status !== 'open')
      throw invalidRequest(`This Checkout Session is ${session.status}.`);
    const purchase = this.store.purchase(sessionId);
    const email = session.customer_email ?? payer.email ?? null;
    const customer: StripeCustomer = session.customer
      ? this.store.get('customer', session.customer)
      : this.store.createCustomer({
          ...(email ? { email } : {}),
          ...(payer.name ? { name: payer.name } : {}),
        });
    const { subscription, invoice } = this.startSubscription(
      customer,
      purchase.items,
      purchase.coupons,
      purchase.subscriptionMetadata,
      session.currency,
    );
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      customer: customer.id,
      customer_details: {
        email: customer.email ?? email,
        name: customer.name ?? payer.name ?? null,
      },
      subscription: subscription.id,
      invoice: invoice.id,
      url: null,
    });
    this.store.emit('checkout.session.completed', session);
    return session;
  }

  /**
   * Starts an active subscription of `customer` to `items` (prices, quantities) with its current
   * period and a paid first invoice. Events: customer.subscription.created, invoice.created,
   * invoice.finalized, invoice.paid.
   */
  startSubscription(
    customer: StripeCustomer,
    lines: readonly { price: string; quantity: number }[],
    coupons: readonly string[],
    metadata: Record<string, string>,
    currency: string,
  ): { subscription: StripeSubscription; invoice: StripeInvoice } {
    const now = nowSeconds();
    const subscriptionId = newId('sub');
    const items = lines.map(({ price: priceId, quantity }) => {
      const price = this.store.get('price', priceId);
      return {
        id: newId('si'),
        object: 'subscription_item' as const,
        created: now,
        price: structuredClone(price),
        quantity,
        subscription: subscriptionId,
        current_period_start: now,
        current_period_end: periodEnd(
          now,
          price.recurring ?? { interval: 'month', interval_count: 1, usage_type: 'licensed' },
        ),
        metadata: {},
        discounts: [],
      };
    });
    const subscription = this.store.add<StripeSubscription>({
      id: subscriptionId,
      object: 'subscription',
      created: now,
      livemode: false,
      customer: customer.id,
      status: 'active',
      currency,
      description: null,
      items: {
        object: 'list',
        data: items,
        has_more: false,
        url: `/v1/subscription_items?subscription=${subscriptionId}`,
      },
      discounts: coupons.map((coupon) => this.discount(coupon, customer.id, subscriptionId).id),
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      start_date: now,
      billing_cycle_anchor: now,
      collection_method: 'charge_automatically',
      latest_invoice: null,
      metadata: { ...metadata },
    });
    this.store.emit('customer.subscription.created', subscription);
    const invoice = this.invoice(subscription, 'subscription_create');
    this.settle(invoice, true);
    return { subscription, invoice };
  }

  /**
   * A gym's member as the sandbox's control API seeds one: a customer (`email`, `name`) with an
   * active monthly subscription of `amount` cents in `currency` (one Price per amount and currency,
   * of the product "Membership") and its paid first invoice.
   */
  seedMember(input: {
    email: string;
    name: string;
    amount: number;
    currency: string;
    /** The customer's metadata (the Dashboard's customer metadata, e.g. `referred_by`). */
    metadata?: Record<string, string>;
  }): StripeSubscription {
    const currency = input.currency.toLowerCase();
    const key = `${input.amount}:${currency}`;
    const price = this.membershipPrices.get(key) ?? this.membershipPrice(input.amount, currency);
    this.membershipPrices.set(key, price);
    const customer = this.store.createCustomer({
      email: input.email,
      name: input.name,
      ...(input.metadata ? { metadata: input.metadata } : {}),
    });
    return this.startSubscription(customer, [{ price: price.id, quantity: 1 }], [], {}, currency)
      .subscription;
  }

  /**
   * Cancels a subscription at once (what the Dashboard's "Cancel immediately" does):
   * `canceled`, customer.subscription.deleted. @throws 400 when it is already canceled
   */
  cancelNow(id: string): StripeSubscription {
    const subscription = this.store.get('subscription', id, 'subscription');
    if (subscription.status === 'canceled') throw invalidRequest('This subscription is canceled.');
    const now = nowSeconds();
    Object.assign(subscription, { status: 'canceled', canceled_at: now, ended_at: now });
    this.store.emit('customer.subscription.deleted', subscription);
    return subscription;
  }

  /**
   * PostInvoicesCreatePreview for a subscription's next renewal (https://docs.stripe.com/api/invoices/create_preview):
   * `subscription`, or `customer` (its newest running subscription). The preview is not stored;
   * its id starts `upcoming_in_` and `next_payment_attempt` is the current period's end, the
   * totals after the subscription's discounts. @throws 400 `parameter_missing` without either,
   * 404 `invoice_upcoming_none` when the subscription is canceled or the customer has none
   */
  previewInvoice(params: CheckedParams): object {
    if (params.subscription === undefined && params.customer === undefined)
      throw invalidRequest('Missing required param: customer.', 'customer', 'parameter_missing');
    const subscription =
      params.subscription !== undefined
        ? this.store.get('subscription', String(params.subscription), 'subscription')
        : this.store.all(
            'subscription',
            (found) =>
              found.customer ===
                this.store.get('customer', String(params.customer), 'customer').id &&
              found.status !== 'canceled',
          )[0];
    if (
      !subscription ||
      subscription.status === 'canceled' ||
      (params.customer !== undefined && subscription.customer !== params.customer)
    )
      throw new StripeRequestError(404, {
        type: 'invalid_request_error',
        code: 'invoice_upcoming_none',
        message: `No upcoming invoices for customer: ${String(params.customer ?? subscription?.customer)}`,
      });
    const customer = this.store.get('customer', subscription.customer);
    const period = this.periodOf(subscription);
    const { subtotal, total } = this.amounts(subscription, period.end);
    return {
      id: newId('upcoming_in'),
      object: 'invoice',
      created: period.end,
      livemode: false,
      customer: customer.id,
      customer_email: customer.email,
      customer_name: customer.name,
      subscription: subscription.id,
      parent: {
        type: 'subscription_details',
        subscription_details: {
          subscription: subscription.id,
          metadata: { ...subscription.metadata },
        },
      },
      status: 'draft',
      billing_reason: 'upcoming',
      currency: subscription.currency,
      subtotal,
      total,
      amount_due: total,
      amount_paid: 0,
      amount_remaining: total,
      discounts: [...subscription.discounts],
      attempt_count: 0,
      attempted: false,
      next_payment_attempt: period.end,
      period_start: period.start,
      period_end: period.end,
      metadata: {},
    };
  }

  private membershipPrice(amount: number, currency: string): StripePrice {
    this.membershipProduct ??= this.store.createProduct({ name: 'Membership' }).id;
    return this.store.createPrice({
      product: this.membershipProduct,
      currency,
      unit_amount: amount,
      recurring: { interval: 'month' },
    });
  }

  /**
   * PostSubscriptionsSubscriptionExposedId: `discounts` replaces the subscription's discounts
   * ('' removes them; each `coupon` must exist), `cancel_at_period_end`, `metadata` (merged; ''
   * values remove keys, as Stripe does), `description`. Emits customer.subscription.updated with
   * `previous_attributes` when something changed. @throws 400 for a canceled subscription
   */
  updateSubscription(id: string, params: CheckedParams): StripeSubscription {
    const subscription = this.store.get('subscription', id, 'subscription_exposed_id');
    if (subscription.status === 'canceled')
      throw invalidRequest(
        'A canceled subscription can only update its cancellation_details and metadata.',
      );
    const previous: Record<string, unknown> = {};
    if (params.discounts !== undefined) {
      const wanted = params.discounts as { coupon?: string; discount?: string }[];
      // An existing discount of this subscription is kept as it is; a coupon makes a new one.
      // Everything is checked before anything changes.
      const chosen = wanted.map((item, index): { coupon: string } | { kept: string } => {
        if (item.discount === undefined) {
          const param = `discounts[${index}][coupon]`;
          if (item.coupon === undefined)
            throw invalidRequest(
              'The sandbox applies coupons only: pass discounts[][coupon].',
              param,
            );
          return { coupon: this.store.get('coupon', item.coupon, param).id };
        }
        const param = `discounts[${index}][discount]`;
        const discount = this.store.get('discount', item.discount, param);
        if (discount.subscription !== subscription.id)
          throw invalidRequest(`The discount ${item.discount} is not on this subscription.`, param);
        return { kept: discount.id };
      });
      previous.discounts = subscription.discounts;
      subscription.discounts = chosen.map((item) =>
        'kept' in item
          ? item.kept
          : this.discount(item.coupon, subscription.customer, subscription.id).id,
      );
    }
    if (
      params.cancel_at_period_end !== undefined &&
      params.cancel_at_period_end !== subscription.cancel_at_period_end
    ) {
      previous.cancel_at_period_end = subscription.cancel_at_period_end;
      previous.cancel_at = subscription.cancel_at;
      subscription.cancel_at_period_end = params.cancel_at_period_end === true;
      subscription.cancel_at = subscription.cancel_at_period_end
        ? this.periodOf(subscription).end
        : null;
    }
    if (params.metadata !== undefined) {
      previous.metadata = { ...subscription.metadata };
      for (const [key, value] of Object.entries(params.metadata as Record<string, string>))
        if (value === '') delete subscription.metadata[key];
        else subscription.metadata[key] = value;
      if (Object.keys(params.metadata as object).length === 0) subscription.metadata = {};
    }
    if (params.description !== undefined) {
      previous.description = subscription.description;
      subscription.description = params.description === '' ? null : String(params.description);
    }
    if (Object.keys(previous).length > 0)
      this.store.emit('customer.subscription.updated', subscription, previous);
    return subscription;
  }

  /**
   * Ends the current period now (a test clock's jump): a subscription set to cancel at period end
   * is canceled (customer.subscription.deleted); another renews with a paid invoice
   * (invoice.paid, customer.subscription.updated with the new period).
   */
  endPeriod(id: string): StripeSubscription {
    const subscription = this.store.get('subscription', id, 'subscription');
    if (subscription.status === 'canceled') throw invalidRequest('This subscription is canceled.');
    if (subscription.cancel_at_period_end) {
      const now = nowSeconds();
      Object.assign(subscription, { status: 'canceled', canceled_at: now, ended_at: now });
      this.store.emit('customer.subscription.deleted', subscription);
      return subscription;
    }
    const previous = { items: structuredClone(subscription.items) };
    this.advance(subscription);
    this.settle(this.invoice(subscription, 'subscription_cycle'), true);
    this.store.emit('customer.subscription.updated', subscription, previous);
    return subscription;
  }

  /**
   * The next renewal's payment fails: the period advances, its invoice stays open (attempt 1)
   * and the subscription becomes past_due. Events: invoice.created, invoice.finalized,
   * invoice.payment_failed, customer.subscription.updated. @returns the open invoice
   */
  failNextPayment(id: string): StripeInvoice {
    const subscription = this.store.get('subscription', id, 'subscription');
    if (subscription.status === 'canceled') throw invalidRequest('This subscription is canceled.');
    this.advance(subscription);
    const invoice = this.invoice(subscription, 'subscription_cycle');
    this.settle(invoice, false);
    if (subscription.status !== 'past_due') {
      subscription.status = 'past_due';
      this.store.emit('customer.subscription.updated', subscription, { status: 'active' });
    }
    return invoice;
  }

  /**
   * Pays an open invoice (a retry that succeeds): paid, invoice.paid; its past_due subscription
   * becomes active again (customer.subscription.updated). @throws 400 when it is not open
   */
  payInvoice(id: string): StripeInvoice {
    const invoice = this.store.get('invoice', id, 'invoice');
    if (invoice.status !== 'open') throw invalidRequest(`Invoice is already ${invoice.status}.`);
    this.settle(invoice, true);
    const subscription = invoice.subscription
      ? this.store.get('subscription', invoice.subscription)
      : undefined;
    if (subscription?.status === 'past_due') {
      subscription.status = 'active';
      this.store.emit('customer.subscription.updated', subscription, { status: 'past_due' });
    }
    return invoice;
  }

  /**
   * What the subscription's next invoice charges, cents: `subtotal` (unit amounts × quantities)
   * and `total` after its discounts (StripeStore.discounted) for an invoice made at `at` (Unix
   * seconds): a discount whose `end` (a `repeating` coupon's, `duration_in_months` after it was
   * applied) is at or before `at` no longer applies (https://docs.stripe.com/api/coupons/object).
   */
  amounts(subscription: StripeSubscription, at: number): { subtotal: number; total: number } {
    const subtotal = subscription.items.data.reduce(
      (sum, item) => sum + (item.price.unit_amount ?? 0) * item.quantity,
      0,
    );
    const coupons = subscription.discounts
      .map((id) => this.store.get('discount', id))
      .filter((discount) => discount.end === null || discount.end > at)
      .map((discount) => discount.source.coupon);
    return { subtotal, total: this.store.discounted(subtotal, coupons) };
  }

  /** The subscription's current period (of its first item), Unix seconds. */
  periodOf(subscription: StripeSubscription): { start: number; end: number } {
    const item = subscription.items.data[0];
    return { start: item.current_period_start, end: item.current_period_end };
  }

  private advance(subscription: StripeSubscription): void {
    for (const item of subscription.items.data) {
      item.current_period_start = item.current_period_end;
      item.current_period_end = periodEnd(
        item.current_period_start,
        item.price.recurring ?? { interval: 'month', interval_count: 1, usage_type: 'licensed' },
      );
    }
  }

  private discount(coupon: string, customer: string, subscription: string): StripeDiscount {
    const found = this.store.get('coupon', coupon);
    found.times_redeemed += 1;
    const start = nowSeconds();
    return this.store.add<StripeDiscount>({
      id: newId('di'),
      object: 'discount',
      source: { type: 'coupon', coupon },
      customer,
      subscription,
      start,
      end:
        found.duration === 'repeating' && found.duration_in_months !== null
          ? periodEnd(start, {
              interval: 'month',
              interval_count: found.duration_in_months,
              usage_type: 'licensed',
            })
          : null,
    });
  }

  /** A finalized (open) invoice for the subscription's current period, its discounts applied. */
  private invoice(
    subscription: StripeSubscription,
    reason: StripeInvoice['billing_reason'],
  ): StripeInvoice {
    const customer = this.store.get('customer', subscription.customer);
    const period = this.periodOf(subscription);
    const { subtotal, total } = this.amounts(subscription, period.start);
    const now = nowSeconds();
    const invoice = this.store.add<StripeInvoice>({
      id: newId('in'),
      object: 'invoice',
      created: now,
      livemode: false,
      customer: customer.id,
      customer_email: customer.email,
      customer_name: customer.name,
      subscription: subscription.id,
      parent: {
        type: 'subscription_details',
        subscription_details: {
          subscription: subscription.id,
          metadata: { ...subscription.metadata },
        },
      },
      status: 'open',
      billing_reason: reason,
      currency: subscription.currency,
      subtotal,
      total,
      amount_due: total,
      amount_paid: 0,
      amount_remaining: total,
      attempt_count: 0,
      attempted: false,
      period_start: period.start,
      period_end: period.end,
      status_transitions: { finalized_at: now, paid_at: null },
      hosted_invoice_url: null,
      metadata: {},
    });
    subscription.latest_invoice = invoice.id;
    this.store.emit('invoice.created', invoice);
    this.store.emit('invoice.finalized', invoice);
    return invoice;
  }

  /** One payment attempt on an open invoice: paid (invoice.paid) or failed (invoice.payment_failed). */
  private settle(invoice: StripeInvoice, succeeds: boolean): void {
    invoice.attempt_count += 1;
    invoice.attempted = true;
    if (succeeds) {
      Object.assign(invoice, {
        status: 'paid',
        amount_paid: invoice.amount_due,
        amount_remaining: 0,
        status_transitions: { ...invoice.status_transitions, paid_at: nowSeconds() },
      });
      this.store.emit('invoice.paid', invoice);
    } else this.store.emit('invoice.payment_failed', invoice);
  }
}
