import type { OutgoingEmail } from '../../platform/mail/mail.service';
import type { SiteHolderOwner } from './site-claim-email';

/** Where an owner reviews a Mindbody sync's bill changes: the Mindbody setup page. */
export const MINDBODY_SETUP_PATH = '/mindbody-setup';

/** 'N bills' / '1 bill'. */
export function billsText(count: number): string {
  return count === 1 ? '1 bill' : `${count.toLocaleString('en-AU')} bills`;
}

/**
 * The email telling an owner that a sync Mindbody's webhooks started holds bill changes for them
 * to review (issue 31: no bill changes unconfirmed, ever): how many members' bills would change,
 * that nothing has reached Mindbody, and the link to the Mindbody page, where 'Review' lists them
 * and 'Confirm and sync' writes them. Sent once per pending preview (when changes are first held).
 * @param count members whose Mindbody bill would change (> 0)
 * @param origin Grove's public origin (PUBLIC_ORIGIN), e.g. `https://grove.example.com`
 */
export function pendingBillsEmail(
  owner: SiteHolderOwner,
  count: number,
  origin: string,
): OutgoingEmail {
  return {
    to: owner.email,
    subject: `${billsText(count)} would change in Mindbody: review`,
    text: [
      `Hello ${owner.firstName},`,
      '',
      `Mindbody told Grove of changes at ${owner.businessName}. With your referral discounts, ${count === 1 ? "1 member's bill" : `${count.toLocaleString('en-AU')} members' bills`} in Mindbody would change.`,
      '',
      'Grove has not changed any bill: nothing reaches Mindbody until you review the changes and confirm them.',
      '',
      `Review them: ${origin}${MINDBODY_SETUP_PATH}`,
      '',
      'Grove',
    ].join('\n'),
  };
}
