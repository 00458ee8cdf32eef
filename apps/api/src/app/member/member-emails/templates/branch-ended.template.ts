import { endSentence } from '@grove/contracts';
import type { BranchEndedReason } from '../../../membership/events/membership-events';
import { paragraph, type MemberEmailTemplate } from './member-email-template';

/** Data of the 'branch-ended' email, amounts in cents. */
export interface BranchEndedEmailData {
  friendName: string;
  /** The member's price without this branch. */
  priceNowCents: number;
  /** What happened; rows queued before issue 25 have none and read as 'ended'. */
  reason?: BranchEndedReason;
}

/**
 * To the referrer when a branch stops counting (issue 15 part 2; words by issue 25): "{friend} no
 * longer counts as your branch: your price is back to $Y" when the owner removed it (a correction:
 * nobody's membership ended), "{friend}'s membership ended: your price is back to $Y" when its
 * membership ended or was suspended in Mindbody.
 */
export const BRANCH_ENDED_TEMPLATE: MemberEmailTemplate<BranchEndedEmailData> = {
  subject: (data, context) =>
    data.reason === 'removed'
      ? `${data.friendName} no longer counts as your branch: your price is back to ${context.format.money(data.priceNowCents)}`
      : `${data.friendName}’s membership ended: your price is back to ${context.format.money(data.priceNowCents)}`,
  body: (data, context) =>
    `<mj-section><mj-column>
      ${paragraph(`Hi ${context.memberFirstName},`)}
      ${paragraph(`${data.friendName} no longer counts as your branch at ${endSentence(context.businessName)}`)}
      ${paragraph(`Your price is back to ${context.format.money(data.priceNowCents)} a month.`)}
      ${paragraph('Every friend who joins with your link lowers it again.')}
    </mj-column></mj-section>`,
};
