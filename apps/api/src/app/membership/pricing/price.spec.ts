import { UNCAPPED_PRICE_RULE, type RewardPriceRule } from '@grove/contracts';
import {
  effectivePriceCents,
  isCountingBranch,
  newPriceCents,
  priceBeforeNewestBranchCents,
  rewardCapped,
  rowPriceCents,
  type BranchFacts,
  type EffectivePriceFacts,
} from './price';

describe('newPriceCents (docs/product.md#constants)', () => {
  it('subtracts the discount once per branch', () => {
    expect(newPriceCents(10_000, 1_500, 0)).toBe(10_000);
    expect(newPriceCents(10_000, 1_500, 1)).toBe(8_500);
    expect(newPriceCents(10_000, 1_500, 3)).toBe(5_500);
  });

  it('never goes below zero', () => {
    expect(newPriceCents(5_000, 2_000, 3)).toBe(0);
    expect(newPriceCents(5_000, 2_000, 40)).toBe(0);
  });

  it('works in exact cents where floating dollars would drift', () => {
    // 0.1 + 0.2 style drift: $0.30 − 3 × $0.10 is exactly zero in cents
    expect(newPriceCents(30, 10, 3)).toBe(0);
    expect(newPriceCents(4_999, 333, 2)).toBe(4_333);
  });

  it('takes the discount for referee once, on top of the referral discounts, still floored at 0', () => {
    expect(newPriceCents(8_900, 1_000, 0, 550)).toBe(8_350);
    expect(newPriceCents(8_900, 1_000, 1, 550)).toBe(7_350);
    expect(newPriceCents(8_900, 1_000, 9, 550)).toBe(0);
    expect(newPriceCents(8_900, 1_000, 2, 0)).toBe(newPriceCents(8_900, 1_000, 2));
  });
});

const branch = (facts: Partial<BranchFacts> = {}): BranchFacts => ({
  isBranch: true,
  countingStarted: true,
  ended: false,
  suspended: false,
  ...facts,
});

const handMember = (facts: Partial<EffectivePriceFacts> = {}): EffectivePriceFacts => ({
  membershipPriceCents: 8_900,
  discountCents: 1_000,
  countingBranches: 0,
  isBranch: false,
  managed: false,
  autopayKnown: false,
  integration: null,
  ...facts,
});

const mindbodyMember = (facts: Partial<EffectivePriceFacts> = {}): EffectivePriceFacts =>
  handMember({
    managed: true,
    autopayKnown: true,
    discountCents: 0,
    integration: { onReferralCents: 1_000, forRefereeCents: 550 },
    ...facts,
  });

describe('a member’s price: scenarios (docs/product.md#constants, #branch-qualification)', () => {
  it('a tree with no branches pays its membership price', () => {
    expect(effectivePriceCents(handMember())).toBe(8_900);
  });

  it('each counting branch takes the tree’s own discount once', () => {
    expect(effectivePriceCents(handMember({ countingBranches: 2 }))).toBe(6_900);
  });

  it('a discount over the price → $0, never a credit', () => {
    expect(
      effectivePriceCents(
        handMember({ membershipPriceCents: 3_000, discountCents: 2_000, countingBranches: 2 }),
      ),
    ).toBe(0);
  });

  it('a branch still pending under the N-days rule does not count', () => {
    expect(isCountingBranch(branch({ countingStarted: false }))).toBe(false);
    expect(isCountingBranch(branch())).toBe(true);
  });

  it('a suspended Mindbody branch does not count; it counts again once resumed', () => {
    expect(isCountingBranch(branch({ suspended: true }))).toBe(false);
    expect(isCountingBranch(branch({ suspended: false }))).toBe(true);
  });

  it('an ended Mindbody membership stops counting as a branch', () => {
    expect(isCountingBranch(branch({ ended: true }))).toBe(false);
  });

  it('a member nobody referred is never a counting branch', () => {
    expect(isCountingBranch(branch({ isBranch: false }))).toBe(false);
  });

  it('a Mindbody member pays the autopay less discountOnReferral per counting branch', () => {
    expect(effectivePriceCents(mindbodyMember({ countingBranches: 2 }))).toBe(6_900);
  });

  it('a referred Mindbody member also takes the referee discount, once', () => {
    expect(effectivePriceCents(mindbodyMember({ isBranch: true }))).toBe(8_350);
    expect(effectivePriceCents(mindbodyMember({ isBranch: true, countingBranches: 1 }))).toBe(
      7_350,
    );
  });

  it('a Mindbody member uses the integration’s discount, not its own', () => {
    expect(effectivePriceCents(mindbodyMember({ discountCents: 5_000, countingBranches: 1 }))).toBe(
      7_900,
    );
  });

  it('a Mindbody member whose autopay Grove has not read has no price yet', () => {
    expect(effectivePriceCents(mindbodyMember({ autopayKnown: false }))).toBeNull();
  });

  it('unsaved Mindbody discounts take nothing off', () => {
    expect(
      effectivePriceCents(
        mindbodyMember({ integration: null, countingBranches: 3, isBranch: true }),
      ),
    ).toBe(8_900);
  });

  it('the price before the newest branch is the price with one branch fewer', () => {
    expect(
      priceBeforeNewestBranchCents({
        membershipPriceCents: 8_900,
        discountCents: 1_000,
        branches: 2,
      }),
    ).toBe(7_900);
    expect(
      priceBeforeNewestBranchCents({
        membershipPriceCents: 8_900,
        discountCents: 1_000,
        branches: 0,
      }),
    ).toBe(8_900);
  });
});

describe("each referrer reward in a member's price (docs/product.md#referrer-reward)", () => {
  const hand = (countingBranches: number, rule: RewardPriceRule) => ({
    managed: false,
    membershipPriceCents: 10_000,
    discountCents: 1_500,
    countingBranches,
    rule,
  });
  const notOngoing: RewardPriceRule = { ...UNCAPPED_PRICE_RULE, ongoing: false };

  it('the ongoing discount (the default) takes the discount per counting branch, floored at $0', () => {
    expect(rowPriceCents(hand(3, UNCAPPED_PRICE_RULE))).toBe(5_500);
    expect(rewardCapped(hand(3, UNCAPPED_PRICE_RULE))).toBe(false);
    expect(rowPriceCents(hand(7, UNCAPPED_PRICE_RULE))).toBe(0);
    expect(rewardCapped(hand(7, UNCAPPED_PRICE_RULE))).toBe(true);
  });

  it('a one-off credit, a free period or a gift leaves the price as it is, capping nothing', () => {
    expect(rowPriceCents(hand(5, notOngoing))).toBe(10_000);
    expect(rewardCapped(hand(5, notOngoing))).toBe(false);
    expect(newPriceCents(10_000, 1_500, 5, 0, notOngoing)).toBe(10_000);
  });

  it('a minimum price (at most 40% off) stops the price at 60% and says capped', () => {
    const rule = { ...UNCAPPED_PRICE_RULE, capPercent: 40 };
    expect(rowPriceCents(hand(2, rule))).toBe(7_000);
    expect(rewardCapped(hand(2, rule))).toBe(false);
    expect(rowPriceCents(hand(3, rule))).toBe(6_000);
    expect(rewardCapped(hand(3, rule))).toBe(true);
  });

  it('a cap of 3 rewarded branches: the 4th counts but takes nothing more off, and is capped', () => {
    const rule = { ...UNCAPPED_PRICE_RULE, maxBranches: 3 };
    expect(rowPriceCents(hand(3, rule))).toBe(5_500);
    expect(rowPriceCents(hand(4, rule))).toBe(5_500);
    expect(rewardCapped(hand(4, rule))).toBe(true);
  });

  it("never caps a member billed by Mindbody or Stripe: the bill is the service's", () => {
    const rule = { ...UNCAPPED_PRICE_RULE, maxBranches: 1, capPercent: 10 };
    expect(rewardCapped({ ...hand(4, rule), managed: true })).toBe(false);
    expect(rowPriceCents({ ...hand(4, rule), managed: true })).toBe(10_000);
  });
});
