import type { ChangePasswordRequest, UpdateAccountRequest } from './types';
import { MESSAGES } from '../common/messages';
import { isValidName, isValidWebsite } from '../common/field-rules';
import { passwordProblem, type CommonPasswordCheck } from '../platform/password';
import { DEFAULT_COUNTRY, isCountryCode } from '../common/country';
import { isValidPhone } from '../common/phone';
import { isValidBusinessName } from '../platform/signup';
import { isTimeZone } from '../common/locale-format';

/** The fields Account Settings edits (`PATCH /api/account`; the email is not editable). */
export const ACCOUNT_DETAILS_FIELDS: readonly (keyof UpdateAccountRequest)[] = [
  'firstName',
  'lastName',
  'businessName',
  'country',
  'timeZone',
  'phoneNumber',
  'website',
];

/** Per editable field: its check (run on the trimmed value, with the business's country) and messages. */
const ACCOUNT_RULES: Record<
  keyof UpdateAccountRequest,
  { check: (value: string, country: string) => boolean; invalid: string; empty: string }
> = {
  firstName: {
    check: isValidName,
    invalid: MESSAGES.signupInvalidName,
    empty: MESSAGES.fillAllFields,
  },
  lastName: {
    check: isValidName,
    invalid: MESSAGES.signupInvalidName,
    empty: MESSAGES.fillAllFields,
  },
  businessName: {
    check: isValidBusinessName,
    invalid: MESSAGES.businessNameRequired,
    empty: MESSAGES.businessNameRequired,
  },
  country: {
    check: isCountryCode,
    invalid: MESSAGES.countryInvalid,
    empty: MESSAGES.countryInvalid,
  },
  timeZone: {
    check: isTimeZone,
    invalid: MESSAGES.timeZoneInvalid,
    empty: MESSAGES.timeZoneInvalid,
  },
  phoneNumber: {
    check: isValidPhone,
    invalid: MESSAGES.signupInvalidPhone,
    empty: MESSAGES.fillAllFields,
  },
  website: {
    check: isValidWebsite,
    invalid: MESSAGES.signupInvalidUrl,
    empty: MESSAGES.fillAllFields,
  },
};

/**
 * Checks Account Settings' 'Your details' (docs/product.md#validation-signup signup rules and messages). Only the fields
 * present are checked (`PATCH /api/account` takes any subset); each is trimmed first. An empty
 * field gets 'Please fill in all required fields' (business name: 'Please enter your business
 * name'); names (docs/product.md#validation-names) 'Invalid Name', country a known ISO code ('Please
 * choose your country'), time zone an IANA zone ('Please choose your time zone'), phone valid for the country ('Invalid Phone Number',
 * docs/product.md#country), website 'Invalid URL', business name ≤ 200 characters without control
 * characters 'Please enter your business name'.
 * @param currentCountry the business's country now, for a phone number sent without `country`
 *   (Australia when not given)
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validateAccountDetails(
  input: UpdateAccountRequest,
  currentCountry: string = DEFAULT_COUNTRY,
): Partial<Record<keyof UpdateAccountRequest, string>> {
  const errors: Partial<Record<keyof UpdateAccountRequest, string>> = {};
  const sent = input.country?.trim();
  // An invalid country gets its own message; the phone is then read for the current one.
  const country = isCountryCode(sent) ? sent : currentCountry;
  for (const field of ACCOUNT_DETAILS_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    const text = value.trim();
    const rule = ACCOUNT_RULES[field];
    if (!text) errors[field] = rule.empty;
    else if (!rule.check(text, country)) errors[field] = rule.invalid;
  }
  return errors;
}

/** Account Settings' 'Change password' form: the request plus the form's confirmation field. */
export interface PasswordChangeInput extends ChangePasswordRequest {
  /** Only the web form has it; when absent it is not checked. */
  confirmPassword?: string;
}

/** What 'Set a password' says above its form (docs/product.md#passkeys). */
export const SET_PASSWORD_LEAD =
  "You joined with a passkey, so your account has no password yet. Set one to also sign in with your email and password; your passkey confirms it's you.";

/** Account Settings' 'Set a password' form (an account that joined with a passkey). */
export interface PasswordSetInput {
  newPassword: string;
  /** Only the web form has it; when absent it is not checked. */
  confirmPassword?: string;
}

/**
 * Checks a first password of an account that joined with a passkey: Grove's password rule
 * (`passwordProblem`, as a change), and the confirmation, when given, equals it ('The new
 * passwords do not match'). No current password: the account has none the person knows; the
 * passkey proves it is them (docs/decisions/passkeys.md).
 * @param isCommonPassword the API's common-password check; the web form leaves it out
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validatePasswordSet(
  input: PasswordSetInput,
  isCommonPassword?: CommonPasswordCheck,
): Partial<Record<keyof PasswordSetInput, string>> {
  const errors: Partial<Record<keyof PasswordSetInput, string>> = {};
  const problem = passwordProblem(input.newPassword ?? '', isCommonPassword);
  if (problem) errors.newPassword = problem;
  if (input.confirmPassword !== undefined && input.confirmPassword !== input.newPassword) {
    errors.confirmPassword = MESSAGES.passwordsDoNotMatch;
  }
  return errors;
}

/**
 * Checks a password change: the current password is required ('Please enter your current
 * password'), the new one follows Grove's password rule (`passwordProblem`: 'Password must be at
 * least 12 characters', 'Password can be at most 128 characters', and, when `isCommonPassword`
 * is given, 'This password is too common…'), and the confirmation, when given, equals it ('The
 * new passwords do not match'). Passwords are not trimmed. Whether the current password is right
 * only the API can tell.
 * @param isCommonPassword the API's common-password check; the web form leaves it out
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validatePasswordChange(
  input: PasswordChangeInput,
  isCommonPassword?: CommonPasswordCheck,
): Partial<Record<keyof PasswordChangeInput, string>> {
  const errors: Partial<Record<keyof PasswordChangeInput, string>> = {};
  if (!input.currentPassword) errors.currentPassword = MESSAGES.currentPasswordRequired;
  const problem = passwordProblem(input.newPassword ?? '', isCommonPassword);
  if (problem) errors.newPassword = problem;
  if (input.confirmPassword !== undefined && input.confirmPassword !== input.newPassword) {
    errors.confirmPassword = MESSAGES.passwordsDoNotMatch;
  }
  return errors;
}
