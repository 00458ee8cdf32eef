import { WELCOME_OFFER_STRIPE_TEXTS, type WelcomeOfferGrant } from '@grove/contracts';
import { ToHonourCard, type ToHonourTexts } from '../../components/to-honour/ToHonourCard';
import { useMarkWelcomeOfferHonoured, useWelcomeOfferGrants } from './api/prospects';

const TEXTS: ToHonourTexts = {
  title: 'Welcome offers to honour',
  lead: (open) =>
    `${open} approved ${open === 1 ? 'friend was' : 'friends were'} promised a welcome offer. Apply it in your billing, then mark it honoured.`,
  allHonoured: 'Every welcome offer has been honoured.',
  what: 'Offer',
  since: 'Approved',
  markLabel: (item) => `Mark ${item.memberName}’s welcome offer honoured`,
  rowTestId: 'welcome-offer-row',
};

/** What the gym's Stripe says of a grant: waiting, applied, or why it could not. */
const stripeNote = (stripe: WelcomeOfferGrant['stripe']): string | undefined => {
  if (stripe?.state === 'pending') return WELCOME_OFFER_STRIPE_TEXTS.pending;
  if (stripe?.state === 'failed') return stripe.note ?? undefined;
  return undefined;
};

const toItem = (grant: Omit<WelcomeOfferGrant, 'offer'>) => ({
  id: grant.id,
  memberId: grant.memberId,
  memberName: grant.memberName,
  wording: grant.wording,
  since: grant.grantedAt,
  honouredAt: grant.honouredAt,
  note: stripeNote(grant.stripe),
  honouredLabel: grant.stripe?.state === 'applied' ? WELCOME_OFFER_STRIPE_TEXTS.applied : undefined,
});

/**
 * 'Welcome offers to honour' on Prospective Members (issue 33 item 1,
 * docs/product.md#welcome-offer): each friend approved while the business had a welcome offer,
 * with the offer as it was at approval, until the owner applies it by hand and marks it honoured
 * ('Mark honoured'). At a gym billing on Stripe, a person's approval writes it as a coupon on the
 * friend's subscription: 'Applied in Stripe', or waiting for the subscription, or why Stripe could
 * not (docs/decisions/welcome-offer.md).
 * Renders nothing while no offer was ever granted.
 */
export function WelcomeOffersToHonour() {
  const grants = useWelcomeOfferGrants();
  const mark = useMarkWelcomeOfferHonoured();
  return (
    <ToHonourCard
      texts={TEXTS}
      items={grants.data?.items.map(toItem)}
      error={grants.error}
      mark={mark}
    />
  );
}
