import type { WelcomeOfferGrant } from '@grove/contracts';
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

const toItem = (grant: Omit<WelcomeOfferGrant, 'offer'>) => ({
  id: grant.id,
  memberId: grant.memberId,
  memberName: grant.memberName,
  wording: grant.wording,
  since: grant.grantedAt,
  honouredAt: grant.honouredAt,
});

/**
 * 'Welcome offers to honour' on Prospective Members (issue 33 item 1,
 * docs/product.md#welcome-offer): each friend approved while the business had a welcome offer,
 * with the offer as it was at approval, until the owner applies it by hand and marks it honoured
 * ('Mark honoured'; the gym's billing does not apply it yet: docs/decisions/welcome-offer.md).
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
