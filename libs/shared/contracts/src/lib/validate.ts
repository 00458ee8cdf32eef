import { isValidPhoneNumber } from 'libphonenumber-js/min';
import { DEFAULT_COUNTRY, isCountryCode } from './country';
import { MESSAGES } from './messages';
import {
  isValidCents,
  isValidEmail,
  isValidName,
  isValidWebsite,
  type FieldErrors,
  type Unchecked,
} from './field-rules';
import { dollarsToCents } from './money';
import { isPlainText } from './plain-text';
import { BUSINESS_NAME_MAX_LENGTH } from './rules';
import { passwordProblem, type CommonPasswordCheck } from './password';

/**
 * A valid phone number, mobile or not (docs/product.md#country): read as a number of `country`
 * (the business's, ISO 3166-1 alpha-2; Australia unless given, the old app's en-AU rule), or of
 * its own country when written in international format (`+1 415 555 0134`). "(415) 555-0134"
 * passes for 'US', "0412 345 678" and "02 9876 5432" for 'AU'. Checked with libphonenumber-js
 * (min metadata). A control character anywhere, or an unknown country, refuses it.
 */
export function isValidPhone(value: string, country: string = DEFAULT_COUNTRY): boolean {
  return isPlainText(value) && isCountryCode(country) && isValidPhoneNumber(value.trim(), country);
}

/**
 * A business name (signup, Account Settings): at most 200 characters after trimming, no control
 * character. Emptiness is each form's own first check.
 */
export function isValidBusinessName(value: string): boolean {
  return value.trim().length <= BUSINESS_NAME_MAX_LENGTH && isPlainText(value);
}

/**
 * The member body of the API (docs/product.md#entities "New member payload"): `POST
 * /api/members`, `POST /api/members/:id/branches`, `POST /api/prospects/:id/approve` and, each
 * field optional, `PATCH /api/members/:id`. Amounts are integer cents.
 */
export interface MemberInput {
  memberName: string;
  memberEmail: string;
  /** Monthly membership price, integer cents (0–100,000,000). */
  membershipPriceCents: number;
  /** Discount per referral (per branch), integer cents (0–100,000,000). */
  discountCents: number;
}

/** The add-tree / add-branch / edit form's values: amounts in dollars as typed ("49", "49.95"). */
export interface MemberForm {
  memberName: string;
  memberEmail: string;
  membershipPrice: string;
  discount: string;
}

const memberRules: { [K in keyof MemberInput]: [(value: unknown) => boolean, string] } = {
  memberName: [(value) => typeof value === 'string' && isValidName(value), MESSAGES.invalidName],
  memberEmail: [(value) => typeof value === 'string' && isValidEmail(value), MESSAGES.invalidEmail],
  membershipPriceCents: [isValidCents, MESSAGES.invalidAmount],
  discountCents: [isValidCents, MESSAGES.invalidDiscount],
};

/**
 * Checks a member body (docs/product.md#validation, current version): every field required, each
 * with its own message ('Not a valid name', 'Not a valid email address', 'Not a valid amount',
 * 'Not a valid discount price'); amounts are whole cents from 0 to 100,000,000 (`isValidCents`).
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validateMemberInput(input: Unchecked<MemberInput>): FieldErrors<MemberInput> {
  const errors: FieldErrors<MemberInput> = {};
  for (const field of Object.keys(memberRules) as (keyof MemberInput)[]) {
    const [valid, message] = memberRules[field];
    if (!valid(input[field])) errors[field] = message;
  }
  return errors;
}

/**
 * Checks the body of `PATCH /api/members/:id`: the fields sent (not `undefined`) follow
 * `validateMemberInput`'s rules; a field sent as `null` fails with its message.
 * @returns one message per invalid field; an empty object means the changes are valid
 */
export function validateMemberChanges(input: Unchecked<MemberInput>): FieldErrors<MemberInput> {
  const errors = validateMemberInput(input);
  for (const field of Object.keys(errors) as (keyof MemberInput)[])
    if (input[field] === undefined) delete errors[field];
  return errors;
}

/**
 * The form's values as the API's member body: dollars → cents (`dollarsToCents`; text that is not
 * an amount becomes `NaN`, which `validateMemberInput` refuses).
 */
export function memberFromForm(form: MemberForm): MemberInput {
  const cents = (dollars: string | undefined) => dollarsToCents(dollars ?? '') ?? Number.NaN;
  return {
    memberName: form.memberName,
    memberEmail: form.memberEmail,
    membershipPriceCents: cents(form.membershipPrice),
    discountCents: cents(form.discount),
  };
}

/**
 * Checks the add-member form (dollars as typed) with the API's rules (`validateMemberInput` on
 * `memberFromForm`), so the form and the API answer the same messages; also the CSV import's row
 * check.
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validateMemberForm(form: MemberForm): FieldErrors<MemberForm> {
  const errors = validateMemberInput(memberFromForm(form));
  const formErrors: FieldErrors<MemberForm> = {};
  if (errors.memberName) formErrors.memberName = errors.memberName;
  if (errors.memberEmail) formErrors.memberEmail = errors.memberEmail;
  if (errors.membershipPriceCents) formErrors.membershipPrice = errors.membershipPriceCents;
  if (errors.discountCents) formErrors.discount = errors.discountCents;
  return formErrors;
}

/** The signup form (docs/product.md#entities "Signup form fields" plus the business name, its country and a password). */
export interface SignupInput {
  businessName: string;
  /** The business's country (ISO 3166-1 alpha-2); its phone number is read for it. */
  country: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  website: string;
  password: string;
}

/**
 * Checks the signup form in docs/product.md#validation-signup's order: all fields filled ('Please fill in all required
 * fields'), then a business name of at most 200 characters without control characters ('Please
 * enter your business name', as in Account Settings), then 'Invalid Name' (each name), 'Invalid
 * Email', a known country ('Please choose your country'), 'Invalid Phone Number' (valid for that
 * country, docs/product.md#country), 'Invalid URL', then Grove's password rule (`passwordProblem`: at
 * least 12, at most 128 characters, not a common password when `isCommonPassword` is given).
 * @param isCommonPassword the API's common-password check; the web form leaves it out
 * @returns the first message that applies, or null when the input is valid
 */
export function validateSignupInput(
  input: SignupInput,
  isCommonPassword?: CommonPasswordCheck,
): string | null {
  const fields: (keyof SignupInput)[] = [
    'businessName',
    'firstName',
    'lastName',
    'email',
    'phoneNumber',
    'website',
    'password',
  ];
  if (fields.some((field) => !(input[field] ?? '').trim())) return MESSAGES.fillAllFields;
  if (!isValidBusinessName(input.businessName)) return MESSAGES.businessNameRequired;
  if (!isValidName(input.firstName) || !isValidName(input.lastName))
    return MESSAGES.signupInvalidName;
  if (!isValidEmail(input.email)) return MESSAGES.signupInvalidEmail;
  if (!isCountryCode(input.country)) return MESSAGES.countryInvalid;
  if (!isValidPhone(input.phoneNumber, input.country)) return MESSAGES.signupInvalidPhone;
  if (!isValidWebsite(input.website)) return MESSAGES.signupInvalidUrl;
  return passwordProblem(input.password, isCommonPassword);
}
