/**
 * The Stripe objects the sandbox keeps, in Stripe's shapes (openapi/fixtures3.json at
 * github.com/stripe/openapi, API version 2025-03-31.basil and later: the current period is on
 * subscription items, an invoice names its subscription under `parent`). Only the fields Grove
 * reads and the ones every object carries are filled; amounts are integers in cents, times
 * Unix seconds, `livemode` is always false. Fields holding another object's id can be expanded.
 */

/** Fields every object carries. */
interface StripeObjectBase {
  id: string;
  created: number;
  livemode: false;
  metadata: Record<string, string>;
}

/** `cus_…` — https://docs.stripe.com/api/customers/object */
export interface StripeCustomer extends StripeObjectBase {
  object: 'customer';
  email: string | null;
  name: string | null;
  phone: string | null;
  description: string | null;
  balance: number;
  currency: string | null;
  delinquent: boolean;
  invoice_prefix: string;
  tax_exempt: 'none';
  preferred_locales: string[];
}

/**
 * `cbtxn_…`: a change of a customer's credit balance (negative: a credit) —
 * https://docs.stripe.com/api/customer_balance_transactions/object
 */
export interface StripeCustomerBalanceTransaction extends StripeObjectBase {
  object: 'customer_balance_transaction';
  amount: number;
  currency: string;
  customer: string;
  description: string | null;
  ending_balance: number;
  type: 'adjustment';
  credit_note: null;
  invoice: null;
}

/** `prod_…` — https://docs.stripe.com/api/products/object */
export interface StripeProduct extends StripeObjectBase {
  object: 'product';
  name: string;
  active: boolean;
  description: string | null;
  default_price: string | null;
  updated: number;
  type: 'service';
}

/** `price_…` — https://docs.stripe.com/api/prices/object */
export interface StripePrice extends StripeObjectBase {
  object: 'price';
  active: boolean;
  currency: string;
  product: string;
  unit_amount: number | null;
  nickname: string | null;
  lookup_key: string | null;
  type: 'one_time' | 'recurring';
  billing_scheme: 'per_unit';
  recurring: {
    interval: 'day' | 'week' | 'month' | 'year';
    interval_count: number;
    usage_type: 'licensed';
  } | null;
}

/** A coupon (id chosen by the caller or 8 characters) — https://docs.stripe.com/api/coupons/object */
export interface StripeCoupon extends StripeObjectBase {
  object: 'coupon';
  name: string | null;
  percent_off: number | null;
  amount_off: number | null;
  currency: string | null;
  duration: 'forever' | 'once' | 'repeating';
  duration_in_months: number | null;
  max_redemptions: number | null;
  times_redeemed: number;
  valid: boolean;
}

/** `di_…`: a coupon applied to a subscription — https://docs.stripe.com/api/discounts/object */
export interface StripeDiscount {
  id: string;
  object: 'discount';
  source: { type: 'coupon'; coupon: string };
  customer: string;
  subscription: string | null;
  start: number;
  end: number | null;
}

/** `si_…`: one price of a subscription, with its current period. */
export interface StripeSubscriptionItem {
  id: string;
  object: 'subscription_item';
  created: number;
  price: StripePrice;
  quantity: number;
  subscription: string;
  current_period_start: number;
  current_period_end: number;
  metadata: Record<string, string>;
  discounts: string[];
}

/** Subscription statuses the sandbox uses (https://docs.stripe.com/billing/subscriptions/overview#subscription-statuses). */
export type SubscriptionStatus = 'active' | 'past_due' | 'canceled';

/** `sub_…` — https://docs.stripe.com/api/subscriptions/object */
export interface StripeSubscription extends StripeObjectBase {
  object: 'subscription';
  customer: string;
  status: SubscriptionStatus;
  currency: string;
  description: string | null;
  items: { object: 'list'; data: StripeSubscriptionItem[]; has_more: false; url: string };
  /** `di_…` ids (expandable). */
  discounts: string[];
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  start_date: number;
  billing_cycle_anchor: number;
  collection_method: 'charge_automatically';
  latest_invoice: string | null;
}

/** Invoice statuses — https://docs.stripe.com/invoicing/overview#invoice-statuses */
export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';

/** `in_…` — https://docs.stripe.com/api/invoices/object */
export interface StripeInvoice extends StripeObjectBase {
  object: 'invoice';
  customer: string;
  customer_email: string | null;
  customer_name: string | null;
  subscription: string | null;
  parent: {
    type: 'subscription_details';
    subscription_details: { subscription: string; metadata: Record<string, string> };
  };
  status: InvoiceStatus;
  billing_reason: 'subscription_create' | 'subscription_cycle';
  currency: string;
  subtotal: number;
  total: number;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  period_start: number;
  period_end: number;
  status_transitions: { finalized_at: number | null; paid_at: number | null };
  hosted_invoice_url: string | null;
}

/** `cs_test_…` — https://docs.stripe.com/api/checkout/sessions/object */
export interface StripeCheckoutSession extends StripeObjectBase {
  object: 'checkout.session';
  mode: 'payment' | 'setup' | 'subscription';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  url: string | null;
  success_url: string | null;
  cancel_url: string | null;
  customer: string | null;
  customer_email: string | null;
  customer_details: { email: string | null; name: string | null } | null;
  client_reference_id: string | null;
  subscription: string | null;
  invoice: string | null;
  currency: string;
  amount_subtotal: number;
  amount_total: number;
  expires_at: number;
}

/** `bps_…` — https://docs.stripe.com/api/customer_portal/sessions/object */
export interface StripePortalSession {
  id: string;
  object: 'billing_portal.session';
  created: number;
  livemode: false;
  customer: string;
  return_url: string | null;
  url: string;
  configuration: string;
  locale: null;
  on_behalf_of: null;
  flow: null;
}

/** `evt_…` — https://docs.stripe.com/api/events/object */
export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: false;
  type: string;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}

/** A list reply — https://docs.stripe.com/api/pagination */
export interface StripeList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}
