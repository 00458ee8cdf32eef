/**
 * Sign-up by email (issue 31 item 6, docs/product.md#signup, OWASP ASVS 4.0.3 V2/V3: no account
 * enumeration): `POST /api/auth/signup` answers the same for every valid form, new address or
 * taken, and emails that address; the account is made from the emailed link
 * (`POST /api/auth/signup/confirm`). Shared by the shell's two pages and the API.
 */

/** How long a sign-up link works, hours (single use; a new sign-up for the address replaces it). */
export const SIGNUP_LINK_TTL_HOURS = 24;

/** The shell's page a sign-up link opens (its token in the fragment, `#token=…`, as reset links). */
export const SIGNUP_CONFIRM_PATH = '/signup/confirm';

/** `POST /api/auth/signup` → 202, the same for every address. */
export interface SignupAccepted {
  status: 'check-email';
}

/** `POST /api/auth/signup/confirm` body: the link's token. */
export interface SignupConfirmRequest {
  token: string;
}

/** The messages of sign-up by email (Grove's own). */
export const SIGNUP_CONFIRM_MESSAGES = {
  /** 400: the link is unknown, used or past its 24 hours. */
  linkInvalid: 'This link has expired or was already used. Sign up again.',
  /** 409: the address got an account between the sign-up and the link (e.g. a second link). */
  accountExists: 'An account with this email already exists. Log in instead.',
} as const;
