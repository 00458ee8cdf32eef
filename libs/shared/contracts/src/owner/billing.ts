/**
 * Grove's own plan (issue 30; docs/product.md#overview: "$99 per month, free until your first 2
 * members arrive through Grove"). The pricing page, the footer, sign-up and the API's billing all
 * read this one constant: what the public pages promise is what Grove bills.
 */
export const GROVE_PLAN = {
  /** The monthly price in cents of `currency`. */
  monthlyPriceCents: 9_900,
  /** ISO 4217 code of the price the pages show. */
  currency: 'USD',
  /** Members who arrive through Grove before the business pays (docs/product.md#billing). */
  freeMembers: 2,
} as const;

/** The monthly price in whole dollars, as the public pages write it ("$99"). */
export const GROVE_MONTHLY_PRICE_DOLLARS = GROVE_PLAN.monthlyPriceCents / 100;

/**
 * Where a business stands with Grove's own bill (docs/product.md#billing):
 * - `free`: fewer than `GROVE_PLAN.freeMembers` members have arrived through Grove;
 * - `card-needed`: they have, and no subscription is paying (never started, or cancelled);
 * - `active`: the subscription is paid (also while it runs to the end of a cancelled period);
 * - `past-due`: the last payment failed and Stripe is retrying it.
 * `paused` (on the summary) says the grace period of `card-needed` or `past-due` is over.
 */
export type BillingState = 'free' | 'card-needed' | 'active' | 'past-due';

/** The query string Stripe Checkout returns the owner to Account Settings with. */
export const BILLING_RETURN_QUERY = 'billing';
