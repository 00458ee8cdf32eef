import { type BusinessLocale, endSentence, localeFormats } from '@grove/contracts';
import type { OutgoingEmail } from '../../platform/mail/mail.service';
import type { SiteHolderOwner } from './site-claim-email';

/** Where an owner reviews a Mindbody sync's bill changes: the Mindbody setup page. */
export const MINDBODY_SETUP_PATH = '/mindbody-setup';

/** The billing service whose bills are held, as the email names it, and its Grove page. */
export interface HeldBillsService {
  name: 'Mindbody' | 'Stripe';
  path: string;
}

/** Mindbody's bills, reviewed on the Mindbody setup page. */
export const MINDBODY_HELD_BILLS: HeldBillsService = {
  name: 'Mindbody',
  path: MINDBODY_SETUP_PATH,
};

/** 'N bills' / '1 bill', N with the business's grouping (`LocaleFormats.count`; default Australia's). */
export function billsText(count: number, business?: BusinessLocale): string {
  return count === 1 ? '1 bill' : `${localeFormats(business).count(count)} bills`;
}

/**
 * The email telling an owner that the billing service's webhooks brought bill changes held for
 * them to review (issue 31: no bill changes unconfirmed, ever; Stripe's twin, issue 32): how many
 * members' bills would change, that nothing has reached the service, and the link to its Grove
 * page, where the review lists them and the confirmation writes them. Sent once per pending
 * preview (when changes are first held). Counts are written the business's way (its locale).
 * @param count members whose bill would change (> 0)
 * @param origin Grove's public origin (PUBLIC_ORIGIN), e.g. `https://grove.example.com`
 * @param service Mindbody (default) or Stripe, and the page where its bills are reviewed
 */
export function pendingBillsEmail(
  owner: SiteHolderOwner,
  count: number,
  origin: string,
  service: HeldBillsService = MINDBODY_HELD_BILLS,
): OutgoingEmail {
  return {
    to: owner.email,
    subject: `${billsText(count, owner.businessLocale)} would change in ${service.name}: review`,
    text: [
      `Hello ${owner.firstName},`,
      '',
      `${service.name} told Grove of changes at ${endSentence(owner.businessName)} With your referral discounts, ${count === 1 ? "1 member's bill" : `${localeFormats(owner.businessLocale).count(count)} members' bills`} in ${service.name} would change.`,
      '',
      `Grove has not changed any bill: nothing reaches ${service.name} until you review the changes and confirm them.`,
      '',
      `Review them: ${origin}${service.path}`,
      '',
      'Grove',
    ].join('\n'),
  };
}
