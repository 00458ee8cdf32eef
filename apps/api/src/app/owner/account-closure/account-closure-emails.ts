import { ACCOUNT_CLOSURE_DAYS } from '@grove/contracts';
import type { OutgoingEmail } from '../../platform/mail/mail.service';

/** What the closure emails need of the owner. */
export interface ClosureRecipient {
  email: string;
  firstName: string;
  businessName: string;
}

/**
 * The email confirming that the owner asked to close the business (docs/product.md#data-rights):
 * when everything is deleted and how to cancel until then.
 * @param deleteOn the day of deletion as the owner reads it (e.g. '29 December 2026')
 */
export function closureRequestedEmail(
  owner: ClosureRecipient,
  deleteOn: string,
  origin: string,
): OutgoingEmail {
  return {
    to: owner.email,
    subject: `${owner.businessName} will be closed on Grove on ${deleteOn}`,
    text: [
      `Hello ${owner.firstName},`,
      '',
      `You asked to close ${owner.businessName} on Grove. On ${deleteOn} (${ACCOUNT_CLOSURE_DAYS} days from now) Grove deletes everything of it: members, branches, prices, prospects, settings, staff accounts. Grove's subscription stops renewing at the end of the period you paid for.`,
      '',
      `Changed your mind? Until then, sign in at ${origin}/login and choose "Cancel closing" in Account Settings. Your team was signed out; they can sign in again once you cancel.`,
      '',
      'Want a copy of your data first? Account Settings → "Export everything" makes a ZIP of CSV files.',
      '',
      'Grove',
    ].join('\n'),
  };
}

/** The email confirming that the closure was cancelled. */
export function closureCancelledEmail(owner: ClosureRecipient): OutgoingEmail {
  return {
    to: owner.email,
    subject: `${owner.businessName} stays open on Grove`,
    text: [
      `Hello ${owner.firstName},`,
      '',
      `You cancelled closing ${owner.businessName}: nothing will be deleted, your team can sign in again and Grove's subscription renews as before.`,
      '',
      'Grove',
    ].join('\n'),
  };
}
