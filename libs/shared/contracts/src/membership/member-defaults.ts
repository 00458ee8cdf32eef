/**
 * Defaults instead of retyping (issue 25, "An owner's ordinary day", Build 4): the business's
 * default discount per referral and default membership price, set once in Account Settings. The
 * add-tree form starts from them, a CSV import without a discount column uses the default discount
 * for every row, and an approval (by hand or automatic) starts from the referrer's price and
 * discount, else from these (`approvalPrefill`, docs/product.md#member-defaults).
 */
import { centsToDollarText, dollarsToCents } from '../common/money';
import { MESSAGES } from '../common/messages';
import { isValidAmount, isValidCents } from '../common/field-rules';
import { AMOUNT_MAX_CENTS } from '../common/rules';

/** Largest default, in cents (the add-member form's largest amount, $1,000,000). */
export const MEMBER_DEFAULT_MAX_CENTS = AMOUNT_MAX_CENTS;

/**
 * `GET/PUT /api/settings/member-defaults`: the business's defaults in integer cents; null = not
 * set (the forms then start empty). A PUT sends both fields (null clears one).
 */
export interface MemberDefaults {
  /** Default discount per referral (per branch), cents, or null. */
  discountCents: number | null;
  /** Default membership price, cents, or null. */
  membershipPriceCents: number | null;
}

/** The Account Settings form's values: dollars as typed; empty = no default. */
export interface MemberDefaultsForm {
  discount: string;
  membershipPrice: string;
}

/** True for a default the API stores: null, or whole cents from 0 to $1,000,000. */
export function isValidDefaultCents(value: unknown): value is number | null {
  return value === null || isValidCents(value);
}

/**
 * Checks the API body (cents): each field null or whole cents 0–100,000,000, with the add-member
 * form's messages (docs/product.md#validation: 'Not a valid discount price', 'Not a valid amount').
 * @returns one message per invalid field; empty when valid
 */
export function validateMemberDefaults(
  input: Partial<Record<keyof MemberDefaults, unknown>>,
): Partial<Record<keyof MemberDefaults, string>> {
  const errors: Partial<Record<keyof MemberDefaults, string>> = {};
  if (!isValidDefaultCents(input.discountCents)) errors.discountCents = MESSAGES.invalidDiscount;
  if (!isValidDefaultCents(input.membershipPriceCents))
    errors.membershipPriceCents = MESSAGES.invalidAmount;
  return errors;
}

/**
 * Checks the Account Settings form (dollars): each field empty (no default) or a valid amount
 * (`isValidAmount`: up to two decimals, at most $1,000,000), with the add-member form's messages.
 * @returns one message per invalid field; empty when valid
 */
export function validateMemberDefaultsForm(
  input: MemberDefaultsForm,
): Partial<Record<keyof MemberDefaultsForm, string>> {
  const errors: Partial<Record<keyof MemberDefaultsForm, string>> = {};
  const discount = input.discount.trim();
  const price = input.membershipPrice.trim();
  if (discount !== '' && !isValidAmount(discount)) errors.discount = MESSAGES.invalidDiscount;
  if (price !== '' && !isValidAmount(price)) errors.membershipPrice = MESSAGES.invalidAmount;
  return errors;
}

/** The form's dollars as the API's cents (empty → null). Call after `validateMemberDefaultsForm`. */
export function memberDefaultsFromForm(input: MemberDefaultsForm): MemberDefaults {
  const cents = (typed: string) => (typed.trim() === '' ? null : dollarsToCents(typed));
  return {
    discountCents: cents(input.discount),
    membershipPriceCents: cents(input.membershipPrice),
  };
}

/** The API's cents as the form's dollars ("15.00"; null → empty). */
export function memberDefaultsToForm(defaults: MemberDefaults): MemberDefaultsForm {
  const dollars = (cents: number | null) => (cents === null ? '' : centsToDollarText(cents));
  return {
    discount: dollars(defaults.discountCents),
    membershipPrice: dollars(defaults.membershipPriceCents),
  };
}

/**
 * What an approval starts from (cents; null = nothing known, the field starts empty and automatic
 * approval leaves the prospect for the owner): `ProspectRow.approvalPrefill`.
 */
export interface ApprovalPrefill {
  membershipPriceCents: number | null;
  discountCents: number | null;
}

/** What `approvalPrefill` needs to know of the referring member (a `MemberRow`'s fields). */
export interface PrefillReferrer {
  membershipPriceCents: number;
  discountCents: number;
  membershipPricePending?: true;
  noAutopayContract?: true;
  membershipEnded?: true;
}

/**
 * The price and discount a friend's approval starts from (docs/product.md#member-defaults): the
 * referrer's membership price and discount per referral, the friend joining on the referrer's
 * terms; a referrer's price Grove does not know (a Mindbody member not priced yet, without an
 * autopay contract, or whose membership ended: 0 placeholders) gives way to the business's
 * default price. With no referrer, both come from the defaults.
 */
export function approvalPrefill(
  referrer: PrefillReferrer | null | undefined,
  defaults: MemberDefaults,
): ApprovalPrefill {
  if (!referrer) return { ...defaults };
  const priceUnknown =
    referrer.membershipPricePending === true ||
    referrer.noAutopayContract === true ||
    referrer.membershipEnded === true;
  return {
    membershipPriceCents: priceUnknown
      ? defaults.membershipPriceCents
      : referrer.membershipPriceCents,
    discountCents: referrer.discountCents,
  };
}

/**
 * `GET /api/getting-started`: the checklist on Branches for a new business, each step true only
 * when the data says it is done (computed by the API). `dismissed`: the owner hid it
 * (`PUT /api/getting-started`). The screen shows it while not dismissed and some step is not done.
 */
export interface GettingStarted {
  steps: {
    /** A default discount per referral is saved (Account Settings). */
    discount: boolean;
    /** The business has at least one member (added by hand, imported or from Mindbody). */
    members: boolean;
    /**
     * The members' billing is connected: Mindbody (credentials checked: stage 2 or above) or the
     * business's Stripe for member billing (a restricted key saved, issue 32).
     */
    billing: boolean;
    /** At least one member has a live referral link to share. */
    links: boolean;
  };
  dismissed: boolean;
}

/** `PUT /api/getting-started` body. */
export interface GettingStartedUpdate {
  dismissed: boolean;
}

/** 400 for a getting-started body that is not `{ dismissed: true|false }`. */
export const GETTING_STARTED_INVALID = 'The checklist must be shown or hidden';
