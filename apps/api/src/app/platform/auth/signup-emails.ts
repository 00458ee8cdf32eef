import { FORGOT_PASSWORD_PATH, SIGNUP_CONFIRM_PATH, SIGNUP_LINK_TTL_HOURS } from '@grove/contracts';
import type { OutgoingEmail } from '../mail/mail.service';

/** The subject of the email with a sign-up link (journeys and tests find it by it). */
export const SIGNUP_CONFIRM_SUBJECT = 'Confirm your email to finish creating your Grove account';

/** The subject of the email to an address that already has an account. */
export const SIGNUP_TAKEN_SUBJECT = 'Someone tried to create a Grove account with your email';

/**
 * The sign-up link email (docs/product.md#signup): the link
 * `<origin>/signup/confirm#token=<token>` (the token in the fragment, so it reaches no server log
 * or Referer, as reset links), that it works once within 24 hours, and that nothing is made if
 * it is ignored.
 * @param origin PUBLIC_ORIGIN, no trailing slash
 * @param token the plain token (only its SHA-256 is stored; the email is `secret`: sealed in the queue)
 */
export function signupConfirmEmail(
  to: { email: string; firstName: string; businessName: string },
  origin: string,
  token: string,
): OutgoingEmail {
  return {
    to: to.email,
    subject: SIGNUP_CONFIRM_SUBJECT,
    // The link is the account: never readable from the mail queue's tables.
    secret: true,
    text: [
      `Hello ${to.firstName},`,
      '',
      `To finish creating the Grove account of ${to.businessName} with this email address, open this link:`,
      '',
      `${origin}${SIGNUP_CONFIRM_PATH}#token=${token}`,
      '',
      `The link works once, within ${SIGNUP_LINK_TTL_HOURS} hours.`,
      'If you did not sign up for Grove, ignore this email: no account is created.',
      '',
      'Grove',
    ].join('\n'),
  };
}

/**
 * The email to an address that already has a Grove account when someone signs up with it
 * (docs/product.md#signup): nothing was created; links to log in and to choose a new password.
 * Contains no secret and nothing the sign-up form held (it may not be the owner who typed it).
 * @param origin PUBLIC_ORIGIN, no trailing slash
 */
export function signupTakenEmail(email: string, origin: string): OutgoingEmail {
  return {
    to: email,
    subject: SIGNUP_TAKEN_SUBJECT,
    text: [
      'Hello,',
      '',
      `Someone tried to create a new Grove account with this email address (${email}). This address already has a Grove account, so nothing was created and your account is unchanged.`,
      '',
      'If it was you, log in here:',
      `${origin}/login`,
      '',
      'Forgot your password? Choose a new one here:',
      `${origin}${FORGOT_PASSWORD_PATH}`,
      '',
      'If it was not you, you can ignore this email.',
      '',
      'Grove',
    ].join('\n'),
  };
}
