/**
 * The friend's welcome offer (issue 33 item 1, docs/product.md#welcome-offer): one per business,
 * set by the owner in Account Settings and stated on the join page, its success text, the
 * approval dialog and the welcome email, always worded by {@link welcomeOfferWording}.
 */
import type { FieldErrors, Unchecked } from '../common/field-rules';
import type { LocaleFormats } from '../common/locale-format';
import { isPlainText } from '../common/plain-text';
import { AMOUNT_MAX_CENTS } from '../common/rules';

/**
 * The kinds of welcome offer: `none` (the default), `amount` (a fixed amount off for N months),
 * `percent` (a percentage off for N months), `free` (the first N months free) and `text` (an
 * offer in the owner's words, e.g. "a free class", honoured by hand).
 */
export const WELCOME_OFFER_KINDS = ['none', 'amount', 'percent', 'free', 'text'] as const;

/** One kind of welcome offer ({@link WELCOME_OFFER_KINDS}). */
export type WelcomeOfferKind = (typeof WELCOME_OFFER_KINDS)[number];

/** Most months an offer may run. */
export const WELCOME_OFFER_MAX_MONTHS = 24;

/** Longest text offer, in characters (Unicode code points). */
export const WELCOME_OFFER_TEXT_MAX_LENGTH = 100;

/**
 * A welcome offer as stored and sent (`GET/PUT /api/settings/welcome-offer`): the fields that do
 * not belong to its kind are null. `amountCents` (integer cents, 1–100,000,000) for `amount`;
 * `percent` (1–100) for `percent`; `months` (1–24) for `amount`, `percent` and `free`; `text`
 * (1–100 characters, plain) for `text`.
 */
export interface WelcomeOffer {
  kind: WelcomeOfferKind;
  amountCents: number | null;
  percent: number | null;
  months: number | null;
  text: string | null;
}

/** An offer whose fields of other kinds may be absent (as the generated API types have them). */
export type WelcomeOfferFields = Pick<WelcomeOffer, 'kind'> & Partial<Omit<WelcomeOffer, 'kind'>>;

/** No offer: what every business starts with. */
export const NO_WELCOME_OFFER: WelcomeOffer = {
  kind: 'none',
  amountCents: null,
  percent: null,
  months: null,
  text: null,
};

/** The welcome offer's validation messages (docs/product.md#welcome-offer). */
export const WELCOME_OFFER_MESSAGES = {
  /** `kind` missing or not one of {@link WELCOME_OFFER_KINDS}. */
  kind: 'Choose a welcome offer',
  /** `amountCents` missing, not whole cents, 0 or over $1,000,000. */
  amount: 'Enter the amount off: more than 0, at most 1,000,000',
  /** `percent` missing or not a whole number from 1 to 100. */
  percent: 'Enter the percentage off: a whole number from 1 to 100',
  /** `months` missing or not a whole number from 1 to 24. */
  months: `Enter the number of months: a whole number from 1 to ${WELCOME_OFFER_MAX_MONTHS}`,
  /** `text` missing or empty after trimming. */
  textRequired: 'Please write the offer',
  /** `text` over {@link WELCOME_OFFER_TEXT_MAX_LENGTH} characters. */
  textTooLong: `The offer can be at most ${WELCOME_OFFER_TEXT_MAX_LENGTH} characters`,
  /** `text` holds a control character. */
  textNotPlain: 'The offer must be plain text',
  /** `POST /api/welcome-offers/:id/honoured` of a grant the business does not have (404). */
  grantNotFound: 'This welcome offer was not found',
} as const;

/** The kinds whose offer runs for a number of months. */
const WITH_MONTHS: readonly WelcomeOfferKind[] = ['amount', 'percent', 'free'];

const isWhole = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

const isKind = (value: unknown): value is WelcomeOfferKind =>
  (WELCOME_OFFER_KINDS as readonly unknown[]).includes(value);

/**
 * Checks a welcome offer (the API's `PUT` body and the Account Settings form): a known `kind`, and
 * the fields of that kind (`amountCents` 1–100,000,000 cents; `percent` 1–100; `months` 1–24;
 * `text` 1–100 characters after trimming, plain text). Fields of other kinds are not checked (they
 * are dropped by {@link normalizeWelcomeOffer}).
 * @returns one message per invalid field (`WELCOME_OFFER_MESSAGES`); empty when valid
 */
export function validateWelcomeOffer(input: Unchecked<WelcomeOffer>): FieldErrors<WelcomeOffer> {
  if (!isKind(input.kind)) return { kind: WELCOME_OFFER_MESSAGES.kind };
  const errors: FieldErrors<WelcomeOffer> = {};
  if (input.kind === 'amount' && !isWhole(input.amountCents, 1, AMOUNT_MAX_CENTS))
    errors.amountCents = WELCOME_OFFER_MESSAGES.amount;
  if (input.kind === 'percent' && !isWhole(input.percent, 1, 100))
    errors.percent = WELCOME_OFFER_MESSAGES.percent;
  if (WITH_MONTHS.includes(input.kind) && !isWhole(input.months, 1, WELCOME_OFFER_MAX_MONTHS))
    errors.months = WELCOME_OFFER_MESSAGES.months;
  if (input.kind === 'text') {
    const text = typeof input.text === 'string' ? input.text.trim() : '';
    if (text === '') errors.text = WELCOME_OFFER_MESSAGES.textRequired;
    else if ([...text].length > WELCOME_OFFER_TEXT_MAX_LENGTH)
      errors.text = WELCOME_OFFER_MESSAGES.textTooLong;
    else if (!isPlainText(text)) errors.text = WELCOME_OFFER_MESSAGES.textNotPlain;
  }
  return errors;
}

/**
 * A valid offer ({@link validateWelcomeOffer} passed) as stored: the fields of its kind kept
 * (`text` trimmed), the others null.
 */
export function normalizeWelcomeOffer(offer: Unchecked<WelcomeOffer>): WelcomeOffer {
  const kind = offer.kind as WelcomeOfferKind;
  return {
    kind,
    amountCents: kind === 'amount' ? (offer.amountCents as number) : null,
    percent: kind === 'percent' ? (offer.percent as number) : null,
    months: WITH_MONTHS.includes(kind) ? (offer.months as number) : null,
    text: kind === 'text' ? (offer.text as string).trim() : null,
  };
}

/** "your first month" / "your first 3 months". */
const firstMonths = (months: number): string =>
  months === 1 ? 'your first month' : `your first ${months} months`;

/**
 * The one wording of a welcome offer, used by every surface (join page, its success text, the
 * approval dialog, the welcome email, Account Settings' preview; docs/product.md#welcome-offer).
 * Money through the business's formatters (`localeFormats`): whole amounts without cents.
 * @example welcomeOfferWording({ kind: 'amount', amountCents: 2000, months: 3, … }, formats) → '$20 off your first 3 months'
 * @example welcomeOfferWording({ kind: 'percent', percent: 50, months: 1, … }, formats) → '50% off your first month'
 * @example welcomeOfferWording({ kind: 'free', months: 1, … }, formats) → 'Your first month free'
 * @example welcomeOfferWording({ kind: 'text', text: 'a free class', … }, formats) → 'A free class'
 * @returns the sentence (no final period), or null for `none` or an incomplete offer
 */
export function welcomeOfferWording(
  offer: WelcomeOfferFields | null | undefined,
  formats: Pick<LocaleFormats, 'money' | 'wholeMoney'>,
): string | null {
  if (!offer) return null;
  const months = offer.months ?? 0;
  switch (offer.kind) {
    case 'amount': {
      const cents = offer.amountCents ?? 0;
      if (cents <= 0 || months <= 0) return null;
      const amount = cents % 100 === 0 ? formats.wholeMoney(cents) : formats.money(cents);
      return `${amount} off ${firstMonths(months)}`;
    }
    case 'percent':
      if (!offer.percent || months <= 0) return null;
      return `${offer.percent}% off ${firstMonths(months)}`;
    case 'free':
      if (months <= 0) return null;
      return months === 1 ? 'Your first month free' : `Your first ${months} months free`;
    case 'text': {
      const text = offer.text?.trim() ?? '';
      return text === '' ? null : `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
    }
    default:
      return null;
  }
}

/**
 * The offer's cost in cents over its months given the friend's monthly price (Analytics), or
 * null when it has no amount Grove can know (`text`, `none`): `amount` min(amount, price) × months;
 * `percent` round(price × percent / 100) × months; `free` price × months.
 * @param monthlyPriceCents the friend's membership price per month, integer cents
 */
export function welcomeOfferCostCents(
  offer: WelcomeOfferFields,
  monthlyPriceCents: number,
): number | null {
  const months = offer.months ?? 0;
  switch (offer.kind) {
    case 'amount':
      return Math.min(offer.amountCents ?? 0, monthlyPriceCents) * months;
    case 'percent':
      return Math.round((monthlyPriceCents * (offer.percent ?? 0)) / 100) * months;
    case 'free':
      return monthlyPriceCents * months;
    default:
      return null;
  }
}

/**
 * Whether an offer has a form Stripe can apply as a `repeating` coupon on the friend's
 * subscription (`amount`, `percent`, `free`); a text offer is always honoured by hand
 * (docs/decisions/welcome-offer.md).
 */
export function welcomeOfferAppliesInStripe(offer: WelcomeOfferFields | null | undefined): boolean {
  return offer?.kind === 'amount' || offer?.kind === 'percent' || offer?.kind === 'free';
}

/**
 * The welcome offer as a Stripe coupon (https://docs.stripe.com/api/coupons/create): `repeating`
 * for the offer's months, `amount_off` in the subscription's currency (cents), or `percent_off`;
 * the first N months free is 100% off for N months. Null for a text offer or none.
 */
export function welcomeOfferCoupon(
  offer: WelcomeOfferFields,
):
  | { amountOffCents: number; percentOff: null; months: number }
  | { amountOffCents: null; percentOff: number; months: number }
  | null {
  const months = offer.months ?? 0;
  if (months <= 0) return null;
  if (offer.kind === 'amount' && (offer.amountCents ?? 0) > 0)
    return { amountOffCents: offer.amountCents as number, percentOff: null, months };
  if (offer.kind === 'percent' && (offer.percent ?? 0) > 0)
    return { amountOffCents: null, percentOff: offer.percent as number, months };
  if (offer.kind === 'free') return { amountOffCents: null, percentOff: 100, months };
  return null;
}

/** Where a granted offer stands in the gym's Stripe (null: not applied through Stripe). */
export const WELCOME_OFFER_STRIPE_STATES = ['pending', 'applied', 'failed'] as const;

/**
 * A granted offer in the gym's Stripe: `pending` (approved; written when the friend's subscription
 * is found), `applied` (the coupon is on `subscriptionId`), `failed` (`note` says why: honoured by
 * hand).
 */
export interface WelcomeOfferInStripe {
  state: (typeof WELCOME_OFFER_STRIPE_STATES)[number];
  subscriptionId: string | null;
  note: string | null;
}

/** The texts of a welcome offer written to Stripe (docs/product.md#welcome-offer). */
export const WELCOME_OFFER_STRIPE_TEXTS = {
  /** The approval dialog at a business whose Stripe member billing is connected. */
  approval: (wording: string) =>
    `Stripe: the friend’s subscription gets ‘${wording}’ as a coupon when you approve (on their next invoices; the subscription is found by their email).`,
  pending: 'Waiting for their Stripe subscription',
  applied: 'Applied in Stripe',
  /** The amount offer at a subscription of another currency. */
  otherCurrency: (subscriptionCurrency: string, businessCurrency: string) =>
    `Their Stripe subscription is in ${subscriptionCurrency}, the offer in ${businessCurrency}: honour it by hand`,
  refused: (message: string) => `Stripe refused the coupon: ${message}`,
} as const;

/**
 * `GET /api/welcome-offers`: a welcome offer granted to a friend at approval, as it was then
 * (`offer`, `wording`), for the owner to honour by hand where the gym's billing does not apply it;
 * `honouredAt` (ISO 8601) once the owner marked it honoured (or Stripe applied it), else null;
 * `stripe` where it goes through the gym's Stripe, else null.
 */
export interface WelcomeOfferGrant {
  id: string;
  memberId: string;
  memberName: string;
  offer: WelcomeOffer;
  wording: string;
  grantedAt: string;
  honouredAt: string | null;
  stripe: WelcomeOfferInStripe | null;
}
