/**
 * Forgot password (docs/product.md#forgot-password, issue 25 Build 3): the owner asks for a reset
 * link by email, then chooses a new password under the signup rule. Shared by the shell's two
 * pages and the API (`POST /api/auth/password-reset`, `POST /api/auth/password-reset/confirm`).
 */
import { isValidEmail, type FieldErrors, type Unchecked } from '../common/field-rules';
import { MESSAGES } from '../common/messages';
import { passwordProblem, type CommonPasswordCheck } from './password';

/** How long a reset link works, minutes (single use). */
export const PASSWORD_RESET_TTL_MINUTES = 30;

/** The shell's pages: ask for a link, and the link's target (its token in the fragment, `#token=…`). */
export const FORGOT_PASSWORD_PATH = '/forgot-password';
export const RESET_PASSWORD_PATH = '/reset-password';

/** `POST /api/auth/password-reset` body. */
export interface PasswordResetRequest {
  email: string;
}

/** `POST /api/auth/password-reset/confirm` body: the link's token and the new password. */
export interface PasswordResetConfirmRequest {
  token: string;
  password: string;
}

/** The 'Choose a new password' form: the request's password plus its confirmation. */
export interface PasswordResetInput {
  password: string;
  /** Only the web form has it; when absent it is not checked. */
  confirmPassword?: string;
}

/**
 * Checks the 'Forgot password?' form: a valid email address ('Not a valid email address',
 * docs/product.md#validation-add-member email rule). Whether an account uses it is never told.
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validatePasswordResetRequest(
  input: Unchecked<PasswordResetRequest>,
): FieldErrors<PasswordResetRequest> {
  return typeof input.email === 'string' && isValidEmail(input.email)
    ? {}
    : { email: MESSAGES.invalidEmail };
}

/**
 * Checks a new password chosen through a reset link: Grove's password rule, as at signup
 * (`passwordProblem`: 'Password must be at least 12 characters', 'Password can be at most 128
 * characters', and with `isCommonPassword` 'This password is too common…'), and the
 * confirmation, when given, equal to it ('The new passwords do not match').
 * @param isCommonPassword the API's common-password check; the web form leaves it out
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validatePasswordReset(
  input: PasswordResetInput,
  isCommonPassword?: CommonPasswordCheck,
): Partial<Record<keyof PasswordResetInput, string>> {
  const errors: Partial<Record<keyof PasswordResetInput, string>> = {};
  const problem = passwordProblem(input.password ?? '', isCommonPassword);
  if (problem) errors.password = problem;
  if (input.confirmPassword !== undefined && input.confirmPassword !== input.password)
    errors.confirmPassword = MESSAGES.passwordsDoNotMatch;
  return errors;
}
