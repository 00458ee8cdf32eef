/**
 * A tree's price after its referral discounts (docs/product.md#constants): membership price minus discount per
 * referral times the number of branches, floored at 0. All amounts in integer cents.
 *
 * The Mindbody autopay (docs/architecture.md#mindbody) applies the same rule and also takes the discount for referee
 * (docs/product.md#mindbody-stages stage 3/4 discounts form) from a member who is itself a referred branch:
 * `refereeDiscountCents` is that discount for such a member, 0 (the default) for everyone else.
 *
 * @param membershipPriceCents the member's membership price, cents
 * @param discountCents discount per referral (per branch), cents
 * @param branches number of branches (referred members), ≥ 0
 * @param refereeDiscountCents discount for being referred, cents (0 unless the member is a branch)
 * @returns the new price in cents, never negative
 */
export function newPriceCents(
  membershipPriceCents: number,
  discountCents: number,
  branches: number,
  refereeDiscountCents = 0,
): number {
  return Math.max(0, membershipPriceCents - discountCents * branches - refereeDiscountCents);
}
