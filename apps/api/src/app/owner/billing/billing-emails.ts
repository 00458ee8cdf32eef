import { hrefs, localeFormats } from '@grove/contracts';
import type { OutgoingEmail } from '../../platform/mail/mail.service';
import type { BillingContact } from '../../platform/billing/business-billing.repository';

/**
 * The email an owner gets when Stripe could not take Grove's monthly payment
 * (docs/product.md#billing): the amount, that Stripe retries, where to update the card, and what
 * pauses (and what does not) if it is still unpaid when the grace period ends. No secret.
 * @param amountCents the failed charge, in cents of `currency` (upper-case ISO 4217)
 * @param graceEndsAt when approvals, imports and bill writes pause unless paid
 * @param origin PUBLIC_ORIGIN, no trailing slash
 */
export function paymentFailedEmail(
  owner: BillingContact,
  amountCents: number,
  currency: string,
  graceEndsAt: Date,
  origin: string,
): OutgoingEmail {
  const format = localeFormats({ locale: 'en-US', currency, timeZone: 'UTC' });
  return {
    to: owner.email,
    subject: 'Your Grove payment failed',
    text: [
      `Hello ${owner.firstName},`,
      '',
      `Stripe could not take this month's payment of ${format.money(amountCents)} for ${owner.businessName}'s Grove subscription. Stripe will try your card again over the next few days.`,
      '',
      `To update your card, open Account Settings → Billing → 'Manage billing':`,
      `${origin}${hrefs.billing}`,
      '',
      `If it is still unpaid on ${format.date(graceEndsAt)}, approving prospective members, imports and bill changes pause until it is paid. Nothing is lost meanwhile: your members, branches and referral links stay, and friends can still join.`,
      '',
      'Grove',
    ].join('\n'),
  };
}
