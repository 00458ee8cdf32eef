import { VERIFY_EMAIL_PATH } from '@grove/contracts';
import type { OutgoingEmail } from '../../mail/mail.service';

/**
 * The email with the verification link (docs/product.md#verified-senders):
 * `<origin>/verify-email#token=<token>` (the token in the fragment, so it reaches no server log),
 * valid 24 hours, once. `secret`: its body is sealed in the mail queue.
 */
export function verificationEmail(
  user: { email: string; firstName: string; businessName: string },
  origin: string,
  token: string,
): OutgoingEmail {
  return {
    to: user.email,
    subject: 'Verify your email for Grove',
    // The link verifies the business's sender: never readable from the mail queue's tables.
    secret: true,
    text: [
      `Hello ${user.firstName},`,
      '',
      `Please verify your email so Grove can send emails to the members of ${user.businessName} on your behalf (referral links, welcome emails). Until then, those emails wait.`,
      '',
      `${origin}${VERIFY_EMAIL_PATH}#token=${token}`,
      '',
      'The link works once, within 24 hours. If you did not sign up for Grove, ignore this email.',
      '',
      'Grove',
    ].join('\n'),
  };
}
