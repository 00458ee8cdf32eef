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
 * @param origin the origin of the link (PUBLIC_ORIGIN, else the request's), no trailing slash
 * @param token the plain token (only its SHA-256 is stored)
 */
export function passwordResetEmail(
  owner: PasswordEmailOwner,
  origin: string,
  token: string,
): OutgoingEmail {
  const link = `${origin}${RESET_PASSWORD_PATH}#token=${token}`;
  return {
    to: owner.email,
    subject: 'Choose a new Grove password',
    text: [
      `Hello ${owner.firstName},`,
      '',
      `Someone asked to reset the password of your Grove account (${owner.email}, ${owner.businessName}). To choose a new one, open this link:`,
      '',
      link,
      '',
      `The link works once, within ${PASSWORD_RESET_TTL_MINUTES} minutes. Choosing a new password signs out every browser signed in to your account.`,
      'If you did not ask for it, ignore this email: your password stays as it is.',
      '',
      'Grove',
    ].join('\n'),
  };
}
