import { isValidPhoneNumber } from 'libphonenumber-js/min';
import { MESSAGES } from './messages';
import {
  AMOUNT_MAX_DOLLARS,
  AMOUNT_PATTERN,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  NAME_MAX_LENGTH,
  NAME_PATTERN,
  PASSWORD_MIN_LENGTH,
} from './rules';

/** SPEC §5: letters and spaces only, at most 100 characters (checked after trimming). */
export function isValidName(value: string): boolean {
  const name = value.trim();
  return name.length > 0 && name.length <= NAME_MAX_LENGTH && NAME_PATTERN.test(name);
}

/** SPEC §5: a standard email address pattern, at most 254 characters. */
export function isValidEmail(value: string): boolean {
  const email = value.trim();
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email);
}

/** SPEC §5: a non-negative dollar amount with at most two decimals (and at most $1,000,000). */
export function isValidAmount(value: string | number): boolean {
  const text = String(value).trim();
  return AMOUNT_PATTERN.test(text) && Number(text) <= AMOUNT_MAX_DOLLARS;
}

/**
 * A phone number valid in its country; numbers without a country code are read as Australian
 * (SPEC §9: phone locale en-AU).
 */
export function isValidPhone(value: string): boolean {
  return isValidPhoneNumber(value.trim(), 'AU');
}

/**
 * A web address an owner would type: `https://mygym.com.au`, `www.mygym.com` or `mygym.com`.
 * http(s) only, and the host must contain a dot.
 */
export function isValidWebsite(value: string): boolean {
  const text = value.trim();
  if (!text || /\s/.test(text)) return false;
  try {
    const url = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    return (url.protocol === 'http:' || url.protocol === 'https:') && /\.[a-z]{2,}$/i.test(url.hostname);
  } catch {
    return false;
  }
}

/** The add-tree / add-branch form's input (SPEC §3 "New member payload"); amounts in dollars. */
export interface MemberInput {
  memberName: string;
  memberEmail: string;
  membershipPrice: string;
  discount: string;
}

/**
 * Checks the add-member form (SPEC §5, current version): every field required, each with its own
 * message. Returns one message per invalid field; an empty object means the input is valid.
 */
export function validateMemberInput(input: MemberInput): Partial<Record<keyof MemberInput, string>> {
  const errors: Partial<Record<keyof MemberInput, string>> = {};
  if (!isValidName(input.memberName ?? '')) errors.memberName = MESSAGES.invalidName;
  if (!isValidEmail(input.memberEmail ?? '')) errors.memberEmail = MESSAGES.invalidEmail;
  if (!isValidAmount(input.membershipPrice ?? '')) errors.membershipPrice = MESSAGES.invalidAmount;
  if (!isValidAmount(input.discount ?? '')) errors.discount = MESSAGES.invalidDiscount;
  return errors;
}

/** The signup form (SPEC §3 "Signup form fields" plus the business name and a password). */
export interface SignupInput {
  businessName: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  website: string;
  password: string;
}

/**
 * Checks the signup form in SPEC §5's order: all fields filled ('Please fill in all required
 * fields'), then 'Invalid Name' (each name), 'Invalid Email', 'Invalid Phone Number', 'Invalid URL',
 * then Grove's password rule.
 * @returns the first message that applies, or null when the input is valid
 */
export function validateSignupInput(input: SignupInput): string | null {
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
  if (!isValidName(input.firstName) || !isValidName(input.lastName)) return MESSAGES.signupInvalidName;
  if (!isValidEmail(input.email)) return MESSAGES.signupInvalidEmail;
  if (!isValidPhone(input.phoneNumber)) return MESSAGES.signupInvalidPhone;
  if (!isValidWebsite(input.website)) return MESSAGES.signupInvalidUrl;
  if (input.password.length < PASSWORD_MIN_LENGTH) return MESSAGES.passwordTooShort;
  return null;
}
