import { isCountryCode } from '../common/country';
import { MESSAGES } from '../common/messages';
import { isValidEmail, isValidName, isValidWebsite } from '../common/field-rules';
import { isPlainText } from '../common/plain-text';
import { BUSINESS_NAME_MAX_LENGTH } from '../common/rules';
import { passwordProblem, type CommonPasswordCheck } from './password';
import { isValidPhone } from '../common/phone';

/**
 * A business name (signup, Account Settings): at most 200 characters after trimming, no control
 * character. Emptiness is each form's own first check.
 */
export function isValidBusinessName(value: string): boolean {
  return value.trim().length <= BUSINESS_NAME_MAX_LENGTH && isPlainText(value);
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
