import {
  localeFormats,
  PASSWORD_RESET_TTL_MINUTES,
  RESET_PASSWORD_PATH,
  type BusinessLocale,
} from '@grove/contracts';
import type { OutgoingEmail } from '../mail/mail.service';

/** Who an owner's password email is addressed to: their login email, first name and business. */
export interface PasswordEmailOwner {
  email: string;
  firstName: string;
  businessName: string;
  /** How the business writes dates (its locale and time zone); Australia's when absent. */
  businessLocale?: BusinessLocale;
}

/**
 * The email telling an owner their password was changed (ASVS 2.2.3), in Account Settings or
 * through a reset link: when (in the business's time zone, named), that other browsers were signed out, and whom to write to if
 * it was not them. Contains no secret.
 * @param support the address owners write to (CONTACT_RECIPIENT)
 */
export function passwordChangedEmail(
  owner: PasswordEmailOwner,
  at: Date,
  support: string,
): OutgoingEmail {
  const format = localeFormats(owner.businessLocale);
  return {
    to: owner.email,
    subject: 'Your Grove password was changed',
    text: [
      `Hello ${owner.firstName},`,
      '',
      `The password of your Grove account (${owner.email}, ${owner.businessName}) was changed on ${format.dateTime(at)} (${format.business.timeZone}).`,
      'Every other browser signed in to this account has been signed out.',
      '',
      `If you did not change it, write to ${support} right away.`,
      '',
      'Grove',
    ].join('\n'),
  };
}

/**
 * The reset link email (docs/product.md#forgot-password): the link
 * `<origin>/reset-password#token=<token>` (the token in the fragment, so it reaches no server log
 * or Referer), that it works once within 30 minutes, and that nothing changes if the owner
 * ignores it.
 * With `reason` 'sign-in-paused' (nobody asked: the account's sign-in was paused after
 * THROTTLE_ACCOUNT_LOGIN_LIMIT wrong passwords, issue 34) it says so, and that the link lifts it.
 * @param origin the origin of the link (PUBLIC_ORIGIN, else the request's), no trailing slash
 * @param token the plain token (only its SHA-256 is stored)
 */
export function passwordResetEmail(
  owner: PasswordEmailOwner,
  origin: string,
  token: string,
  reason?: 'sign-in-paused',
): OutgoingEmail {
  const link = `${origin}${RESET_PASSWORD_PATH}#token=${token}`;
  const why =
    reason === 'sign-in-paused'
      ? `Signing in to your Grove account (${owner.email}, ${owner.businessName}) is paused for a while: someone typed a wrong password for it too many times. If that was not you, your password held; you can still choose a new one. To sign in now, choose a new password with this link:`
      : `Someone asked to reset the password of your Grove account (${owner.email}, ${owner.businessName}). To choose a new one, open this link:`;
  return {
    to: owner.email,
    subject:
      reason === 'sign-in-paused'
        ? 'Signing in to Grove is paused: choose a new password'
        : 'Choose a new Grove password',
    text: [
      `Hello ${owner.firstName},`,
      '',
      why,
      '',
      link,
      '',
      `The link works once, within ${PASSWORD_RESET_TTL_MINUTES} minutes. Choosing a new password signs out every browser signed in to your account.`,
      reason === 'sign-in-paused'
        ? 'If you do nothing, your password stays as it is and signing in works again later.'
        : 'If you did not ask for it, ignore this email: your password stays as it is.',
      '',
      'Grove',
    ].join('\n'),
  };
}
