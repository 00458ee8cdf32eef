import {
  maxReferralDiscountCents,
  referralDiscount,
  rewardedBranches,
  UNCAPPED_PRICE_RULE,
  type MemberProjection,
  type RewardPriceRule,
} from '@grove/contracts';

// A member's price in TypeScript (docs/architecture.md#api-areas, "Where the price lives"): the
// one home of the rule docs/product.md#constants states. Its SQL twin is `price.sql.ts`
// (`countingBranch`, `effectivePrice`, the ledger lines); price-parity.integration-spec.ts runs
// both over the same rows on PostgreSQL and compares them row by row.

/**
 * A tree's price after its referral discounts (docs/product.md#constants,
 * docs/product.md#referrer-reward): membership price minus discount per referral times the number
 * of branches, that discount capped by the business's reward (`referralDiscount` of the contracts:
 * at most its percentage of the price and a twelfth of its yearly cap; nothing when the reward is
 * not the ongoing discount), floored at 0. All amounts in integer cents.
 *
 * The Mindbody autopay (docs/architecture.md#mindbody) applies the same rule and also takes the
 * discount for referee (docs/product.md#mindbody-stages stage 3/4 discounts form) from a member who
 * is itself a referred branch: `refereeDiscountCents` is that discount for such a member, 0 (the
 * default) for everyone else.
 *
 * @param membershipPriceCents the member's membership price, cents
 * @param discountCents discount per referral (per branch), cents
 * @param branches number of branches that count, ≥ 0
 * @param refereeDiscountCents discount for being referred, cents (0 unless the member is a branch)
 * @param rule the business's reward and cap (default: the ongoing discount, uncapped but the $0 floor)
 * @returns the new price in cents, never negative
 */
export function newPriceCents(
  membershipPriceCents: number,
  discountCents: number,
  branches: number,
  refereeDiscountCents = 0,
  rule: RewardPriceRule = UNCAPPED_PRICE_RULE,
): number {
  const referral = referralDiscount(membershipPriceCents, discountCents, branches, rule);
  return Math.max(0, membershipPriceCents - referral.discountCents - refereeDiscountCents);
}

/**
 * The price the Branches table shows in its Membership column (docs/product.md#constants): a
 * hand-managed tree's new price (`newPriceCents` with its own discount), a Mindbody member's
 * membership price as Grove last read it from Mindbody (the autopay, already discounted there), a
 * Stripe-billed member's subscription price (`managed` for both: the bill is the service's).
 * The TypeScript twin of `rowPrice` (price.sql.ts).
 */
export function rowPriceCents(row: {
  managed: boolean;
  membershipPriceCents: number;
  discountCents: number;
  countingBranches: number;
  /** The business's reward and cap (hand-managed rows; default uncapped). */
  rule?: RewardPriceRule;
}): number {
  return row.managed
    ? row.membershipPriceCents
    : newPriceCents(row.membershipPriceCents, row.discountCents, row.countingBranches, 0, row.rule);
}

/**
 * "Capped" on the Branches screen and the member's profile (docs/product.md#referrer-reward): a
 * hand-managed member whose counting branches would take more off than the business's cap allows
 * (past its percentage or yearly cap, or below $0). A Mindbody member's price is Mindbody's: never.
 */
export function rewardCapped(row: {
  managed: boolean;
  membershipPriceCents: number;
  discountCents: number;
  countingBranches: number;
  rule?: RewardPriceRule;
}): boolean {
  return (
    !row.managed &&
    referralDiscount(row.membershipPriceCents, row.discountCents, row.countingBranches, row.rule)
      .capped
  );
}

/** What decides whether a member, as a branch, lowers its referrer's price now. */
export interface BranchFacts {
  /** The member was referred (`referred_by_id` set). */
  isBranch: boolean;
  /** The business's counting rule has started it counting (`branch_counting_since` set). */
  countingStarted: boolean;
  /** Its Mindbody membership or its Stripe subscription has ended (`membershipEnded`). */
  ended: boolean;
  /** Its Mindbody membership is suspended (`mindbody_suspended_at` set). */
  suspended: boolean;
}

/**
 * "This branch lowers its referrer's price now" (docs/product.md#branch-qualification): a branch
 * the counting rule has started, whose Mindbody membership is neither ended nor suspended and
 * whose Stripe subscription has not ended. The
 * TypeScript twin of `countingBranch` (price.sql.ts).
 */
export function isCountingBranch(branch: BranchFacts): boolean {
  return branch.isBranch && branch.countingStarted && !branch.ended && !branch.suspended;
}

/** What a member's effective price depends on, as stored (cents). */
export interface EffectivePriceFacts {
  membershipPriceCents: number;
  /** The member's own discount per branch (used for hand-managed members). */
  discountCents: number;
  /** Branches of the member that count now (`isCountingBranch`). */
  countingBranches: number;
  /** The member was referred (a Mindbody member then takes the discount for referee). */
  isBranch: boolean;
  /**
   * Billed by Mindbody (`mindbody_client_id` set) or on the business's Stripe (`stripeBilled`):
   * its price is the billing service's bill with the integration's discounts.
   */
  managed: boolean;
  /** For a Mindbody member: its contracts were read and it has an autopay amount (a Stripe member: always). */
  autopayKnown: boolean;
  /** The business's saved discounts of that integration (cents), or null while unsaved (then 0 each). */
  integration: { onReferralCents: number; forRefereeCents: number } | null;
  /** The business's reward and cap (hand-managed members; default uncapped). */
  rule?: RewardPriceRule;
}

/**
 * The effective price (cents): what the member pays, as the ledger records it — the TypeScript
 * twin of `effectivePrice` (price.sql.ts):
 * - a hand-managed member: max(0, membership price − min(own discount × counting branches, the cap));
 * - a Mindbody member: the autopay Grove bills, `targetAutopayCents` with the integration's
 *   discounts (0 while unsaved); null while Grove has not read an autopay amount;
 * - a member billed on the business's Stripe: the same, with the Stripe integration's discounts
 *   on its subscription's price (always known).
 */
export function effectivePriceCents(member: EffectivePriceFacts): number | null {
  if (!member.managed)
    return newPriceCents(
      member.membershipPriceCents,
      member.discountCents,
      member.countingBranches,
      0,
      member.rule,
    );
  if (!member.autopayKnown) return null;
  return targetAutopayCents(
    {
      membershipPriceCents: member.membershipPriceCents,
      branches: member.countingBranches,
      isBranch: member.isBranch,
    },
    member.integration?.onReferralCents ?? 0,
    member.integration?.forRefereeCents ?? 0,
  );
}

/**
 * The autopay amount a managed member should pay (docs/product.md#constants,
 * docs/architecture.md#mindbody), cents: {@link newPriceCents} with the discount for referee when
 * the member is itself a referred branch: max(0, membership price − discountOnReferral × branches
 * − discountForReferee if a branch).
 * @param target the member's membership (autopay) price, counting branches and whether it is a branch
 * @param onReferralCents the integration's discountOnReferral, cents
 * @param forRefereeCents the integration's discountForReferee, cents
 */
export function targetAutopayCents(
  target: { membershipPriceCents: number; branches: number; isBranch: boolean },
  onReferralCents: number,
  forRefereeCents: number,
): number {
  return newPriceCents(
    target.membershipPriceCents,
    onReferralCents,
    target.branches,
    target.isBranch ? forRefereeCents : 0,
  );
}

/**
 * A hand-managed tree's price just before its newest counting branch (what "your price was $X"
 * says when a branch is approved): {@link newPriceCents} with one branch fewer (floor 0 branches).
 * @param tree its membership price, discount per branch and counting branches (cents)
 */
export function priceBeforeNewestBranchCents(tree: {
  membershipPriceCents: number;
  discountCents: number;
  branches: number;
  rule?: RewardPriceRule;
}): number {
  return newPriceCents(
    tree.membershipPriceCents,
    tree.discountCents,
    Math.max(0, tree.branches - 1),
    0,
    tree.rule,
  );
}

/** What a member's price depends on, as stored (cents). */
export interface MemberPriceFacts {
  membershipPriceCents: number;
  /** The member's own discount per branch (Grove-managed members). */
  discountCents: number;
  /**
   * True for a Mindbody member (the price is the autopay Mindbody bills) and a member billed on the
   * business's Stripe (the subscription's price with Grove's discount, issue 32).
   */
  managed: boolean;
  /** The amount the service bills (Mindbody's autopay Grove last saw or wrote; Stripe's), null when not known. */
  autopayCents: number | null;
  /** That integration's saved discountOnReferral, null when not saved. */
  integrationDiscountCents: number | null;
  /** Branches that count: approved and not ended. */
  countingBranches: number;
  /** The business's reward and cap (Grove-managed members; default uncapped). */
  rule?: RewardPriceRule;
}

/** A member's price now and their discount per counting branch, cents. */
export interface MemberPrice {
  /** Null for a Mindbody member whose autopay Grove has not read yet. */
  priceNowCents: number | null;
  discountPerBranchCents: number;
  /**
   * How much more branches may take off under the business's cap (cents, ≥ 0;
   * docs/product.md#referrer-reward), null when no cap applies (a Mindbody member).
   */
  capLeftCents?: number | null;
}

/**
 * The price a member pays now (docs/product.md#constants): max(0, membership price − discount ×
 * counting branches) for a Grove member; for a Mindbody member, the autopay amount Mindbody bills
 * (what Grove last read or wrote), with the integration's discountOnReferral per branch.
 */
export function memberPrice(facts: MemberPriceFacts): MemberPrice {
  if (facts.managed) {
    return {
      priceNowCents: facts.autopayCents,
      discountPerBranchCents: facts.integrationDiscountCents ?? 0,
      capLeftCents: null,
    };
  }
  const rule = facts.rule ?? UNCAPPED_PRICE_RULE;
  const now = referralDiscount(
    facts.membershipPriceCents,
    facts.discountCents,
    facts.countingBranches,
    rule,
  );
  return {
    priceNowCents: Math.max(0, facts.membershipPriceCents - now.discountCents),
    discountPerBranchCents: rule.ongoing ? facts.discountCents : 0,
    capLeftCents: Math.max(
      0,
      Math.min(
        maxReferralDiscountCents(facts.membershipPriceCents, rule) - now.discountCents,
        rule.maxBranches === null || rule.maxBranches === undefined
          ? Number.MAX_SAFE_INTEGER
          : (rule.maxBranches - rewardedBranches(facts.countingBranches, rule)) *
              facts.discountCents,
      ),
    ),
  };
}

/**
 * "N more friends → $X": the price after 1, 2, 3 more counting branches (docs/product.md#constants
 * formula, floor 0, and the business's cap: docs/product.md#referrer-reward), stopping after the
 * first that reaches 0 or the cap; none when the price is 0, unknown, the discount is 0 or the cap
 * is already reached.
 */
export function projections(price: MemberPrice): MemberProjection[] {
  const { priceNowCents, discountPerBranchCents, capLeftCents } = price;
  if (priceNowCents === null || priceNowCents === 0 || discountPerBranchCents <= 0) return [];
  const left = Math.min(capLeftCents ?? priceNowCents, priceNowCents);
  if (left <= 0) return [];
  const lines: MemberProjection[] = [];
  for (let friends = 1; friends <= 3; friends++) {
    const off = Math.min(discountPerBranchCents * friends, left);
    lines.push({ friends, priceCents: priceNowCents - off });
    if (off === left) break;
  }
  return lines;
}
