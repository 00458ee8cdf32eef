/**
 * A second factor at sign-in (issue 34 item 3, docs/product.md#second-factor,
 * docs/decisions/second-factor.md): an authenticator app's 6-digit code (TOTP, RFC 6238: SHA-1,
 * 30 seconds) or one of 10 single-use recovery codes.
 */

/** How many recovery codes one confirmed enrolment gives. */
export const RECOVERY_CODE_COUNT = 10;

/** What the second-factor forms and routes answer (docs/product.md#second-factor). */
export const SECOND_FACTOR_MESSAGES = {
  codeInvalid: 'Enter the 6-digit code from your authenticator app, or a recovery code',
  codeWrong: 'That code is not correct. Try the newest code from your app.',
  challengeExpired: 'This sign-in has expired. Please sign in again.',
  alreadyEnrolled: 'An authenticator app is already set up. Turn it off first to set up another.',
  notEnrolled: 'No authenticator app is set up.',
  enrolmentMissing: 'Start setting up the authenticator app again.',
  disableNeedsProof: 'Enter a code from your authenticator app, a recovery code or your password',
  disableProofWrong: 'That code or password is not correct.',
  requireOwnFirst: 'Set up your own authenticator app first.',
  noFactor: 'Set up an authenticator app or a passkey first.',
  requirementInvalid: 'Choose whether to require a second factor',
  setupRequired:
    'Your business asks everyone to use a second factor. Please set up an authenticator app or a passkey.',
} as const;

/** The body of the sign-in's second step (`POST /api/auth/second-factor`). */
export interface SecondFactorInput {
  challenge: string;
  code: string;
}

/** A code as typed: spaces and dashes dropped, letters lower-cased. */
export function normaliseSecondFactorCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

/** A 6-digit authenticator code (after `normaliseSecondFactorCode`). */
export const TOTP_CODE = /^\d{6}$/;
/** A recovery code: 10 characters of Crockford-style base32 (after `normaliseSecondFactorCode`). */
export const RECOVERY_CODE = /^[0-9a-hjkmnp-tv-z]{10}$/;

/**
 * Checks a code as typed on the sign-in's second step or to confirm or turn off the app.
 * @returns `SECOND_FACTOR_MESSAGES.codeInvalid`, or null when it has the shape of a TOTP or recovery code
 */
export function validateSecondFactorCode(code: unknown): string | null {
  if (typeof code !== 'string') return SECOND_FACTOR_MESSAGES.codeInvalid;
  const clean = normaliseSecondFactorCode(code);
  return TOTP_CODE.test(clean) || RECOVERY_CODE.test(clean)
    ? null
    : SECOND_FACTOR_MESSAGES.codeInvalid;
}
