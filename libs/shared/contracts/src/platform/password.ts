/**
 * Grove's password rule, used by signup, Account Settings' 'Change password' (the web forms and
 * the API's services) and by login to tell an owner whose older password no longer meets it.
 * Source: OWASP ASVS 4.0.3 V2.1 — at least 12 characters after runs of spaces are combined
 * (2.1.1), up to 128 allowed (2.1.2), any character, nothing trimmed or truncated (2.1.3, 2.1.4),
 * no composition rules (2.1.9), refused when it is a known common or breached password (2.1.7).
 *
 * The common-password list is large, so it is not part of this library (it would land in every
 * web bundle): the API hands its own check (`isCommonPassword`) to these functions; the web forms
 * leave it out and check the length only.
 */
import { MESSAGES } from '../common/messages';

/** ASVS 2.1.1: fewest characters (Unicode code points, runs of spaces counted as one). */
export const PASSWORD_MIN_LENGTH = 12;
/** ASVS 2.1.2: most characters a password may have (Unicode code points). */
export const PASSWORD_MAX_LENGTH = 128;

/**
 * Router state the shell hands Account Settings after a login whose reply said
 * `passwordChangeRequired`: the page then shows `MESSAGES.passwordChangeRequired` over 'Change
 * password' until the password is changed.
 */
export interface AccountSettingsRouteState {
  passwordChangeRequired?: boolean;
  /** The business requires a second factor and this member of staff has none (Security card). */
  secondFactorSetupRequired?: boolean;
}

/** The hint under a new-password field (signup, Account Settings). */
export const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters; a few unrelated words make a good one.`;

/** Tells whether a password is on a list of common or breached passwords (the API's list). */
export type CommonPasswordCheck = (password: string) => boolean;

/** Length of a password as ASVS 2.1.1 counts it: code points, each run of spaces counting once. */
export function passwordLength(password: string): number {
  return [...password.replace(/ {2,}/g, ' ')].length;
}

/**
 * Checks a new password against Grove's rule.
 * @param password as typed (never trimmed)
 * @param isCommon the API's common-password check; left out by the web forms (length only)
 * @returns 'Password must be at least 12 characters', 'Password can be at most 128 characters',
 *   'This password is too common. Please choose one that is harder to guess.', or null when valid
 */
export function passwordProblem(password: string, isCommon?: CommonPasswordCheck): string | null {
  const length = passwordLength(password);
  if (length < PASSWORD_MIN_LENGTH) return MESSAGES.passwordTooShort;
  if ([...password].length > PASSWORD_MAX_LENGTH) return MESSAGES.passwordTooLong;
  if (isCommon?.(password)) return MESSAGES.passwordTooCommon;
  return null;
}
