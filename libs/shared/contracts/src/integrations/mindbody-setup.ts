/**
 * The rules of the Mindbody setup's requests (docs/product.md#mindbody-setup,
 * docs/product.md#validation-mindbody), used by the API's DTOs (`@ValidatedBy`) and the setup
 * forms (`useContractForm`).
 */
import { dollarsToCents } from '../common/money';
import { MESSAGES } from '../common/messages';
import {
  isValidCents,
  isValidReferralDiscountCents,
  type FieldErrors,
  type Unchecked,
} from '../common/field-rules';
import { isPlainText } from '../common/plain-text';

/** A Mindbody site number, e.g. -99 for the sandbox: an integer of up to 10 digits, optionally negative. */
export const MINDBODY_SITE_ID_PATTERN = /^-?\d{1,10}$/;
/** Longest Mindbody username or password Grove sends. */
export const MINDBODY_CREDENTIAL_MAX_LENGTH = 200;
/** Longest site ID the credentials body accepts (checked after trimming). */
export const MINDBODY_SITE_ID_MAX_LENGTH = 40;

/** True for a Mindbody site number (`MINDBODY_SITE_ID_PATTERN`) after trimming. */
export function isValidMindbodySiteId(value: unknown): value is string {
  return typeof value === 'string' && MINDBODY_SITE_ID_PATTERN.test(value.trim());
}

/** `GET /api/mindbody/activation?siteId=` and the setup's first step: the site number. */
export interface MindbodySiteInput {
  siteId: string;
}

/**
 * Checks the site step: a Mindbody site number, else 'Enter your Mindbody site number, e.g. -99
 * for the sandbox'.
 */
export function validateMindbodySite(
  input: Unchecked<MindbodySiteInput>,
): FieldErrors<MindbodySiteInput> {
  return isValidMindbodySiteId(input.siteId) ? {} : { siteId: MESSAGES.mindbodyInvalidSiteId };
}

/** `POST /api/mindbody/credentials` body: the staff login and the site it belongs to. */
export interface MindbodyCredentialsInput {
  username: string;
  password: string;
  siteId: string;
}

/** Non-empty text of at most `max` characters; `plain` also refuses control characters. */
function credential(value: unknown, max: number, plain: boolean): boolean {
  return (
    typeof value === 'string' &&
    value.trim() !== '' &&
    value.length <= max &&
    (!plain || isPlainText(value))
  );
}

/**
 * Checks the credentials (docs/product.md#validation-mindbody: username, password and site ID all
 * required; docs/product.md#errors: 'Invalid credentials provided' for each missing one, or for a
 * username or site ID holding a control character: both travel in Mindbody's request headers).
 * Username and password at most 200 characters, the site ID at most 40. The password is never
 * trimmed (a blank one is missing).
 * @returns one message per invalid field; empty when valid
 */
export function validateMindbodyCredentials(
  input: Unchecked<MindbodyCredentialsInput>,
): FieldErrors<MindbodyCredentialsInput> {
  const errors: FieldErrors<MindbodyCredentialsInput> = {};
  const invalid = MESSAGES.mindbodyInvalidCredentials;
  if (!credential(input.username, MINDBODY_CREDENTIAL_MAX_LENGTH, true)) errors.username = invalid;
  if (!credential(input.password, MINDBODY_CREDENTIAL_MAX_LENGTH, false)) errors.password = invalid;
  if (!credential(input.siteId, MINDBODY_SITE_ID_MAX_LENGTH, true)) errors.siteId = invalid;
  return errors;
}

/** `PUT /api/mindbody/discounts` body, integer cents. */
export interface MindbodyDiscountsInput {
  /** Off a member's bill per referred friend, cents (≥ 1). */
  discountOnReferralCents: number;
  /** Off the referred friend's own bill, cents (≥ 0; default 0). */
  discountForRefereeCents?: number;
}

/**
 * Checks the discounts (docs/product.md#validation-mindbody): the discount on referral whole cents
 * of at least 1, the discount for the referee left out (0) or whole cents of at least 0 (`null` is
 * not a value); both at most 100,000,000. Anything else 'Please provide valid values.'
 * (docs/product.md#errors).
 * @returns one message per invalid field; empty when valid
 */
export function validateMindbodyDiscounts(
  input: Unchecked<MindbodyDiscountsInput>,
): FieldErrors<MindbodyDiscountsInput> {
  const errors: FieldErrors<MindbodyDiscountsInput> = {};
  if (!isValidReferralDiscountCents(input.discountOnReferralCents))
    errors.discountOnReferralCents = MESSAGES.mindbodyInvalidDiscounts;
  if (input.discountForRefereeCents !== undefined && !isValidCents(input.discountForRefereeCents))
    errors.discountForRefereeCents = MESSAGES.mindbodyInvalidDiscounts;
  return errors;
}

/** The discounts form's values: dollars as typed; an empty discount for the referee is 0. */
export interface MindbodyDiscountsForm {
  discountOnReferral: string;
  discountForReferee: string;
}

/** The form's dollars as the API's body (text that is not an amount becomes `NaN`, which the rules refuse). */
export function mindbodyDiscountsFromForm(form: MindbodyDiscountsForm): MindbodyDiscountsInput {
  const cents = (dollars: string) => dollarsToCents(dollars) ?? Number.NaN;
  const forReferee = form.discountForReferee.trim();
  return {
    discountOnReferralCents: cents(form.discountOnReferral),
    ...(forReferee ? { discountForRefereeCents: cents(forReferee) } : {}),
  };
}

/** Checks the discounts form with the API's rules (`validateMindbodyDiscounts` on `mindbodyDiscountsFromForm`). */
export function validateMindbodyDiscountsForm(
  form: MindbodyDiscountsForm,
): FieldErrors<MindbodyDiscountsForm> {
  const errors = validateMindbodyDiscounts(mindbodyDiscountsFromForm(form));
  const formErrors: FieldErrors<MindbodyDiscountsForm> = {};
  if (errors.discountOnReferralCents)
    formErrors.discountOnReferral = errors.discountOnReferralCents;
  if (errors.discountForRefereeCents)
    formErrors.discountForReferee = errors.discountForRefereeCents;
  return formErrors;
}

/** Longest Mindbody referral type Grove keeps (`GET /client/clientreferraltypes` strings). */
export const MINDBODY_REFERRAL_TYPE_MAX_LENGTH = 100;

/**
 * `PUT /api/mindbody/referral-type` body (issue 33 item 4): the site's referral type Grove sends
 * as `ReferredBy` when it adds an approved friend as a Mindbody client, or null for none.
 */
export interface MindbodyReferralTypeInput {
  referralType: string | null;
}

/**
 * Checks the referral type's shape: null, or plain text of 1–100 characters, else 'Pick one of
 * the referral types of your Mindbody site'. Whether the site lists it is the API's check.
 */
export function validateMindbodyReferralType(
  input: Unchecked<MindbodyReferralTypeInput>,
): FieldErrors<MindbodyReferralTypeInput> {
  const value = input.referralType;
  if (value === null) return {};
  return typeof value === 'string' &&
    value.trim() !== '' &&
    value.length <= MINDBODY_REFERRAL_TYPE_MAX_LENGTH &&
    isPlainText(value)
    ? {}
    : { referralType: MESSAGES.mindbodyReferralTypeUnknown };
}
