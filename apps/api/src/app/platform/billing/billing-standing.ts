import type { BillingState } from '@grove/contracts';

/** What Grove knows of a business's bill, as `BusinessBillingRepository.facts` reads it. */
export interface BillingFacts {
  /** Members who arrived through Grove (approved friends who joined through a link). */
  membersThroughGrove: number;
  /** When the last free member arrived (the `freeMembers`-th approval); null before. */
  freeMembersUsedAt: Date | null;
  /** The earliest moment a grace period can start (`business_billing.counting_since`). */
  countingSince: Date;
  /** Stripe's subscription status as last read (`active`, `past_due`, `canceled`…); null: none. */
  subscriptionStatus: string | null;
  /** When the current failed payment was first seen; null when none is failing. */
  paymentFailedAt: Date | null;
  /** When the subscription ended (cancelled or expired); null while it runs. */
  subscriptionEndedAt: Date | null;
}

/** Where a business stands, as Billing, the banner and the pause rule see it. */
export interface BillingStanding {
  state: BillingState;
  /** Since when the business owes Grove (no card after its free members, or a failed payment). */
  owingSince: Date | null;
  /** When the grace period ends (owingSince + grace); null when nothing is owed. */
  graceEndsAt: Date | null;
  /** The grace period is over: approvals, imports and bill writes wait (docs/product.md#billing). */
  paused: boolean;
}

/** Stripe subscription statuses that pay (https://docs.stripe.com/billing/subscriptions/overview#subscription-statuses). */
const PAYING = new Set(['active', 'trialing']);
/** Statuses of a subscription whose renewal payment failed and is being retried. */
const FAILING = new Set(['past_due', 'unpaid']);

const latest = (dates: readonly (Date | null)[]): Date =>
  new Date(Math.max(...dates.filter((date): date is Date => date !== null).map(Number)));

/**
 * The docs/product.md#billing rule, as a pure function: free below `freeMembers` members through
 * Grove; paying while Stripe's subscription is `active`/`trialing`; past due while its renewal
 * fails (`past_due`, `unpaid`), owing since the failure; otherwise (never subscribed, `incomplete`
 * first payment, cancelled) a card is needed, owing since the last free member arrived, the
 * subscription ended, or billing started counting for the business, whichever is latest.
 * Paused once `graceSeconds` have passed since owing began.
 * @param now the moment to judge
 * @param graceSeconds seconds of grace (BILLING_GRACE_DAYS × 86,400)
 * @param freeMembers members free of charge (GROVE_PLAN.freeMembers)
 */
export function billingStanding(
  facts: BillingFacts,
  now: Date,
  graceSeconds: number,
  freeMembers: number,
): BillingStanding {
  const status = facts.subscriptionStatus;
  let state: BillingState;
  let owingSince: Date | null = null;
  if (status && PAYING.has(status)) state = 'active';
  else if (status && FAILING.has(status)) {
    state = 'past-due';
    owingSince = facts.paymentFailedAt ?? now;
  } else if (facts.membersThroughGrove < freeMembers) state = 'free';
  else {
    state = 'card-needed';
    owingSince = latest([facts.freeMembersUsedAt, facts.countingSince, facts.subscriptionEndedAt]);
  }
  const graceEndsAt = owingSince ? new Date(owingSince.getTime() + graceSeconds * 1000) : null;
  return { state, owingSince, graceEndsAt, paused: graceEndsAt !== null && now >= graceEndsAt };
}
