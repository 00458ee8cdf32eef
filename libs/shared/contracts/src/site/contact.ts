import { DEFAULT_COUNTRY, isCountryCode } from '../common/country';
import { MESSAGES } from '../common/messages';
import { isValidEmail, isValidName, isValidWebsite } from '../common/field-rules';
import { isPlainMultilineText } from '../common/plain-text';
import { isValidPhone } from '../common/phone';

/** docs/product.md#validation, docs/product.md#constants: the contact message holds at most 500 characters (input is blocked beyond). */
export const CONTACT_MESSAGE_MAX_LENGTH = 500;

/** The contact form's fields (docs/product.md#contact-page Contact page, docs/product.md#entities "Contact message"). */
export interface ContactInput {
  firstName: string;
  lastName: string;
  email: string;
  /** The country the phone number is read for (ISO 3166-1 alpha-2); Australia when absent. */
  country?: string;
  phoneNumber: string;
  website: string;
  message: string;
}

/**
 * Checks the contact form (docs/product.md#validation-contact): names (docs/product.md#validation-names, ≤ 100: 'Not a valid name'),
 * email pattern ('Not a valid email address'), any valid phone number, mobile or not, read for
 * `country` or in international format ('Not a valid phone number', docs/product.md#country; the
 * old app took Australian mobiles only),
 * web address ('Not a valid URL'), message present and ≤ 500 characters, without control characters
 * other than tab and line breaks ('Your message contains characters that cannot be sent'), and,
 * with `sanitize`, a message that still holds text once sanitized (else the 'message required'
 * text: docs/product.md#validation "message sanitized before sending").
 * @param sanitize the API's HTML sanitizer (sanitize-html); the web form leaves it out
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validateContactInput(
  input: ContactInput,
  sanitize?: (text: string) => string,
): Partial<Record<keyof ContactInput, string>> {
  const errors: Partial<Record<keyof ContactInput, string>> = {};
  if (!isValidName(input.firstName ?? '')) errors.firstName = MESSAGES.invalidName;
  if (!isValidName(input.lastName ?? '')) errors.lastName = MESSAGES.invalidName;
  if (!isValidEmail(input.email ?? '')) errors.email = MESSAGES.invalidEmail;
  if (input.country && !isCountryCode(input.country)) errors.country = MESSAGES.countryInvalid;
  else if (!isValidPhone(input.phoneNumber ?? '', input.country || DEFAULT_COUNTRY))
    errors.phoneNumber = MESSAGES.invalidPhone;
  if (!isValidWebsite(input.website ?? '')) errors.website = MESSAGES.invalidUrl;
  const message = (input.message ?? '').trim();
  if (!message) errors.message = MESSAGES.messageRequired;
  else if (message.length > CONTACT_MESSAGE_MAX_LENGTH) errors.message = MESSAGES.messageTooLong;
  else if (!isPlainMultilineText(message)) errors.message = MESSAGES.messageInvalidCharacters;
  else if (sanitize && !sanitize(message)) errors.message = MESSAGES.messageRequired;
  return errors;
}
