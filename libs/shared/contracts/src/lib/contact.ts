import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import { MESSAGES } from './messages';
import { isValidEmail, isValidName, isValidWebsite } from './field-rules';
import { isPlainMultilineText, isPlainText } from './plain-text';

/** docs/product.md#validation, docs/product.md#constants: the contact message holds at most 500 characters (input is blocked beyond). */
export const CONTACT_MESSAGE_MAX_LENGTH = 500;

/**
 * docs/product.md#validation: the contact form's phone "must be an Australian mobile number (en-AU)".
 * A number typed without a country code is read as Australian; `0412 345 678` and
 * `+61 412 345 678` pass, landlines (`02 9876 5432`) and other countries' numbers do not.
 * Uses libphonenumber-js's mobile-only metadata (100 KB raw instead of the full set's 156 KB, so the
 * contact form's chunk is smaller): with it only mobile numbers are valid, and the type check stays
 * as a guard.
 */
export function isAustralianMobile(value: string): boolean {
  if (!isPlainText(value)) return false;
  const phone = parsePhoneNumberFromString(value.trim(), 'AU');
  return !!phone && phone.isValid() && phone.country === 'AU' && phone.getType() === 'MOBILE';
}

/** The contact form's fields (docs/product.md#contact-page Contact page, docs/product.md#entities "Contact message"). */
export interface ContactInput {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  website: string;
  message: string;
}

/**
 * Checks the contact form (docs/product.md#validation-contact): names (docs/product.md#validation-names, ≤ 100: 'Not a valid name'),
 * email pattern ('Not a valid email address'), Australian mobile ('Not a valid phone number'),
 * web address ('Not a valid URL'), message present and ≤ 500 characters, without control characters
 * other than tab and line breaks ('Your message contains characters that cannot be sent').
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validateContactInput(
  input: ContactInput,
): Partial<Record<keyof ContactInput, string>> {
  const errors: Partial<Record<keyof ContactInput, string>> = {};
  if (!isValidName(input.firstName ?? '')) errors.firstName = MESSAGES.invalidName;
  if (!isValidName(input.lastName ?? '')) errors.lastName = MESSAGES.invalidName;
  if (!isValidEmail(input.email ?? '')) errors.email = MESSAGES.invalidEmail;
  if (!isAustralianMobile(input.phoneNumber ?? '')) errors.phoneNumber = MESSAGES.invalidPhone;
  if (!isValidWebsite(input.website ?? '')) errors.website = MESSAGES.invalidUrl;
  const message = (input.message ?? '').trim();
  if (!message) errors.message = MESSAGES.messageRequired;
  else if (message.length > CONTACT_MESSAGE_MAX_LENGTH) errors.message = MESSAGES.messageTooLong;
  else if (!isPlainMultilineText(message)) errors.message = MESSAGES.messageInvalidCharacters;
  return errors;
}
