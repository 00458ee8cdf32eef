import type { MemberStatus, RewardPriceRule } from '@grove/contracts';
import type { BranchDetailDto, MemberRowDto } from './dto/member-row.dto';
import { rewardCapped, rowPriceCents } from '../pricing/price';
import { countingBranch, membershipEnded } from '../pricing/price.sql';

/**
 * What a member's status is made of, as its row reads it: `counting` is `countingBranch(m)`
 * (membership/pricing/price.sql.ts; `isCountingBranch` in price.ts) for the member as a branch; `ended` its Mindbody
 * membership or Stripe subscription having ended (`membershipEnded`); `suspended` its Mindbody
 * membership's `mindbody_suspended_at` being set.
 */
export interface StatusFacts {
  isBranch: boolean;
  counting: boolean;
  ended: boolean;
  suspended: boolean;
}

/**
 * The Status column (docs/product.md#states): 'Ended' when its Mindbody membership or its Stripe
 * subscription has ended,
 * 'Suspended' while it is suspended, 'Pending' for a branch that does not count yet
 * (docs/product.md#branch-qualification), else 'Active'.
 */
export function memberStatus(facts: StatusFacts): MemberStatus {
  if (facts.ended) return 'Ended';
  if (facts.suspended) return 'Suspended';
  if (facts.isBranch && !facts.counting) return 'Pending';
  return 'Active';
}

/**
 * SQL: `memberStatus` of `members` row `alias` (the same rule, for filtering and sorting in the
 * database): 'Ended', 'Suspended', 'Pending' or 'Active'.
 */
export const memberStatusSql = (alias: string): string =>
  `CASE WHEN ${membershipEnded(alias)} THEN 'Ended'
     WHEN ${alias}.mindbody_suspended_at IS NOT NULL THEN 'Suspended'
     WHEN ${alias}.referred_by_id IS NOT NULL AND NOT ${countingBranch(alias)} THEN 'Pending'
     ELSE 'Active' END`;

/** A member billed on the business's Stripe (issue 32): its subscription running, or ended. */
export type StripeBilling = 'running' | 'ended';

/** A member as read for the Branches table: its own columns plus its branch count. Money in cents. */
export interface MemberSummary {
  id: string;
  name: string;
  email: string;
  membershipPriceCents: number;
  discountCents: number;
  referredById: string | null;
  mindbodyClientId: string | null;
  /** Number of this member's branches that count now (`countingBranch`). */
  branchCount: number;
  /** The member's own state (`StatusFacts` without `isBranch`, which is `referredById` set). */
  state: Omit<StatusFacts, 'isBranch'>;
  /** The business's Mindbody discountOnReferral (cents), or null when not saved (docs/product.md#constants). */
  integrationDiscountCents?: number | null;
  /** Why a Mindbody membership shows no price, if it shows none (see `MindbodyPriceState`). */
  mindbodyPriceState?: MindbodyPriceState | null;
  /** What Mindbody will charge next (cents, tax included) and when (ISO), as Grove last read it. */
  mindbodyNextCharge?: { amountCents: number; on: string } | null;
  /** Mindbody's `ReferredBy` of a managed member: how they heard of the business, or null. */
  referralSource?: string | null;
  /** The business's reward and cap (docs/product.md#referrer-reward); absent: uncapped. */
  rewardRule?: RewardPriceRule;
  /** Billed on the business's Stripe (its imported subscription running or ended), else null. */
  stripeBilling?: StripeBilling | null;
  /** A Stripe-billed member's subscription currency (ISO 4217 as Stripe writes it, 'eur'). */
  stripeCurrency?: string | null;
  /** The business's saved Stripe discountOnReferral (cents), null while unsaved. */
  stripeDiscountCents?: number | null;
  /**
   * 'Add to Mindbody' at its approval (issue 33 item 4) not done yet: 'pending', or 'failed' with
   * why (`message`); null otherwise.
   */
  mindbodyClientRequest?: { state: 'pending' | 'failed'; message: string | null } | null;
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
 * - `branches` = number of branches that count now; `branchDetails` = all its branches, each
 *   with its status;
 * - `newPriceCents` = max(0, price − min(discount × branches, the business's cap))
 *   (docs/product.md#constants, docs/product.md#referrer-reward), or the unchanged membership
 *   price for members billed by Mindbody or on the business's Stripe (docs/product.md#constants);
 * - `rewardCapped: true` only for a hand-managed member whose branches would take it past the cap
 *   or below $0 (`rewardCapped`, docs/product.md#referrer-reward);
 * - `discountCents` = the member's own discount, or for Mindbody-managed members the integration's
 *   discountOnReferral (docs/product.md#constants), for Stripe-billed ones the Stripe
 *   integration's (0 until saved);
 * - `status` = `memberStatus` (docs/product.md#states); `managedByIntegration` = 'Mindbody' when
 *   imported from Mindbody, 'Stripe' when billed on the business's Stripe (issue 32), whose
 *   `currency` (ISO 4217, upper case) its amounts are in;
 * - `membershipPricePending: true` only for a Mindbody member not priced yet,
 *   `noAutopayContract: true` only for one without an autopay contract, `membershipEnded: true`
 *   only for one whose membership has ended (the table shows these instead of a price);
 * - `mindbodyReferralSource` only for a Mindbody member whose client has a `ReferredBy` label;
 * - `mindbodyNextCharge` only for a running Mindbody membership whose next charge Grove has read
 *   (issue 22: what Mindbody will actually charge, 'Mindbody will charge $X on 1 Dec');
 * - `mindbodyClientRequest` only for a member not yet a Mindbody client whose 'Add to Mindbody'
 *   (issue 33 item 4) is pending or failed (with the message shown to the owner);
 * - `stripeBilling` only for a member billed on the business's Stripe (issue 32): 'running', or
 *   'ended' once its subscription ended, when the status is 'Ended' too (the sync already leaves an
 *   ended friend out of its referrer's bill, docs/decisions/stripe-member-webhooks.md).
 *
 * @param member the member with its branch count (cents)
 * @param branchDetails the member's branches, in display order
 */
export function toMemberRow(member: MemberSummary, branchDetails: BranchDetailDto[]): MemberRowDto {
  const managed = member.mindbodyClientId !== null;
  const stripe = !managed && member.stripeBilling != null;
  // docs/product.md#constants: Mindbody rows show the integration's discountOnReferral (0 until
  // it is saved); Stripe-billed rows the Stripe integration's.
  const discountCents = managed
    ? (member.integrationDiscountCents ?? 0)
    : stripe
      ? (member.stripeDiscountCents ?? 0)
      : member.discountCents;
  const priceFacts = {
    managed: managed || stripe,
    membershipPriceCents: member.membershipPriceCents,
    discountCents,
    countingBranches: member.branchCount,
    rule: member.rewardRule,
  };
  return {
    id: member.id,
    memberName: member.name,
    memberEmail: member.email,
    membershipPriceCents: member.membershipPriceCents,
    discountCents,
    branches: member.branchCount,
    branchDetails,
    newPriceCents: rowPriceCents(priceFacts),
    ...(rewardCapped(priceFacts) ? { rewardCapped: true } : {}),
    status: memberStatus({
      isBranch: member.referredById !== null,
      ...member.state,
      ended: member.state.ended || member.stripeBilling === 'ended',
    }),
    managedByIntegration: managed ? 'Mindbody' : stripe ? 'Stripe' : null,
    ...(stripe && member.stripeCurrency ? { currency: member.stripeCurrency.toUpperCase() } : {}),
    ...(managed && member.mindbodyPriceState === 'pending' ? { membershipPricePending: true } : {}),
    ...(managed && member.mindbodyPriceState === 'no-autopay' ? { noAutopayContract: true } : {}),
    ...(managed && member.mindbodyPriceState === 'ended' ? { membershipEnded: true } : {}),
    ...(managed && member.mindbodyPriceState !== 'ended' && member.mindbodyNextCharge
      ? { mindbodyNextCharge: member.mindbodyNextCharge }
      : {}),
    ...(managed && member.referralSource ? { mindbodyReferralSource: member.referralSource } : {}),
    ...(member.stripeBilling ? { stripeBilling: member.stripeBilling } : {}),
    ...(!managed && member.mindbodyClientRequest
      ? {
          mindbodyClientRequest: {
            state: member.mindbodyClientRequest.state,
            ...(member.mindbodyClientRequest.message
              ? { message: member.mindbodyClientRequest.message }
              : {}),
          },
        }
      : {}),
    referringMemberId: member.referredById,
  };
}
