import { Injectable } from '@nestjs/common';
import Stripe from 'stripe';
import { AppConfig } from '../../../platform/config/app-config';
import {
  StripeAccountUnavailableException,
  StripeKeyMissingPermissionsException,
  StripeKeyRefusedException,
} from '../stripe-members.exceptions';

/** One of a gym's active subscriptions as the import reads it. Money in cents. */
export interface GymSubscription {
  subscriptionId: string;
  customerId: string;
  /** The customer's email ('' when Stripe has none) and name ('' when none). */
  email: string;
  name: string;
  /** Lower-case ISO 4217. */
  currency: string;
  /** The sum of the items' `price.unit_amount × quantity`, cents a period. */
  priceCents: number;
  /** Its discounts' `di_…` ids, as Stripe lists them. */
  discountIds: string[];
  /**
   * The customer's `metadata.referred_by` (a key the gym may set: who referred them, an email or a
   * name as free text; docs/decisions/stripe-import-referrer.md), trimmed; null when absent or blank.
   */
  referredBy: string | null;
}

/** What the gym's subscription's next invoice charges (the upcoming invoice). */
export interface UpcomingCharge {
  amountCents: number;
  currency: string;
  /** When Stripe will charge it (`next_payment_attempt`, else the invoice's `created`). */
  at: Date;
}

/** Subscriptions per list page (Stripe's largest `limit`). */
export const GYM_PAGE_SIZE = 100;

/**
 * A gym's own Stripe account (issue 32), reached with its restricted key through the official
 * SDK (docs/stripe.md#member-billing): the same host as Grove's own billing (STRIPE_API_URL, the
 * stand-in in development and tests), 2 network retries (the SDK sends them with an idempotency
 * key) and a 10 s timeout. Errors become the module's exceptions: 401 → the key was refused,
 * 403 → a permission is missing, anything else → Stripe could not be reached (502).
 */
@Injectable()
export class GymStripeClient {
  constructor(private readonly config: AppConfig) {}

  /** The SDK for one gym's key. */
  private sdk(apiKey: string): Stripe {
    return new Stripe(apiKey, {
      ...(this.config.billing.stripeApi ?? {}),
      maxNetworkRetries: 2,
      timeout: 10_000,
      appInfo: { name: 'Grove' },
    });
  }

  /**
   * One page of the gym's active subscriptions with their customers
   * (`GET /v1/subscriptions?status=active&expand[]=data.customer&limit=100`), after `startingAfter`.
   * @throws StripeKeyRefusedException, StripeKeyMissingPermissionsException, StripeAccountUnavailableException
   */
  async activeSubscriptions(
    apiKey: string,
    startingAfter?: string,
    limit = GYM_PAGE_SIZE,
  ): Promise<{ items: GymSubscription[]; hasMore: boolean; lastId: string | null }> {
    const page = await this.call(() =>
      this.sdk(apiKey).subscriptions.list({
        status: 'active',
        limit,
        expand: ['data.customer'],
        ...(startingAfter ? { starting_after: startingAfter } : {}),
      }),
    );
    return {
      items: page.data.map(toGymSubscription),
      hasMore: page.has_more,
      lastId: page.data.at(-1)?.id ?? null,
    };
  }

  /**
   * One customer's active subscriptions with the customer
   * (`GET /v1/subscriptions?customer=…&status=active&expand[]=data.customer`): a webhook's view
   * of a friend who paid, read from Stripe rather than from the event.
   */
  async customerSubscriptions(apiKey: string, customerId: string): Promise<GymSubscription[]> {
    const page = await this.call(() =>
      this.sdk(apiKey).subscriptions.list({
        customer: customerId,
        status: 'active',
        limit: GYM_PAGE_SIZE,
        expand: ['data.customer'],
      }),
    );
    return page.data.map(toGymSubscription);
  }

  /**
   * When the customer first paid (`GET /v1/invoices?customer=…&status=paid`, every page: the
   * earliest `status_transitions.paid_at`), or null when no invoice is paid.
   */
  async firstPaidAt(apiKey: string, customerId: string): Promise<Date | null> {
    let earliest: number | null = null;
    let startingAfter: string | undefined;
    for (;;) {
      const page = await this.call(() =>
        this.sdk(apiKey).invoices.list({
          customer: customerId,
          status: 'paid',
          limit: GYM_PAGE_SIZE,
          ...(startingAfter ? { starting_after: startingAfter } : {}),
        }),
      );
      for (const invoice of page.data) {
        const paidAt = invoice.status_transitions.paid_at ?? invoice.created;
        if (earliest === null || paidAt < earliest) earliest = paidAt;
      }
      startingAfter = page.data.at(-1)?.id;
      if (!page.has_more || !startingAfter) break;
    }
    return earliest === null ? null : new Date(earliest * 1000);
  }

  /**
   * Whether the subscription has ended as Stripe has it now
   * (`GET /v1/subscriptions/{id}`: `canceled` or `incomplete_expired`; a deleted one answers 404,
   * also ended).
   */
  async subscriptionEnded(apiKey: string, subscriptionId: string): Promise<boolean> {
    try {
      const subscription = await this.call(() =>
        this.sdk(apiKey).subscriptions.retrieve(subscriptionId),
      );
      return subscription.status === 'canceled' || subscription.status === 'incomplete_expired';
    } catch (error) {
      if (
        error instanceof StripeAccountUnavailableException &&
        error.stripeCode === 'resource_missing'
      )
        return true;
      throw error;
    }
  }

  /**
   * The `amount_off`, `duration: forever` coupon of `amountCents` in `currency`
   * (https://docs.stripe.com/api/coupons/create), sent with `idempotencyKey` so a retry or a
   * second run makes no second coupon. @returns its id
   */
  async createCoupon(
    apiKey: string,
    amountCents: number,
    currency: string,
    idempotencyKey: string,
  ): Promise<string> {
    const coupon = await this.call(() =>
      this.sdk(apiKey).coupons.create(
        {
          amount_off: amountCents,
          currency,
          duration: 'forever',
          name: 'Grove referral discount',
          metadata: { grove: 'referral-discount' },
        },
        { idempotencyKey },
      ),
    );
    return coupon.id;
  }

  /**
   * Sets a subscription's discounts (https://docs.stripe.com/api/subscriptions/update): the gym's
   * own (`keep`, kept as they are) and Grove's coupon when given; none at all sends `''` (Stripe's
   * way to empty the list). @returns the `di_…` id of Grove's discount, or null without a coupon
   */
  async setDiscounts(
    apiKey: string,
    subscriptionId: string,
    keep: readonly string[],
    couponId: string | null,
    idempotencyKey: string,
  ): Promise<string | null> {
    const discounts = [
      ...keep.map((discount) => ({ discount })),
      ...(couponId ? [{ coupon: couponId }] : []),
    ];
    const updated = await this.call(() =>
      this.sdk(apiKey).subscriptions.update(
        subscriptionId,
        {
          discounts: discounts.length > 0 ? discounts : '',
          proration_behavior: 'none',
          expand: ['discounts'],
        },
        { idempotencyKey },
      ),
    );
    if (!couponId) return null;
    const ours = updated.discounts.find(
      (discount) => typeof discount !== 'string' && discount.source?.coupon === couponId,
    );
    return typeof ours === 'object' ? ours.id : null;
  }

  /**
   * The subscription's next charge (`POST /v1/invoices/create_preview`: the `stripe` SDK's
   * upcoming invoice; nothing is written), or null when it has none (Stripe's 404
   * `invoice_upcoming_none`, e.g. it ended).
   * @param timeoutMs when given, one attempt of at most this long (the SDK's per-request `timeout`,
   *   no network retry) instead of the client's 10 s and 2 retries: the member page's budget
   */
  async upcomingCharge(
    apiKey: string,
    subscriptionId: string,
    timeoutMs?: number,
  ): Promise<UpcomingCharge | null> {
    try {
      const invoice = await this.call(() =>
        this.sdk(apiKey).invoices.createPreview(
          { subscription: subscriptionId },
          timeoutMs === undefined ? undefined : { timeout: timeoutMs, maxNetworkRetries: 0 },
        ),
      );
      return {
        amountCents: invoice.amount_due,
        currency: invoice.currency,
        at: new Date((invoice.next_payment_attempt ?? invoice.created) * 1000),
      };
    } catch (error) {
      if (
        error instanceof StripeAccountUnavailableException &&
        error.stripeCode === 'invoice_upcoming_none'
      )
        return null;
      throw error;
    }
  }

  /**
   * The gym's customers with exactly this email (`GET /v1/customers?email=…`, Stripe's exact,
   * case-sensitive match; at most 100), newest first: an approved friend's customer.
   */
  async customersByEmail(apiKey: string, email: string): Promise<string[]> {
    const page = await this.call(() =>
      this.sdk(apiKey).customers.list({ email, limit: GYM_PAGE_SIZE }),
    );
    return page.data.map((customer) => customer.id);
  }

  /**
   * The discount of the welcome offer `grantId` already on the subscription
   * (`GET /v1/subscriptions/{id}?expand[]=discounts.source.coupon`: the discount whose coupon's
   * `metadata.grove_grant` is the grant, as `createRepeatingCoupon` writes it), or null. Read
   * before writing, so a write Stripe took but Grove did not record is recorded, not repeated,
   * however long after (idempotency keys last 24 hours).
   */
  async welcomeDiscountOn(
    apiKey: string,
    subscriptionId: string,
    grantId: string,
  ): Promise<{ discountId: string; couponId: string } | null> {
    const subscription = await this.call(() =>
      this.sdk(apiKey).subscriptions.retrieve(subscriptionId, {
        expand: ['discounts.source.coupon'],
      }),
    );
    for (const discount of subscription.discounts) {
      const coupon = typeof discount === 'string' ? null : discount.source?.coupon;
      if (coupon && typeof coupon === 'object' && coupon.metadata?.grove_grant === grantId)
        return { discountId: (discount as Stripe.Discount).id, couponId: coupon.id };
    }
    return null;
  }

  /**
   * A friend's welcome offer as a `repeating` coupon (https://docs.stripe.com/api/coupons/create):
   * `duration_in_months` = the offer's months, `amount_off` (cents, in `currency`, the
   * subscription's) or `percent_off`, `metadata.grove_grant` = `grantId` (how `welcomeDiscountOn`
   * finds it); sent with `grove-welcome-coupon-<grant>` as idempotency key so a retry makes no
   * second coupon. @returns its id
   */
  async createRepeatingCoupon(
    apiKey: string,
    coupon: { amountOffCents: number | null; percentOff: number | null; months: number },
    currency: string,
    grantId: string,
  ): Promise<string> {
    const created = await this.call(() =>
      this.sdk(apiKey).coupons.create(
        {
          ...(coupon.amountOffCents !== null
            ? { amount_off: coupon.amountOffCents, currency }
            : { percent_off: coupon.percentOff ?? 0 }),
          duration: 'repeating',
          duration_in_months: coupon.months,
          name: 'Grove welcome offer',
          metadata: { grove: 'welcome-offer', grove_grant: grantId },
        },
        { idempotencyKey: `grove-welcome-coupon-${grantId}` },
      ),
    );
    return created.id;
  }

  /**
   * A credit on the customer's balance, which Stripe takes off their next invoices
   * (`POST /v1/customers/{id}/balance_transactions` with a negative `amount`,
   * https://docs.stripe.com/api/customer_balance_transactions/create), sent with `idempotencyKey`
   * so it is written once whatever retries. @returns the `cbtxn_…` id
   */
  async creditBalance(
    apiKey: string,
    customerId: string,
    credit: { amountCents: number; currency: string; description: string },
    idempotencyKey: string,
  ): Promise<string> {
    const transaction = await this.call(() =>
      this.sdk(apiKey).customers.createBalanceTransaction(
        customerId,
        {
          amount: -credit.amountCents,
          currency: credit.currency,
          description: credit.description,
          metadata: { grove: 'referrer-reward' },
        },
        { idempotencyKey },
      ),
    );
    return transaction.id;
  }

  /**
   * Verifies a delivery from the gym's webhook endpoint with the SDK
   * (`Stripe.webhooks.constructEvent`: `Stripe-Signature` over the raw bytes, 300 s tolerance).
   * @throws the SDK's StripeSignatureVerificationError when it does not verify
   */
  verifyEvent(rawBody: Buffer, signature: string, secret: string): Stripe.Event {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret);
  }

  /** Runs one SDK call, turning Stripe's errors into the module's exceptions. */
  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof Stripe.errors.StripeAuthenticationError)
        throw new StripeKeyRefusedException();
      if (error instanceof Stripe.errors.StripePermissionError)
        throw new StripeKeyMissingPermissionsException(error.message);
      const code = error instanceof Stripe.errors.StripeError ? error.code : undefined;
      const refusal =
        error instanceof Stripe.errors.StripeInvalidRequestError ? error.message : undefined;
      throw new StripeAccountUnavailableException(code, refusal);
    }
  }
}

/** The import's view of a listed subscription (its customer expanded). */
function toGymSubscription(subscription: Stripe.Subscription): GymSubscription {
  const customer = subscription.customer;
  const expanded = typeof customer === 'object' && !('deleted' in customer && customer.deleted);
  return {
    subscriptionId: subscription.id,
    customerId: typeof customer === 'string' ? customer : customer.id,
    email: expanded ? ((customer as Stripe.Customer).email ?? '') : '',
    name: expanded ? ((customer as Stripe.Customer).name ?? '') : '',
    currency: subscription.currency,
    priceCents: subscription.items.data.reduce(
      (sum, item) => sum + (item.price.unit_amount ?? 0) * (item.quantity ?? 1),
      0,
    ),
    discountIds: subscription.discounts.map((discount) =>
      typeof discount === 'string' ? discount : discount.id,
    ),
    referredBy: expanded
      ? (customer as Stripe.Customer).metadata?.referred_by?.trim() || null
      : null,
  };
}
