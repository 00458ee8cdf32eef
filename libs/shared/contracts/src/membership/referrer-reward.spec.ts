import { businessLocale, localeFormats } from '../common/locale-format';
import {
  DEFAULT_REFERRER_REWARD,
  maxReferralDiscountCents,
  normalizeReferrerReward,
  referralDiscount,
  referrerRewardWording,
  REFERRER_REWARD_MESSAGES,
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

describe('referrerRewardWording', () => {
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
