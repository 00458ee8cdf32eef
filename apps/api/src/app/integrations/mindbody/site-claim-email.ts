import { localeFormats } from '@grove/contracts';
import type { AccountHolderOwner } from '../account-holder/account-holder.repository';
import type { OutgoingEmail } from '../../platform/mail/mail.service';

/** An owner of the business that holds a Mindbody site. */
export type SiteHolderOwner = AccountHolderOwner;

/**
 * The email telling the owner of the business that holds a Mindbody site that someone with
 * working staff credentials of that site tried to connect it to another Grove account (issue 31):
 * when (in the business's time zone, named), that nothing changed, how a real move is done (remove the integration here first),
 * and whom to write to otherwise. Names neither the other account nor its owner.
 * @param support the address owners write to (CONTACT_RECIPIENT)
 */
export function siteClaimAttemptEmail(
  owner: SiteHolderOwner,
  siteId: string,
  at: Date,
  support: string,
): OutgoingEmail {
  const format = localeFormats(owner.businessLocale);
  const when = `${format.dateTime(at)} (${format.business.timeZone})`;
  return {
    to: owner.email,
    subject: `Someone tried to connect your Mindbody site ${siteId} to another Grove account`,
    text: [
      `Hello ${owner.firstName},`,
      '',
      `On ${when}, someone with working staff credentials of your Mindbody site ${siteId} tried to connect it to another Grove account. Grove refused: the site stays connected to ${owner.businessName}, and nothing changed.`,
      '',
      `If you are moving Grove to a new account, remove the Mindbody integration in ${owner.businessName}'s Grove first (Integrations, Remove), then connect the site from the new account.`,
      `If you do not know who it was, change the password of the Mindbody staff login you gave Grove and write to ${support}.`,
      '',
      'Grove',
    ].join('\n'),
  };
}
