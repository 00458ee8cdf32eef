import type { LeadInput } from './types';
import { MESSAGES } from '../common/messages';
import { isValidEmail, isValidName } from '../common/field-rules';
import { isPlainText } from '../common/plain-text';
import { isValidPhone } from '../common/phone';
import { DEFAULT_COUNTRY, isCountryCode } from '../common/country';

/** Longest company name on the landing page's 'Learn More' form. */
export const LEAD_COMPANY_MAX_LENGTH = 200;

/**
 * Checks the landing page's 'Learn More' form (docs/product.md#landing-page Landing page; rules of docs/product.md#validation): full name
 * (docs/product.md#validation-names, ≤ 100: 'Not a valid name'), email pattern ('Not a valid email address'), a
 * known country ('Please choose your country'; Australia when absent) and a phone number valid
 * for it or in international format ('Not a valid phone number', docs/product.md#country, the
 * contact form's rule), company required ('Please enter your company name') and at most 200 characters
 * ('Your company name can be at most 200 characters') without control characters ('Your company
 * name contains characters that cannot be saved'); all checked after trimming.
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validateLeadInput(input: LeadInput): Partial<Record<keyof LeadInput, string>> {
  const errors: Partial<Record<keyof LeadInput, string>> = {};
  if (!isValidName(input.fullName ?? '')) errors.fullName = MESSAGES.invalidName;
  if (!isValidEmail(input.email ?? '')) errors.email = MESSAGES.invalidEmail;
  if (input.country && !isCountryCode(input.country)) errors.country = MESSAGES.countryInvalid;
  else if (!isValidPhone(input.phone ?? '', input.country || DEFAULT_COUNTRY))
    errors.phone = MESSAGES.invalidPhone;
  const company = (input.company ?? '').trim();
  if (!company) errors.company = MESSAGES.companyRequired;
  else if (company.length > LEAD_COMPANY_MAX_LENGTH) errors.company = MESSAGES.companyTooLong;
  else if (!isPlainText(company)) errors.company = MESSAGES.companyInvalidCharacters;
  return errors;
}
