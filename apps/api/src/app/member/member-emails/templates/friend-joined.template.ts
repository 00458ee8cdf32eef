import {
  paragraph,
  rewardPerFriend,
  rewardsLeftLine,
  type MemberEmailTemplate,
} from './member-email-template';

/** Data of "{friend} joined with your link", amounts in cents as of the join. */
export interface FriendJoinedEmailData {
  /** The friend's name as they typed it on the join page. */
  friendName: string;
  /** How much the member's price drops once the friend is approved. */
  discountPerBranchCents: number;
}

/**
 * "{friend} joined with your link" (issue 15 part 2): to the referrer when a friend who joined
 * through their link is queued as a prospective member.
 */
export const FRIEND_JOINED_TEMPLATE: MemberEmailTemplate<FriendJoinedEmailData> = {
  withRewardsLeft: true,
  subject: (data) => `${data.friendName} joined with your link`,
  body: (data, context) =>
    `<mj-section><mj-column>
      ${paragraph(`Hi ${context.memberFirstName},`)}
      ${paragraph(`${data.friendName} joined ${context.businessName} with your referral link.`)}
      ${paragraph(
        `Once ${context.businessName} approves them, ${
          context.referrerReward && context.referrerReward.kind !== 'discount'
            ? `they become your branch, which ${rewardPerFriend(context, data.discountPerBranchCents)}`
            : `they become your branch and your price drops by ${context.format.money(data.discountPerBranchCents)} a month`
        }.`,
      )}
      ${rewardsLeftLine(context)}
    </mj-column></mj-section>`,
};
