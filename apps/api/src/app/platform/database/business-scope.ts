import type { AuthUser } from '../common/auth-user';

declare const businessScopeBrand: unique symbol;

/**
 * The business a repository call may reach: tenancy as a value. A repository method of a
 * business-owned table takes it as its FIRST parameter and filters every statement on its
 * `businessId`, so a call without one does not type-check. It is branded: a plain string or an
 * object literal is not a `BusinessScope`; it is made only from the session's `AuthUser`
 * (`sessionScope`), a job's payload that the session queued (`jobScope`) or a Mindbody webhook
 * delivery signed with that business's key (`webhookScope`), or a signed Stripe event naming
 * that business's Stripe customer (`stripeScope`), or a staff invitation's link consumed in the
 * same transaction (`invitationScope`).
 */
export interface BusinessScope {
  /** The business's uuid (`businesses.id`). */
  readonly businessId: string;
  /**
   * Who acts in this scope, for the audit log (`platform/audit/`): the signed-in member of staff,
   * or Mindbody, Stripe or Grove itself. Absent: Grove (`system`).
   */
  readonly actor?: ScopeActor;
  readonly [businessScopeBrand]: true;
}

/** Who acts in a scope: a member of staff (their user id), or Mindbody, Stripe or Grove. */
export type ScopeActor =
  | { readonly kind: 'staff'; readonly userId: string }
  | { readonly kind: 'mindbody' | 'stripe' | 'system' };

/** The scope of a signed-in request: the access token's business, its user acting. */
export function sessionScope(
  user: Pick<AuthUser, 'businessId'> & Partial<Pick<AuthUser, 'userId'>>,
): BusinessScope {
  return {
    businessId: user.businessId,
    ...(user.userId ? { actor: { kind: 'staff', userId: user.userId } } : {}),
  } as BusinessScope;
}

/**
 * What a job's payload carries of its author (issue 34): the member of staff who queued it
 * (`actorUserId`), or an outside service (`actorKind`: a sync a Mindbody webhook queued is
 * Mindbody's); neither: the job acts as Grove (`system`).
 */
export interface JobActor {
  /** The member of staff who queued the job (their user id). */
  actorUserId?: string;
  /** Mindbody or Stripe, when their delivery queued the job. */
  actorKind?: 'mindbody' | 'stripe';
}

/**
 * The scope of a background job: the business its payload names (queued by that business's
 * session, or a delivery verified for it); its author is the payload's (`JobActor`): the member of
 * staff who queued it, or Mindbody or Stripe; neither (or an unknown kind): Grove.
 */
export function jobScope(payload: { businessId: string } & JobActor): BusinessScope {
  const actor: ScopeActor | undefined = payload.actorUserId
    ? { kind: 'staff', userId: payload.actorUserId }
    : payload.actorKind === 'mindbody' || payload.actorKind === 'stripe'
      ? { kind: payload.actorKind }
      : undefined;
  return { businessId: payload.businessId, ...(actor ? { actor } : {}) } as BusinessScope;
}

/**
 * What a job's payload carries of `scope`'s author (for `jobScope`): `{ actorUserId }` when a member
 * of staff acts, `{ actorKind }` when Mindbody or Stripe does, else nothing (the job then acts as
 * Grove).
 */
export function jobActor(scope: BusinessScope): JobActor {
  const actor = scope.actor;
  if (actor?.kind === 'staff') return { actorUserId: actor.userId };
  if (actor?.kind === 'mindbody' || actor?.kind === 'stripe') return { actorKind: actor.kind };
  return {};
}

/** `scope` with `actor` acting instead (e.g. Mindbody's changes inside an owner's sync). */
export function actingAs(scope: BusinessScope, actor: ScopeActor): BusinessScope {
  return { ...scope, actor } as BusinessScope;
}

/**
 * The scope of a Mindbody webhook delivery: the business whose subscription's signature key
 * verified the delivery's signature (`MindbodyService.receiveWebhook`).
 */
export function webhookScope(verified: { businessId: string }): BusinessScope {
  return { businessId: verified.businessId, actor: { kind: 'mindbody' } } as BusinessScope;
}

/**
 * The scope of a Stripe event (Grove's own bill): the one business whose Stripe customer the
 * event names (`business_billing.stripe_customer_id` is unique), or, for a completed Checkout
 * Session, the business Grove created that session for (`client_reference_id`). The event's
 * signature was verified first (`StripeEventsService.receive`).
 */
export function stripeScope(verified: { businessId: string }): BusinessScope {
  return { businessId: verified.businessId, actor: { kind: 'stripe' } } as BusinessScope;
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

/**
 * The scope of an invitation's acceptance (issue 34 item 1): the business of the pending
 * invitation whose link token (only its SHA-256 stored) was consumed in the same transaction
 * (`TeamRepository.consume`), the new member of staff acting.
 */
export function invitationScope(consumed: { businessId: string }, userId: string): BusinessScope {
  return { businessId: consumed.businessId, actor: { kind: 'staff', userId } } as BusinessScope;
}
