import { Global, Injectable, Module } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { WelcomeOffer } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { EventBus } from '../../platform/events/event-bus';

/** A friend queued as a prospect through a member's link. */
export interface FriendJoinedEvent {
  prospectId: string;
  referrerId: string;
  friendName: string;
  /** The referrer's discount per branch (cents). */
  discountPerBranchCents: number;
}

/** A branch that started lowering its referrer's price (docs/product.md#branch-qualification). */
export interface BranchCountingEvent {
  branchId: string;
  friendName: string;
  referrerId: string;
  /** The referrer's price before and after the branch (cents). */
  priceBeforeCents: number;
  priceNowCents: number;
  /**
   * The open transaction that made the branch count, when there is one: the email is queued
   * inside it (a failure then rolls it back), so a crash after the commit cannot lose it.
   */
  manager?: EntityManager;
}

/** A prospect the owner approved: now a member and the referrer's branch. */
export interface BranchApprovedEvent {
  branchId: string;
  friendName: string;
  referrerId: string;
  referrerName: string;
  /** The referrer's price before and after the branch (cents). */
  priceBeforeCents: number;
  priceNowCents: number;
  /**
   * False when the business's rule leaves the new branch pending: then only the welcome goes now,
   * and "{friend} is now your branch" when it starts counting (`branchCounting`). Default true.
   */
  counting?: boolean;
  /**
   * The friend's welcome offer granted at this approval, worded (docs/product.md#welcome-offer);
   * null or absent when the business offers none. The welcome email states it.
   */
  welcomeOffer?: string | null;
  /**
   * The approval's open transaction: both emails are queued inside it (committed or rolled back
   * with the approval; a failure to queue rolls the approval back), so a crash after the commit
   * cannot lose them. Without it they are queued on their own and a failure is only logged.
   */
  manager?: EntityManager;
}

/**
 * Why a branch stopped counting (docs/product.md#account-settings 'A branch stopped counting'):
 * 'removed' when the owner removed it as a branch, or removed the friend (an owner's correction
 * says "{friend} no longer counts as your branch"), 'ended' when its membership ended or was
 * suspended in Mindbody ("{friend}'s membership ended").
 */
export type BranchEndedReason = 'removed' | 'ended';

/** A branch that stopped counting (owner removed it, or its membership ended). */
export interface BranchEndedEvent {
  branchId: string;
  friendName: string;
  referrerId: string;
  /** The referrer's price without the branch (cents). */
  priceNowCents: number;
  /** What happened, for the referrer's email's words. */
  reason: BranchEndedReason;
  /**
   * The open transaction that ended the branch, when there is one: the email is queued inside it
   * (committed or rolled back with it; a failure then rolls it back), so a crash after the commit
   * cannot lose it. Without it the email is queued on its own and a failure is only logged.
   */
  manager?: EntityManager;
}

/** A payload with the business it happened in. */
type InBusiness<Event> = { scope: BusinessScope } & Event;

/**
 * What membership (and the referral flows built on it) announce, by event name → payload
 * (docs/architecture.md#api-areas). Listeners live in the areas above: automatic referral links
 * (`referral/links-for-everyone`) and member emails (`member/member-notifications`).
 */
export interface MembershipEventMap {
  /**
   * Members just inserted by `manager`'s transaction (manual add, approval, CSV import); listeners
   * run inside that transaction and its failure rolls the addition back.
   */
  'members.added': { scope: BusinessScope; manager: EntityManager; memberIds: string[] };
  /** Members added by a bulk write (Mindbody import or sync) at or after `since` (database time). */
  'members.bulk-added': { scope: BusinessScope; since: Date };
  /** A friend queued as a prospect through a member's link (listeners may throw: the job retries). */
  'friend.joined': InBusiness<FriendJoinedEvent>;
  /** A prospect approved: now a member and the referrer's branch. */
  'branch.approved': InBusiness<BranchApprovedEvent>;
  /**
   * The owner approved a friend with 'Add to Mindbody' (issue 33 item 4): the new member's
   * Mindbody client is to be added (or an existing one linked). Listeners run inside the
   * approval's transaction (`manager`): the Mindbody integration queues its job there, and its
   * refusal (Mindbody not connected) rolls the approval back.
   */
  'member.mindbody-client-requested': {
    scope: BusinessScope;
    manager: EntityManager;
    memberId: string;
  };
  /**
   * A welcome offer granted to a friend a person approved (issue 33 item 1), inside the approval's
   * transaction (`manager`): the Stripe member billing marks it pending and queues its coupon's
   * job there; a listener's failure rolls the approval back.
   */
  'welcome-offer.granted': {
    scope: BusinessScope;
    manager: EntityManager;
    grantId: string;
    memberId: string;
    offer: WelcomeOffer;
  };
  /** A branch started lowering its referrer's price. */
  'branch.counting': InBusiness<BranchCountingEvent>;
  /** A branch stopped counting (removed by the owner, or its membership ended). */
  'branch.ended': InBusiness<BranchEndedEvent>;
}

/** Membership's announcements (`EventBus` over `MembershipEventMap`), injectable everywhere. */
@Injectable()
export class MembershipEvents extends EventBus<MembershipEventMap> {}

/** Provides the one `MembershipEvents` of the app (global: emitters and listeners share it). */
@Global()
@Module({ providers: [MembershipEvents], exports: [MembershipEvents] })
export class MembershipEventsModule {}
