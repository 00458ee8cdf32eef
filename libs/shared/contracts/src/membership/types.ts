import type { operations, Schema } from '@grove/api-contract';
import { MESSAGES } from '../common/messages';
import type { MemberInput } from './members';
import type { ReferredByInput } from './referrals-to-match';

/**
 * A member's state on the Branches screen (docs/product.md#states): 'Ended' while its Mindbody
 * membership has ended, 'Suspended' while it is suspended, 'Pending' for a branch that does not
 * count yet under the business's rule (docs/product.md#branch-qualification), else 'Active'.
 */
export type MemberStatus = 'Active' | 'Pending' | 'Ended' | 'Suspended';

/** Every `MemberStatus`, in the order the Branches screen's filter and status sort use. */
export const MEMBER_STATUSES = [
  'Active',
  'Pending',
  'Suspended',
  'Ended',
] as const satisfies readonly MemberStatus[];

/** A branch as listed on its tree (docs/product.md#entities "Branch detail"). */
export type BranchDetail = Schema<'BranchDetail'>;

/**
 * Which integration manages a member, or null for members kept by hand: Mindbody, or Stripe for a
 * member billed on the business's Stripe (issue 32; its price is the subscription's).
 */
export type IntegrationName = 'Mindbody' | 'Stripe';

/** The badge of an integration-managed member (docs/product.md#branches): 'Managed by Mindbody' / 'Managed by Stripe'. */
export const MANAGED_BY_TEXT: Record<IntegrationName, string> = {
  Mindbody: MESSAGES.managedByMindbody,
  Stripe: MESSAGES.managedByStripe,
};

/** One row of the Branches screen (docs/product.md#branches, derived fields from docs/product.md#entities). */
export type MemberRow = Schema<'MemberRow'>;

/**
 * Sort keys of `GET /api/members`: name, email, branch count, join date (`createdAt`), the price
 * the table shows (`newPriceCents`) and status (in `MEMBER_STATUSES` order).
 */
export const MEMBER_SORT_KEYS = [
  'memberName',
  'memberEmail',
  'branches',
  'createdAt',
  'newPriceCents',
  'status',
] as const;
export type MemberSortKey = (typeof MEMBER_SORT_KEYS)[number];

/** `managed` filter of `GET /api/members`: Mindbody-managed rows, Stripe-billed rows, or Grove's own. */
export const MEMBER_MANAGED_FILTERS = ['mindbody', 'stripe', 'grove'] as const;
export type MemberManagedFilter = (typeof MEMBER_MANAGED_FILTERS)[number];

/** `hasLink` filter of `GET /api/members`: members with a live referral link, or without one. */
export const MEMBER_LINK_FILTERS = ['yes', 'no'] as const;
export type MemberLinkFilter = (typeof MEMBER_LINK_FILTERS)[number];

/** Page sizes the Branches screen offers (`pageSize` accepts 1–100). */
export const TREE_PAGE_SIZES = [25, 50, 100] as const;

/** Query of `GET /api/members` (the contract's `Members_list` parameters). */
export type ListMembersQuery = NonNullable<operations['Members_list']['parameters']['query']>;

/**
 * `GET /api/members`: a page of trees, and the names of the members the page's trees were
 * referred by (id → name; present when one of them was).
 */
export type MembersPage = Schema<'MembersPage'>;

/**
 * Body of `POST /api/members`: the member body (amounts in integer cents) and, optionally, who
 * referred them: its tree, or a name that matches no member (`ReferredByInput`, issue 33 item 4).
 */
export type CreateMemberRequest = MemberInput & ReferredByInput;
