import { formatCents } from '@grove/contracts';
import { paragraph, type MemberEmailTemplate } from './member-email-template';

/** Data of "{friend}'s membership ended: your price is back to $Y", amounts in cents. */
export interface BranchEndedEmailData {
  friendName: string;
  /** The member's price without this branch. */
  priceNowCents: number;
}

/**
 * "{friend}'s membership ended: your price is back to $Y" (issue 15 part 2): to the referrer when
 * a branch stops counting (its membership ended in Mindbody, or the owner removed it).
 */
export const BRANCH_ENDED_TEMPLATE: MemberEmailTemplate<BranchEndedEmailData> = {
  subject: (data) =>
    `${data.friendName}’s membership ended: your price is back to ${formatCents(data.priceNowCents)}`,
  body: (data, context) =>
    `<mj-section><mj-column>
      ${paragraph(`Hi ${context.memberFirstName},`)}
      ${paragraph(`${data.friendName} no longer counts as your branch at ${context.businessName}.`)}
      ${paragraph(`Your price is back to ${formatCents(data.priceNowCents)} a month.`)}
      ${paragraph('Every friend who joins with your link lowers it again.')}
    </mj-column></mj-section>`,
};
