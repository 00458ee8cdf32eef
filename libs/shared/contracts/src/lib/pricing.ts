/**
 * A tree's price after its referral discounts (SPEC §9): membership price minus discount per
 * referral times the number of branches, floored at 0. All amounts in integer cents.
 *
 * @param membershipPriceCents the member's membership price, cents
 * @param discountCents discount per referral (per branch), cents
 * @param branches number of branches (referred members), ≥ 0
 * @returns the new price in cents, never negative
 */
export function newPriceCents(
  membershipPriceCents: number,
  discountCents: number,
  branches: number,
): number {
  return Math.max(0, membershipPriceCents - discountCents * branches);
}
