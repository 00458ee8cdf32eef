import {
  ACCEPT_INVITATION_PATH,
  INVITATION_TTL_SECONDS,
  STAFF_ROLE_LABELS,
  type StaffRole,
} from '@grove/contracts';
import type { OutgoingEmail } from '../../platform/mail/mail.service';

/**
 * The invitation email (docs/product.md#staff-accounts): who invites to which business and as
 * what, the link `<origin>/accept-invitation#token=<token>` (the token in the fragment, so it
 * reaches no server log or Referer), that it works once within 7 days, and that nothing happens
 * if it is ignored.
 * @param origin the origin of the link (PUBLIC_ORIGIN), no trailing slash
 * @param token the plain token (only its SHA-256 is stored)
 */
export function staffInvitationEmail(
  invitation: { email: string; role: StaffRole },
  from: { businessName: string; firstName: string },
  origin: string,
  token: string,
): OutgoingEmail {
  const days = INVITATION_TTL_SECONDS / 86_400;
  return {
    to: invitation.email,
    subject: `${from.firstName} invited you to ${from.businessName} on Grove`,
    text: [
      'Hello,',
      '',
      `${from.firstName} invited you to join ${from.businessName} on Grove as ${STAFF_ROLE_LABELS[invitation.role]}. To accept, open this link and choose your name and password:`,
      '',
      `${origin}${ACCEPT_INVITATION_PATH}#token=${token}`,
      '',
      `The link works once, within ${days} days. If you were not expecting it, ignore this email: nothing happens.`,
      '',
      'Grove',
    ].join('\n'),
  };
}
