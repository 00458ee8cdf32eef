import type { ChangePasswordRequest, UpdateAccountRequest } from './api-types';
import { MESSAGES } from './messages';
import { isValidName, isValidWebsite } from './field-rules';
import { passwordProblem, type CommonPasswordCheck } from './password';
import { isValidBusinessName, isValidPhone } from './validate';

/** The fields Account Settings edits (`PATCH /api/account`; the email is not editable). */
export const ACCOUNT_DETAILS_FIELDS: readonly (keyof UpdateAccountRequest)[] = [
  'firstName',
  'lastName',
  'businessName',
  'phoneNumber',
  'website',
];

/** Per editable field: its check (run on the trimmed value) and messages. */
const ACCOUNT_RULES: Record<
  keyof UpdateAccountRequest,
  { check: (value: string) => boolean; invalid: string; empty: string }
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
 * name'); names (docs/product.md#validation-names) 'Invalid Name', phone 'Invalid Phone Number', website
 * 'Invalid URL', business name ≤ 200 characters without control characters 'Please enter your
 * business name'.
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validateAccountDetails(
  input: UpdateAccountRequest,
): Partial<Record<keyof UpdateAccountRequest, string>> {
  const errors: Partial<Record<keyof UpdateAccountRequest, string>> = {};
  for (const field of ACCOUNT_DETAILS_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    const text = value.trim();
    const rule = ACCOUNT_RULES[field];
    if (!text) errors[field] = rule.empty;
    else if (!rule.check(text)) errors[field] = rule.invalid;
  }
  return errors;
}

/** Account Settings' 'Change password' form: the request plus the form's confirmation field. */
export interface PasswordChangeInput extends ChangePasswordRequest {
  /** Only the web form has it; when absent it is not checked. */
  confirmPassword?: string;
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
