import type { AuthUser } from '../common/auth-user';

declare const businessScopeBrand: unique symbol;

/**
 * The business a repository call may reach: tenancy as a value. A repository method of a
 * business-owned table takes it as its FIRST parameter and filters every statement on its
 * `businessId`, so a call without one does not type-check. It is branded: a plain string or an
 * object literal is not a `BusinessScope`; it is made only from the session's `AuthUser`
 * (`sessionScope`), a job's payload that the session queued (`jobScope`) or a Mindbody webhook
 * delivery signed with that business's key (`webhookScope`), or a signed Stripe event naming
 * that business's Stripe customer (`stripeScope`).
 */
export interface BusinessScope {
  /** The business's uuid (`businesses.id`). */
  readonly businessId: string;
  readonly [businessScopeBrand]: true;
}

/** The scope of a signed-in request: the access token's business. */
export function sessionScope(user: Pick<AuthUser, 'businessId'>): BusinessScope {
  return { businessId: user.businessId } as BusinessScope;
}

/** The scope of a background job: the business its payload names (queued by that business's session). */
export function jobScope(payload: { businessId: string }): BusinessScope {
  return { businessId: payload.businessId } as BusinessScope;
}

/**
 * The scope of a Mindbody webhook delivery: the business whose subscription's signature key
 * verified the delivery's signature (`MindbodyService.receiveWebhook`).
 */
export function webhookScope(verified: { businessId: string }): BusinessScope {
  return { businessId: verified.businessId } as BusinessScope;
}

/**
 * The scope of a Stripe event (Grove's own bill): the one business whose Stripe customer the
 * event names (`business_billing.stripe_customer_id` is unique), or, for a completed Checkout
 * Session, the business Grove created that session for (`client_reference_id`). The event's
 * signature was verified first (`StripeEventsService.receive`).
 */
export function stripeScope(verified: { businessId: string }): BusinessScope {
  return { businessId: verified.businessId } as BusinessScope;
}

/**
 * The scope of a member page request: the business of the member session the request's member
 * cookie proved (`MemberSessionGuard`), made from a magic link that business's email carried; or,
 * for a new-link request, the business of a member row found by the email asked for (the link
 * goes to that member's own address only).
 */
export function memberScope(session: { businessId: string }): BusinessScope {
  return { businessId: session.businessId } as BusinessScope;
}
