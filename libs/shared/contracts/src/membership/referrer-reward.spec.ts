import { businessLocale, localeFormats } from '../common/locale-format';
import {
  DEFAULT_REFERRER_REWARD,
  maxReferralDiscountCents,
  normalizeReferrerReward,
  referralDiscount,
  rewardedBranches,
  referrerRewardWording,
  REFERRER_REWARD_MESSAGES,
  owedRewardCapped,
  rewardsLeft,
  rewardsLeftWording,
  rewardYear,
  rewardPriceRule,
  UNCAPPED_PRICE_RULE,
  validateReferrerReward,
  type ReferrerReward,
} from './referrer-reward';

const au = localeFormats(businessLocale('AU'));
const reward = (fields: Partial<ReferrerReward>): ReferrerReward => ({
  ...DEFAULT_REFERRER_REWARD,
  ...fields,
});

describe('the cap in the price rule (docs/product.md#referrer-reward)', () => {
  it('by default the branches take off at most the whole price (the $0 floor), and say so past it', () => {
    expect(referralDiscount(8_900, 1_000, 3)).toEqual({ discountCents: 3_000, capped: false });
    expect(referralDiscount(3_000, 1_000, 3)).toEqual({ discountCents: 3_000, capped: false });
    expect(referralDiscount(3_000, 1_000, 4)).toEqual({ discountCents: 3_000, capped: true });
  });

  it('a maximum percentage stops the discount there, rounding the most off down to the cent', () => {
    const half = { ...UNCAPPED_PRICE_RULE, capPercent: 50 };
    expect(maxReferralDiscountCents(8_999, half)).toBe(4_499);
    expect(referralDiscount(8_999, 1_500, 3, half)).toEqual({ discountCents: 4_499, capped: true });
    expect(referralDiscount(8_999, 1_500, 2, half)).toEqual({
      discountCents: 3_000,
      capped: false,
    });
  });

  it('a yearly cap allows a twelfth of it each month, whichever cap is lower wins', () => {
    const yearly = { ...UNCAPPED_PRICE_RULE, yearlyCapCents: 24_000 };
    expect(maxReferralDiscountCents(8_900, yearly)).toBe(2_000);
    expect(referralDiscount(8_900, 1_000, 3, yearly)).toEqual({
      discountCents: 2_000,
      capped: true,
    });
    expect(maxReferralDiscountCents(3_000, { ...yearly, capPercent: 50 })).toBe(1_500);
  });

  it('a reward that is not the ongoing discount takes nothing off the price and caps nothing', () => {
    const credit = rewardPriceRule(reward({ kind: 'credit', creditCents: 2_500 }));
    expect(credit.ongoing).toBe(false);
    expect(referralDiscount(8_900, 1_000, 5, credit)).toEqual({ discountCents: 0, capped: false });
  });
});

describe('validateReferrerReward', () => {
  it('accepts each kind with its fields and the caps', () => {
    expect(validateReferrerReward(DEFAULT_REFERRER_REWARD)).toEqual({});
    expect(validateReferrerReward(reward({ kind: 'credit', creditCents: 2_500 }))).toEqual({});
    expect(
      validateReferrerReward(reward({ kind: 'free', freeCount: 52, freeUnit: 'week' })),
    ).toEqual({});
    expect(validateReferrerReward(reward({ kind: 'gift', giftText: ' a Grove hoodie ' }))).toEqual(
      {},
    );
    expect(validateReferrerReward(reward({ capPercent: 1, yearlyCapCents: 100_000_000 }))).toEqual(
      {},
    );
  });

  it('refuses each bad field with its message', () => {
    expect(validateReferrerReward({ ...DEFAULT_REFERRER_REWARD, kind: 'cash' })).toEqual({
      kind: REFERRER_REWARD_MESSAGES.kind,
    });
    expect(validateReferrerReward(reward({ kind: 'credit', creditCents: 12.5 }))).toEqual({
      creditCents: REFERRER_REWARD_MESSAGES.credit,
    });
    expect(
      validateReferrerReward(reward({ kind: 'free', freeCount: 13, freeUnit: 'month' })),
    ).toEqual({ freeCount: REFERRER_REWARD_MESSAGES.free });
    expect(
      validateReferrerReward({ ...reward({ kind: 'free', freeCount: 2 }), freeUnit: 'day' }),
    ).toEqual({ freeUnit: REFERRER_REWARD_MESSAGES.free });
    expect(validateReferrerReward(reward({ kind: 'gift', giftText: '   ' }))).toEqual({
      giftText: REFERRER_REWARD_MESSAGES.giftRequired,
    });
    expect(validateReferrerReward(reward({ kind: 'gift', giftText: 'x'.repeat(101) }))).toEqual({
      giftText: REFERRER_REWARD_MESSAGES.giftTooLong,
    });
    expect(validateReferrerReward(reward({ kind: 'gift', giftText: 'a\u0007b' }))).toEqual({
      giftText: REFERRER_REWARD_MESSAGES.giftNotPlain,
    });
    expect(validateReferrerReward(reward({ capPercent: 0 }))).toEqual({
      capPercent: REFERRER_REWARD_MESSAGES.capPercent,
    });
    expect(validateReferrerReward({ ...DEFAULT_REFERRER_REWARD, capPercent: '50' })).toEqual({
      capPercent: REFERRER_REWARD_MESSAGES.capPercent,
    });
    expect(validateReferrerReward(reward({ yearlyCapCents: 0 }))).toEqual({
      yearlyCapCents: REFERRER_REWARD_MESSAGES.yearlyCap,
    });
    expect(validateReferrerReward(reward({ maxBranchesPerYear: 0 }))).toEqual({
      maxBranchesPerYear: REFERRER_REWARD_MESSAGES.maxBranches,
    });
    expect(validateReferrerReward(reward({ maxBranchesPerYear: 2.5 }))).toEqual({
      maxBranchesPerYear: REFERRER_REWARD_MESSAGES.maxBranches,
    });
    expect(validateReferrerReward(reward({ maxBranchesPerYear: 1_001 }))).toEqual({
      maxBranchesPerYear: REFERRER_REWARD_MESSAGES.maxBranches,
    });
    expect(validateReferrerReward(reward({ maxBranchesPerYear: 1_000 }))).toEqual({});
  });

  it('normalises to the kind’s fields, the gift trimmed', () => {
    expect(
      normalizeReferrerReward({
        kind: 'gift',
        creditCents: 500,
        freeCount: 2,
        freeUnit: 'week',
        giftText: '  a Grove hoodie ',
        capPercent: 80,
      }),
    ).toEqual(reward({ kind: 'gift', giftText: 'a Grove hoodie', capPercent: 80 }));
  });
});

describe('a cap on rewarded branches (docs/product.md#referrer-reward)', () => {
  const three = rewardPriceRule(reward({ maxBranchesPerYear: 3 }));

  it('the ongoing discount counts at most that many branches; a fourth is capped', () => {
    expect(rewardedBranches(4, three)).toBe(3);
    expect(rewardedBranches(2, three)).toBe(2);
    expect(referralDiscount(10_000, 1_000, 3, three)).toEqual({
      discountCents: 3_000,
      capped: false,
    });
    expect(referralDiscount(10_000, 1_000, 4, three)).toEqual({
      discountCents: 3_000,
      capped: true,
    });
  });

  it('no cap counts every branch', () => {
    expect(rewardedBranches(40, UNCAPPED_PRICE_RULE)).toBe(40);
  });
});

describe('referrerRewardWording', () => {
  it('says each kind to the member, after "each friend who joins"', () => {
    expect(referrerRewardWording(DEFAULT_REFERRER_REWARD, au, 'member', 1_000)).toBe(
      'lowers your price by $10.00 a month',
    );
    expect(
      referrerRewardWording(reward({ kind: 'credit', creditCents: 2_550 }), au, 'member', 1_000),
    ).toBe('earns you a $25.50 credit');
    expect(
      referrerRewardWording(
        reward({ kind: 'free', freeCount: 1, freeUnit: 'month' }),
        au,
        'member',
      ),
    ).toBe('earns you 1 month free');
    expect(
      referrerRewardWording(reward({ kind: 'gift', giftText: 'a Grove hoodie' }), au, 'member'),
    ).toBe('earns you a Grove hoodie');
  });

  it('says each kind to the friend on the join page, with no amount of the member’s own discount', () => {
    expect(referrerRewardWording(DEFAULT_REFERRER_REWARD, au, 'friend', 1_000)).toBe(
      'a lower membership price',
    );
    expect(
      referrerRewardWording(reward({ kind: 'credit', creditCents: 2_500 }), au, 'friend'),
    ).toBe('a $25 credit');
    expect(
      referrerRewardWording(reward({ kind: 'free', freeCount: 3, freeUnit: 'week' }), au, 'friend'),
    ).toBe('3 weeks free');
    expect(
      referrerRewardWording(
        reward({ kind: 'gift', giftText: 'Ein Handtuch für Siobhán' }),
        au,
        'friend',
      ),
    ).toBe('Ein Handtuch für Siobhán');
  });

  it('words a reward owed for the owner’s list, and never the ongoing discount (never owed)', () => {
    expect(referrerRewardWording(reward({ kind: 'credit', creditCents: 2_500 }), au, 'owed')).toBe(
      'A $25 credit',
    );
    expect(
      referrerRewardWording(reward({ kind: 'free', freeCount: 2, freeUnit: 'week' }), au, 'owed'),
    ).toBe('2 weeks free');
    expect(referrerRewardWording(DEFAULT_REFERRER_REWARD, au, 'owed')).toBeNull();
  });

  it('is null for an incomplete reward, in every voice', () => {
    for (const voice of ['owner', 'member', 'friend'] as const) {
      expect(referrerRewardWording(reward({ kind: 'credit' }), au, voice)).toBeNull();
      expect(referrerRewardWording(reward({ kind: 'gift', giftText: '  ' }), au, voice)).toBeNull();
    }
  });

  it('words each kind', () => {
    expect(referrerRewardWording(reward({ kind: 'credit', creditCents: 2_500 }), au)).toBe(
      'A $25 credit per friend',
    );
    expect(
      referrerRewardWording(reward({ kind: 'free', freeCount: 1, freeUnit: 'month' }), au),
    ).toBe('1 month free per friend');
    expect(
      referrerRewardWording(reward({ kind: 'free', freeCount: 2, freeUnit: 'week' }), au),
    ).toBe('2 weeks free per friend');
    expect(referrerRewardWording(reward({ kind: 'gift', giftText: 'a Grove hoodie' }), au)).toBe(
      'A Grove hoodie per friend',
    );
  });
});

describe("the cap's year is the gym's year (docs/product.md#referrer-reward)", () => {
  // 23:30 on 31 December 2025 in Honolulu (UTC−10) is 09:30 on 1 January 2026 in UTC.
  const newYearsEveHonolulu = new Date('2026-01-01T09:30:00Z');

  it('a friend counting late on 31 December local time counts in that year, whatever the UTC date', () => {
    expect(rewardYear(newYearsEveHonolulu, 'Pacific/Honolulu')).toBe(2025);
    expect(rewardYear(newYearsEveHonolulu, 'UTC')).toBe(2026);
    // Auckland (UTC+13 in summer) is already in the new year at 11:00 UTC on 31 December.
    expect(rewardYear(new Date('2025-12-31T11:00:00Z'), 'Pacific/Auckland')).toBe(2026);
  });

  it("a reward is capped once the referrer's rewards of that local year reach the most", () => {
    const januaryHonolulu = new Date('2026-01-05T20:00:00Z');
    expect(owedRewardCapped(1, [newYearsEveHonolulu], januaryHonolulu, 'Pacific/Honolulu')).toBe(
      false,
    );
    expect(owedRewardCapped(1, [newYearsEveHonolulu], januaryHonolulu, 'UTC')).toBe(true);
    expect(owedRewardCapped(2, [januaryHonolulu], januaryHonolulu, 'Pacific/Honolulu')).toBe(false);
    expect(
      owedRewardCapped(2, [januaryHonolulu, januaryHonolulu], januaryHonolulu, 'Pacific/Honolulu'),
    ).toBe(true);
    expect(owedRewardCapped(null, [januaryHonolulu], januaryHonolulu, 'UTC')).toBe(false);
  });

  it("says how many rewards are left in the member's words, nothing without a cap", () => {
    expect(rewardsLeft(null, 4)).toBeNull();
    expect(rewardsLeft(3, 1)).toEqual({ left: 2, of: 3 });
    expect(rewardsLeft(3, 5)).toEqual({ left: 0, of: 3 });
    expect(rewardsLeftWording({ left: 2, of: 3 }, 'credit')).toBe('2 of 3 rewards left this year');
    expect(rewardsLeftWording({ left: 0, of: 1 }, 'gift')).toBe('0 of 1 reward left this year');
    expect(rewardsLeftWording({ left: 1, of: 3 }, 'discount')).toBe(
      '1 of 3 friends left who lower your price',
    );
  });
});
