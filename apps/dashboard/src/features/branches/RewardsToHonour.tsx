import type { ReferrerRewardOwed } from '@grove/contracts';
import { ToHonourCard, type ToHonourTexts } from '../../components/to-honour/ToHonourCard';
import { useMarkReferrerRewardHonoured, useReferrerRewardsOwed } from './api/referrer-rewards';

const TEXTS: ToHonourTexts = {
  title: 'Rewards to honour',
  lead: (open) =>
    `${open} ${open === 1 ? 'reward is' : 'rewards are'} owed to members for the friends they brought. Give each one, then mark it honoured.`,
  allHonoured: 'Every reward has been honoured.',
  what: 'Reward',
  since: 'Counted',
  markLabel: (item) =>
    `Mark ${item.memberName}’s reward for ${item.friend?.name ?? 'a friend'} honoured`,
  rowTestId: 'reward-owed-row',
};

const toItem = (owed: ReferrerRewardOwed) => ({
  id: owed.id,
  memberId: owed.referrerId,
  memberName: owed.referrerName,
  friend: { id: owed.branchId, name: owed.branchName },
  wording: owed.wording,
  since: owed.countedAt,
  honouredAt: owed.honouredAt,
  ...(owed.capped ? { nothingOwed: 'Capped: nothing owed' } : {}),
});

/**
 * 'Rewards to honour' on Branches (issue 33 item 2, docs/product.md#referrer-reward): each branch
 * that started counting while the business's reward was a one-off credit, a free period or a
 * gift, with its referrer and the reward as it was then, until the owner gives it by hand and
 * marks it honoured; past the referrer's most friends rewarded a year, 'Capped: nothing owed'.
 * Renders nothing while no reward was ever owed (a business on the ongoing discount).
 */
export function RewardsToHonour() {
  const owed = useReferrerRewardsOwed();
  const mark = useMarkReferrerRewardHonoured();
  return (
    <ToHonourCard
      texts={TEXTS}
      items={owed.data?.items.map(toItem)}
      error={owed.error}
      mark={mark}
    />
  );
}
