import { localeFormats } from '@grove/contracts';
import type { OutgoingEmail } from '../../platform/mail/mail.service';
import type { AccountHolderOwner } from '../account-holder/account-holder.repository';

/**
 * The email telling the owners of the business whose Stripe member billing holds a Stripe account
 * that someone pasted a working restricted key of that account into another Grove account (issue
 * 32; the Mindbody twin is `siteClaimAttemptEmail`): when (in the business's time zone, named),
 * that Grove refused and nothing changed, how a real move is done, and what to do otherwise (roll
 * the key in Stripe). Names neither the other account nor its owner.
 * @param support the address owners write to (CONTACT_RECIPIENT)
 */
export function stripeAccountClaimAttemptEmail(
  owner: AccountHolderOwner,
  at: Date,
  support: string,
): OutgoingEmail {
  const format = localeFormats(owner.businessLocale);
  const when = `${format.dateTime(at)} (${format.business.timeZone})`;
  return {
    to: owner.email,
    subject: 'Someone tried to connect your Stripe account to another Grove account',
    text: [
      `Hello ${owner.firstName},`,
      '',
      `On ${when}, someone with a working restricted key of the Stripe account your members are billed on tried to connect it to another Grove account. Grove refused: the account stays connected to ${owner.businessName}, and nothing changed.`,
      '',
      `If you are moving Grove to a new account, remove the Stripe integration in ${owner.businessName}'s Grove first (Integrations, Stripe Billing, Remove), then connect the account from the new one.`,
      `If you do not know who it was, delete the restricted keys you do not recognise in your Stripe Dashboard (Developers, API keys) and write to ${support}.`,
      '',
      'Grove',
    ].join('\n'),
  };
}
