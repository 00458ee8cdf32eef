/**
 * The referrer's reward and its cap (issue 33 item 2, docs/product.md#referrer-reward): one per
 * business, set by the owner in Account Settings → Members & rewards, 'Reward for referrers'. The
 * cap's part of the price rule lives here once ({@link referralDiscount}); `membership/pricing`
 * (price.ts and its SQL twin price.sql.ts) applies it.
 */
import type { FieldErrors, Unchecked } from '../common/field-rules';
import type { LocaleFormats } from '../common/locale-format';
import { isPlainText } from '../common/plain-text';
import { AMOUNT_MAX_CENTS } from '../common/rules';

/**
 * The kinds of reward a referrer gets per counting branch: `discount` (the ongoing discount per
 * branch off their membership price, the default), `credit` (a one-off credit), `free` (a free
 * period of N weeks or months) and `gift` (a gift in the owner's words, honoured by hand).
 */
export const REFERRER_REWARD_KINDS = ['discount', 'credit', 'free', 'gift'] as const;

/** One kind of referrer reward ({@link REFERRER_REWARD_KINDS}). */
export type ReferrerRewardKind = (typeof REFERRER_REWARD_KINDS)[number];

/** The units of a free period. */
export const FREE_PERIOD_UNITS = ['week', 'month'] as const;

/** One unit of a free period ({@link FREE_PERIOD_UNITS}). */
export type FreePeriodUnit = (typeof FREE_PERIOD_UNITS)[number];

/** Longest free period per branch, per unit. */
export const FREE_PERIOD_MAX: Readonly<Record<FreePeriodUnit, number>> = { week: 52, month: 12 };

/** Longest gift text, in characters (Unicode code points). */
export const REFERRER_GIFT_MAX_LENGTH = 100;

/** Most rewarded branches per referrer per year an owner can set (the cap's upper bound). */
export const REWARDED_BRANCHES_MAX = 1000;

/**
 * The referrer's reward as stored and sent (`GET/PUT /api/settings/referrer-reward`): the kind's
 * fields (`creditCents` integer cents for `credit`; `freeCount` and `freeUnit` for `free`;
 * `giftText` for `gift`; the others null) and the cap, which bounds the ongoing discount:
 * `capPercent` the most a member's branches take off their membership price, 1–100 (100, the
 * default, is the $0 floor), `yearlyCapCents` the most they take off in a year (integer cents,
 * null for none), and `maxBranchesPerYear` the most branches of one referrer rewarded a year (null
 * for none; the ongoing discount counts at most that many branches, the other kinds owe at most
 * that many rewards per calendar year).
 */
export interface ReferrerReward {
  kind: ReferrerRewardKind;
  creditCents: number | null;
  freeCount: number | null;
  freeUnit: FreePeriodUnit | null;
  giftText: string | null;
  capPercent: number;
  yearlyCapCents: number | null;
  maxBranchesPerYear: number | null;
}

/** A reward whose fields of other kinds may be absent (as the generated API types have them). */
export type ReferrerRewardFields = Pick<ReferrerReward, 'kind' | 'capPercent'> &
  Partial<Omit<ReferrerReward, 'kind' | 'capPercent'>>;

/** Today's reward: the ongoing discount per branch, capped only by the $0 floor. */
export const DEFAULT_REFERRER_REWARD: ReferrerReward = {
  kind: 'discount',
  creditCents: null,
  freeCount: null,
  freeUnit: null,
  giftText: null,
  capPercent: 100,
  yearlyCapCents: null,
  maxBranchesPerYear: null,
};

/**
 * A reward owed to a referrer for one branch that started counting while the business's reward
 * was a one-off credit, a free period or a gift (docs/product.md#referrer-reward 'Rewards to
 * honour'): the reward as it was then, worded ({@link referrerRewardWording}, `owed`); `capped`
 * when the referrer had already been rewarded for the business's most friends that year (nothing
 * to honour); `honouredAt` (ISO 8601) once the owner marked it honoured, else null.
 */
export interface ReferrerRewardOwed {
  id: string;
  referrerId: string;
  referrerName: string;
  branchId: string;
  branchName: string;
  wording: string;
  capped: boolean;
  countedAt: string;
  honouredAt: string | null;
}

/** The reward setting's validation messages (docs/product.md#referrer-reward). */
export const REFERRER_REWARD_MESSAGES = {
  /** `kind` missing or not one of {@link REFERRER_REWARD_KINDS}. */
  kind: 'Choose a reward',
  /** `creditCents` missing, not whole cents, 0 or over $1,000,000. */
  credit: 'Enter the credit per friend: more than 0, at most 1,000,000',
  /** `freeUnit` not week or month, or `freeCount` out of its range. */
  free: 'Enter the free period: 1 to 52 weeks or 1 to 12 months',
  /** `giftText` missing or empty after trimming. */
  giftRequired: 'Please describe the gift',
  /** `giftText` over {@link REFERRER_GIFT_MAX_LENGTH} characters. */
  giftTooLong: `The gift can be at most ${REFERRER_GIFT_MAX_LENGTH} characters`,
  /** `giftText` holds a control character. */
  giftNotPlain: 'The gift must be plain text',
  /** `capPercent` missing or not a whole number from 1 to 100. */
  capPercent: 'Enter the most a member can save: a whole number from 1 to 100 percent',
  /** `yearlyCapCents` not null and not whole cents from 1 to $1,000,000. */
  yearlyCap: 'Enter the yearly cap: more than 0, at most 1,000,000, or leave it empty',
  /** `maxBranchesPerYear` not null and not a whole number from 1 to {@link REWARDED_BRANCHES_MAX}. */
  maxBranches:
    'Enter the most friends rewarded a year: a whole number from 1 to 1,000, or leave it empty',
  /** No reward owed with this id in the session's business (unknown, or another's). */
  owedNotFound: 'This reward was not found',
  /** A capped reward cannot be honoured: nothing is owed. */
  owedCapped: 'This reward is past the cap: nothing is owed',
} as const;

const isWhole = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

const isKind = (value: unknown): value is ReferrerRewardKind =>
  (REFERRER_REWARD_KINDS as readonly unknown[]).includes(value);

const isUnit = (value: unknown): value is FreePeriodUnit =>
  (FREE_PERIOD_UNITS as readonly unknown[]).includes(value);

/**
 * Checks a reward setting (the API's `PUT` body and the Account Settings form): a known `kind` and
 * its fields (`creditCents` 1–100,000,000 cents; `freeCount` 1–52 weeks or 1–12 months; `giftText`
 * 1–100 characters after trimming, plain text), `capPercent` 1–100, `yearlyCapCents` null or
 * 1–100,000,000 cents, `maxBranchesPerYear` null or 1–1,000. Fields of other kinds are not checked ({@link normalizeReferrerReward}
 * drops them).
 * @returns one message per invalid field (`REFERRER_REWARD_MESSAGES`); empty when valid
 */
export function validateReferrerReward(
  input: Unchecked<ReferrerReward>,
): FieldErrors<ReferrerReward> {
  const errors: FieldErrors<ReferrerReward> = {};
  if (!isKind(input.kind)) errors.kind = REFERRER_REWARD_MESSAGES.kind;
  if (input.kind === 'credit' && !isWhole(input.creditCents, 1, AMOUNT_MAX_CENTS))
    errors.creditCents = REFERRER_REWARD_MESSAGES.credit;
  if (input.kind === 'free') {
    if (!isUnit(input.freeUnit)) errors.freeUnit = REFERRER_REWARD_MESSAGES.free;
    else if (!isWhole(input.freeCount, 1, FREE_PERIOD_MAX[input.freeUnit]))
      errors.freeCount = REFERRER_REWARD_MESSAGES.free;
  }
  if (input.kind === 'gift') {
    const text = typeof input.giftText === 'string' ? input.giftText.trim() : '';
    if (text === '') errors.giftText = REFERRER_REWARD_MESSAGES.giftRequired;
    else if ([...text].length > REFERRER_GIFT_MAX_LENGTH)
      errors.giftText = REFERRER_REWARD_MESSAGES.giftTooLong;
    else if (!isPlainText(text)) errors.giftText = REFERRER_REWARD_MESSAGES.giftNotPlain;
  }
  if (!isWhole(input.capPercent, 1, 100)) errors.capPercent = REFERRER_REWARD_MESSAGES.capPercent;
  if (
    input.yearlyCapCents !== null &&
    input.yearlyCapCents !== undefined &&
    !isWhole(input.yearlyCapCents, 1, AMOUNT_MAX_CENTS)
  )
    errors.yearlyCapCents = REFERRER_REWARD_MESSAGES.yearlyCap;
  if (
    input.maxBranchesPerYear !== null &&
    input.maxBranchesPerYear !== undefined &&
    !isWhole(input.maxBranchesPerYear, 1, REWARDED_BRANCHES_MAX)
  )
    errors.maxBranchesPerYear = REFERRER_REWARD_MESSAGES.maxBranches;
  return errors;
}

/**
 * A valid reward ({@link validateReferrerReward} passed) as stored: the fields of its kind kept
 * (`giftText` trimmed), the others null; an absent yearly cap is null.
 */
export function normalizeReferrerReward(reward: Unchecked<ReferrerReward>): ReferrerReward {
  const kind = reward.kind as ReferrerRewardKind;
  return {
    kind,
    creditCents: kind === 'credit' ? (reward.creditCents as number) : null,
    freeCount: kind === 'free' ? (reward.freeCount as number) : null,
    freeUnit: kind === 'free' ? (reward.freeUnit as FreePeriodUnit) : null,
    giftText: kind === 'gift' ? (reward.giftText as string).trim() : null,
    capPercent: reward.capPercent as number,
    yearlyCapCents: (reward.yearlyCapCents as number | null | undefined) ?? null,
    maxBranchesPerYear: (reward.maxBranchesPerYear as number | null | undefined) ?? null,
  };
}

/**
 * Who a reward's wording speaks to ({@link referrerRewardWording}): `owner` (Account Settings'
 * preview, the Branches screen: 'A $25 credit per friend'), `member` (the member page and the
 * emails, after "each friend who joins": 'lowers your price by $10.00 a month', 'earns you a $25
 * credit') and `friend` (the join page, after "{referrer} gets": 'a lower membership price', 'a
 * $25 credit'; no amount for the discount, which is the member's own) and `owed` ('Rewards to
 * honour': 'A $25 credit', '2 weeks free', 'A Grove hoodie'; null for the discount, never owed).
 */
export type RewardWordingVoice = 'owner' | 'member' | 'friend' | 'owed';

/**
 * The referrer's reward per counting branch in words, the one wording of it
 * (docs/product.md#referrer-reward; money through the business's formatters, whole amounts
 * without cents), for the owner, the member or the referred friend ({@link RewardWordingVoice}).
 * @param discountCents the member's discount per referral (cents), for the `member` voice of the
 *   ongoing discount (the other voices and kinds ignore it)
 * @example referrerRewardWording({ kind: 'credit', creditCents: 2500, … }, formats) → 'A $25 credit per friend'
 * @example referrerRewardWording({ kind: 'free', freeCount: 2, freeUnit: 'week', … }, formats, 'member') → 'earns you 2 weeks free'
 * @example referrerRewardWording({ kind: 'gift', giftText: 'a Grove hoodie', … }, formats, 'friend') → 'a Grove hoodie'
 * @example referrerRewardWording({ kind: 'discount', … }, formats, 'member', 1000) → 'lowers your price by $10.00 a month'
 * @returns the phrase (no final period), or null for an incomplete reward
 */
export function referrerRewardWording(
  reward: ReferrerRewardFields,
  formats: Pick<LocaleFormats, 'money' | 'wholeMoney'>,
  voice: RewardWordingVoice = 'owner',
  discountCents = 0,
): string | null {
  const money = (cents: number) =>
    cents % 100 === 0 ? formats.wholeMoney(cents) : formats.money(cents);
  const thing = rewardThing(reward, money);
  if (reward.kind === 'discount') {
    if (voice === 'owed') return null;
    if (voice === 'member') return `lowers your price by ${formats.money(discountCents)} a month`;
    if (voice === 'friend') return 'a lower membership price';
    return 'Their discount per referral, every month, per friend';
  }
  if (thing === null) return null;
  if (voice === 'member') return `earns you ${thing}`;
  if (voice === 'friend') return thing;
  const capitalised = `${thing.charAt(0).toUpperCase()}${thing.slice(1)}`;
  return voice === 'owed' ? capitalised : `${capitalised} per friend`;
}

/** A one-off reward as a noun phrase ('a $25 credit', '2 weeks free', the gift), or null. */
function rewardThing(
  reward: ReferrerRewardFields,
  money: (cents: number) => string,
): string | null {
  switch (reward.kind) {
    case 'credit':
      return reward.creditCents ? `a ${money(reward.creditCents)} credit` : null;
    case 'free': {
      const count = reward.freeCount ?? 0;
      if (count <= 0 || !reward.freeUnit) return null;
      return `${count} ${reward.freeUnit}${count === 1 ? '' : 's'} free`;
    }
    case 'gift': {
      const text = reward.giftText?.trim() ?? '';
      return text === '' ? null : text;
    }
    default:
      return null;
  }
}

/**
 * What the price rule needs of the business's reward (cents): whether branches lower the price
 * every month (`ongoing`: the `discount` kind) and the cap.
 */
export interface RewardPriceRule {
  ongoing: boolean;
  capPercent: number;
  yearlyCapCents: number | null;
  /** The most branches whose discount counts (the cap on rewarded branches), null for none. */
  maxBranches?: number | null;
}

/** The rule of a business that has not chosen: today's ongoing discount, floored at $0. */
export const UNCAPPED_PRICE_RULE: RewardPriceRule = {
  ongoing: true,
  capPercent: 100,
  yearlyCapCents: null,
  maxBranches: null,
};

/** The price rule's part of a reward setting. */
export const rewardPriceRule = (
  reward: Pick<ReferrerReward, 'kind' | 'capPercent' | 'yearlyCapCents'> &
    Partial<Pick<ReferrerReward, 'maxBranchesPerYear'>>,
): RewardPriceRule => ({
  ongoing: reward.kind === 'discount',
  capPercent: reward.capPercent,
  yearlyCapCents: reward.yearlyCapCents,
  maxBranches: reward.maxBranchesPerYear ?? null,
});

/**
 * How many of a member's counting branches the ongoing discount rewards: all of them, or at most
 * the rule's `maxBranches` (docs/product.md#referrer-reward). The SQL twin is `rewardedBranches`
 * of membership/pricing/price.sql.ts.
 */
export const rewardedBranches = (branches: number, rule: RewardPriceRule): number =>
  rule.maxBranches === null || rule.maxBranches === undefined
    ? branches
    : Math.min(branches, rule.maxBranches);

/**
 * The most a member's branches may take off their membership price each month, cents
 * (docs/product.md#referrer-reward): floor(price × capPercent / 100), and at most
 * floor(yearlyCapCents / 12) (a monthly discount over twelve months stays within the yearly cap);
 * 0 when the reward is not the ongoing discount. With the defaults it is the price (the $0 floor).
 * The SQL twin is `maxReferralDiscount` of the API's membership/pricing/price.sql.ts.
 */
export function maxReferralDiscountCents(
  membershipPriceCents: number,
  rule: RewardPriceRule,
): number {
  if (!rule.ongoing) return 0;
  const byPercent = Math.floor((membershipPriceCents * rule.capPercent) / 100);
  return rule.yearlyCapCents === null
    ? byPercent
    : Math.min(byPercent, Math.floor(rule.yearlyCapCents / 12));
}

/**
 * The monthly discount a member's counting branches give (cents) and whether the cap stopped it
 * (docs/product.md#referrer-reward): min(discount × {@link rewardedBranches},
 * {@link maxReferralDiscountCents}); `capped` when the branches would take more (more branches
 * than the rule rewards, past the cap, or below $0). Never capped when the
 * reward is not the ongoing discount (branches then take nothing off the price).
 */
export function referralDiscount(
  membershipPriceCents: number,
  discountCents: number,
  branches: number,
  rule: RewardPriceRule = UNCAPPED_PRICE_RULE,
): { discountCents: number; capped: boolean } {
  if (!rule.ongoing) return { discountCents: 0, capped: false };
  const rewarded = rewardedBranches(branches, rule);
  const wanted = Math.max(0, discountCents * rewarded);
  const max = Math.max(0, maxReferralDiscountCents(membershipPriceCents, rule));
  return {
    discountCents: Math.min(wanted, max),
    capped: wanted > max || (rewarded < branches && discountCents > 0),
  };
}

/**
 * The year the cap on rewarded friends counts in (docs/product.md#referrer-reward): the calendar
 * year of instant `at` in the business's time zone (`businessLocale(country, timeZone).timeZone`),
 * so a friend who starts counting at 23:30 on 31 December at the gym counts in that year, whatever
 * the UTC date. The SQL twin is `rewardYear` of the API's membership/pricing/price.sql.ts (and the
 * trigger `members_referrer_reward_owed`, migration RewardYearInTimeZone).
 * @param timeZone an IANA time zone ('Pacific/Honolulu')
 * @returns the year, e.g. 2026
 */
export function rewardYear(at: Date, timeZone: string): number {
  const year = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' })
    .formatToParts(at)
    .find((part) => part.type === 'year');
  return Number(year?.value);
}

/**
 * Whether a reward owed at `at` is past the cap (docs/product.md#referrer-reward): the business has
 * a most friends rewarded a year (`maxBranches`) and the referrer already has that many rewards
 * (not capped) counted in the same year in the business's time zone ({@link rewardYear}).
 * @param earlier when the referrer's earlier rewards that were not capped started counting
 */
export function owedRewardCapped(
  maxBranches: number | null | undefined,
  earlier: readonly Date[],
  at: Date,
  timeZone: string,
): boolean {
  if (maxBranches === null || maxBranches === undefined) return false;
  const year = rewardYear(at, timeZone);
  return earlier.filter((when) => rewardYear(when, timeZone) === year).length >= maxBranches;
}

/** How many rewards a referrer has left under the cap: `left` of `of` (the business's most). */
export interface RewardsLeft {
  left: number;
  of: number;
}

/**
 * What is left under the cap on rewarded friends (docs/product.md#referrer-reward): null when the
 * business sets none, else max(0, most − rewarded). `rewarded` is, for a one-off reward (credit,
 * free period, gift), the rewards owed this year in the business's time zone that were not
 * capped; for the ongoing discount, the counting branches it rewards ({@link rewardedBranches}).
 */
export function rewardsLeft(
  maxBranches: number | null | undefined,
  rewarded: number,
): RewardsLeft | null {
  if (maxBranches === null || maxBranches === undefined) return null;
  return { left: Math.max(0, maxBranches - rewarded), of: maxBranches };
}

/**
 * {@link rewardsLeft} in the member's voice, for the member page (docs/product.md#referrer-reward):
 * '2 of 3 rewards left this year' for a one-off reward (its cap is per calendar year);
 * '2 of 3 friends left who lower your price' for the ongoing discount (its cap is on the counting
 * branches at once). No final period.
 */
export function rewardsLeftWording(left: RewardsLeft, kind: ReferrerRewardKind): string {
  return kind === 'discount'
    ? `${left.left} of ${left.of} ${left.of === 1 ? 'friend' : 'friends'} left who lower your price`
    : `${left.left} of ${left.of} ${left.of === 1 ? 'reward' : 'rewards'} left this year`;
}
