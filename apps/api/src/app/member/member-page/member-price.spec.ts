import type { MemberLedgerLine } from '@grove/contracts';
import { memberPrice, projections } from '../../membership/pricing/price';
import { DAYS_PER_MONTH, savedSoFarCents } from './member-price';

const facts = {
  membershipPriceCents: 10_000,
  discountCents: 1_500,
  managed: false,
  autopayCents: null,
  integrationDiscountCents: null,
  countingBranches: 2,
};

const line = (occurredAt: string, newPriceCents: number): MemberLedgerLine => ({
  occurredAt,
  reason: 'branch_added',
  oldPriceCents: null,
  newPriceCents,
  membershipPriceCents: 10_000,
});

describe('member price', () => {
  it('is the membership price minus the discount per counting branch, floor 0', () => {
    expect(memberPrice(facts)).toEqual({
      priceNowCents: 7_000,
      discountPerBranchCents: 1_500,
      capLeftCents: 7_000,
    });
    expect(memberPrice({ ...facts, countingBranches: 9 }).priceNowCents).toBe(0);
  });

  it("is the Mindbody autopay for a managed member, with the integration's discount", () => {
    expect(
      memberPrice({ ...facts, managed: true, autopayCents: 8_800, integrationDiscountCents: 500 }),
    ).toEqual({ priceNowCents: 8_800, discountPerBranchCents: 500, capLeftCents: null });
  });

  it("stops at the business's cap and projects no friend past it (docs/product.md#referrer-reward)", () => {
    const rule = { ongoing: true, capPercent: 40, yearlyCapCents: null };
    const price = memberPrice({ ...facts, countingBranches: 1, rule });
    expect(price).toEqual({
      priceNowCents: 8_500,
      discountPerBranchCents: 1_500,
      capLeftCents: 2_500,
    });
    expect(projections(price)).toEqual([
      { friends: 1, priceCents: 7_000 },
      { friends: 2, priceCents: 6_000 },
    ]);
    const full = memberPrice({ ...facts, countingBranches: 3, rule });
    expect(full.priceNowCents).toBe(6_000);
    expect(projections(full)).toEqual([]);
    const credit = memberPrice({ ...facts, rule: { ...rule, ongoing: false } });
    expect(credit).toEqual({ priceNowCents: 10_000, discountPerBranchCents: 0, capLeftCents: 0 });
  });

  it('counts at most the rewarded branches and projects no friend past them', () => {
    const rule = { ongoing: true, capPercent: 100, yearlyCapCents: null, maxBranches: 3 };
    const two = memberPrice({ ...facts, countingBranches: 2, rule });
    expect(two).toEqual({
      priceNowCents: 7_000,
      discountPerBranchCents: 1_500,
      capLeftCents: 1_500,
    });
    expect(projections(two)).toEqual([{ friends: 1, priceCents: 5_500 }]);
    const four = memberPrice({ ...facts, countingBranches: 4, rule });
    expect(four.priceNowCents).toBe(5_500);
    expect(projections(four)).toEqual([]);
  });

  it('projects the next friends until the price reaches 0', () => {
    expect(projections({ priceNowCents: 7_000, discountPerBranchCents: 1_500 })).toEqual([
      { friends: 1, priceCents: 5_500 },
      { friends: 2, priceCents: 4_000 },
      { friends: 3, priceCents: 2_500 },
    ]);
    expect(projections({ priceNowCents: 2_000, discountPerBranchCents: 1_500 })).toEqual([
      { friends: 1, priceCents: 500 },
      { friends: 2, priceCents: 0 },
    ]);
    expect(projections({ priceNowCents: 0, discountPerBranchCents: 1_500 })).toEqual([]);
    expect(projections({ priceNowCents: null, discountPerBranchCents: 1_500 })).toEqual([]);
  });

  it('prorates each discount per day until the next ledger line', () => {
    const start = '2026-01-01T00:00:00.000Z';
    const later = new Date(Date.parse(start) + DAYS_PER_MONTH * 86_400_000);
    // A full average month at $15 off, then half a month at $30 off.
    const secondAt = later.toISOString();
    const now = new Date(later.getTime() + (DAYS_PER_MONTH / 2) * 86_400_000);
    expect(savedSoFarCents([line(start, 8_500), line(secondAt, 7_000)], now)).toBe(1_500 + 1_500);
    expect(savedSoFarCents([], now)).toBe(0);
    expect(savedSoFarCents([line(start, 10_000)], now)).toBe(0);
  });
});
