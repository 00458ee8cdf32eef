import { paragraph, rewardsLeftLine, type MemberEmailTemplate } from './member-email-template';

/** Data of "{friend} is now your branch: your price is now $X", amounts in cents. */
export interface BranchCountingEmailData {
  friendName: string;
  /** The member's price with this branch counted. */
  priceNowCents: number;
  /** What the member paid before this branch. */
  priceBeforeCents: number;
}

/**
 * "{friend} is now your branch: your price is now $X" (issue 15 part 2): to the referrer when the
 * owner approves the friend they referred.
 */
export const BRANCH_COUNTING_TEMPLATE: MemberEmailTemplate<BranchCountingEmailData> = {
  withRewardsLeft: true,
  subject: (data, context) =>
    `${data.friendName} is now your branch: your price is now ${context.format.money(data.priceNowCents)}`,
  body: (data, context) =>
    `<mj-section><mj-column>
      ${paragraph(`Hi ${context.memberFirstName},`)}
      ${paragraph(`${data.friendName} is now a member of ${context.businessName} and counts as your branch.`)}
      ${paragraph(
        `Your price is now ${context.format.money(data.priceNowCents)} a month (it was ${context.format.money(data.priceBeforeCents)}).`,
      )}
      ${rewardsLeftLine(context)}
      ${paragraph('Thank you for bringing a friend!')}
    </mj-column></mj-section>`,
};
