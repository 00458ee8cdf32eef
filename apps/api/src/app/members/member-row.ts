import { newPriceCents, type BranchDetail, type MemberRow } from '@grove/contracts';

/** A member as read for the Branches table: its own columns plus its branch count. Money in cents. */
export interface MemberSummary {
  id: string;
  name: string;
  email: string;
  membershipPriceCents: number;
  discountCents: number;
  referredById: string | null;
  mindbodyClientId: string | null;
  /** Number of members whose `referred_by_id` is this member. */
  branchCount: number;
  /** The business's Mindbody discountOnReferral (cents), or null when not saved (docs/product.md#constants). */
  integrationDiscountCents?: number | null;
  /** Why a Mindbody membership shows no price, if it shows none (see `MindbodyPriceState`). */
  mindbodyPriceState?: MindbodyPriceState | null;
}

/**
 * Why a Mindbody membership shows no price:
 * - 'ended': the membership has ended (`mindbody_cancelled_at`: cancelled, expired or terminated);
 * - 'pending': Grove has not read its contracts yet (`mindbody_priced_at` is null: the import
 *   stores members first, the follow-up 'prices' job reads their contracts);
 * - 'no-autopay': read, and it has never had an autopay contract (`mindbody_autopay_cents` null).
 */
export type MindbodyPriceState = 'ended' | 'pending' | 'no-autopay';

/**
 * Builds one row of the Branches screen (docs/product.md#branches) with docs/product.md#entities's derived fields:
 * - `branches` = number of branches; `branchDetails` = those branches;
 * - `newPriceCents` = max(0, price − discount × branches) (docs/product.md#constants), or the unchanged membership
 *   price for Mindbody-managed members (docs/product.md#constants);
 * - `discountCents` = the member's own discount, or for Mindbody-managed members the integration's
 *   discountOnReferral (docs/product.md#constants);
 * - `status` is always 'Active' (docs/product.md#states); `managedByIntegration` = 'Mindbody' when imported;
 * - `membershipPricePending: true` only for a Mindbody member not priced yet,
 *   `noAutopayContract: true` only for one without an autopay contract, `membershipEnded: true`
 *   only for one whose membership has ended (the table shows these instead of a price).
 *
 * @param member the member with its branch count (cents)
 * @param branchDetails the member's branches, in display order
 */
export function toMemberRow(member: MemberSummary, branchDetails: BranchDetail[]): MemberRow {
  const managed = member.mindbodyClientId !== null;
  // docs/product.md#constants: Mindbody rows show the integration's discountOnReferral (0 until it is saved).
  const discountCents = managed ? (member.integrationDiscountCents ?? 0) : member.discountCents;
  return {
    id: member.id,
    memberName: member.name,
    memberEmail: member.email,
    membershipPriceCents: member.membershipPriceCents,
    discountCents,
    branches: member.branchCount,
    branchDetails,
    newPriceCents: managed
      ? member.membershipPriceCents
      : newPriceCents(member.membershipPriceCents, discountCents, member.branchCount),
    status: 'Active',
    managedByIntegration: managed ? 'Mindbody' : null,
    ...(managed && member.mindbodyPriceState === 'pending' ? { membershipPricePending: true } : {}),
    ...(managed && member.mindbodyPriceState === 'no-autopay' ? { noAutopayContract: true } : {}),
    ...(managed && member.mindbodyPriceState === 'ended' ? { membershipEnded: true } : {}),
    referringMemberId: member.referredById,
  };
}
