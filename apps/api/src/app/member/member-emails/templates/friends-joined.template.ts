import {
  paragraph,
  rewardPerFriend,
  rewardsLeftLine,
  type MemberEmailTemplate,
} from './member-email-template';

/** Names a summary lists before 'and N more'. */
export const FRIENDS_JOINED_NAMES_SHOWN = 10;

/**
 * Data of "N more friends joined with your link": the joins past the hourly cap of "{friend}
 * joined with your link" (issue 24 part 6), gathered while the summary waits to be sent.
 */
export interface FriendsJoinedEmailData {
  /** The friends' names as they typed them, in the order they joined. */
  friendNames: string[];
  /** The event key of each join summarised (`friend-joined:<prospect id>`): each is told once. */
  eventKeys: string[];
  /** How much the member's price drops for each friend once approved (cents). */
  discountPerBranchCents: number;
}

/** `A, B and C`; past `FRIENDS_JOINED_NAMES_SHOWN` names, `A, B, … and 7 more`. */
function listOf(names: readonly string[]): string {
  const shown = names.slice(0, FRIENDS_JOINED_NAMES_SHOWN);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length === 1) return shown[0] ?? '';
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/**
 * "N more friends joined with your link" (issue 24 part 6): to a referrer who was already sent
 * the most "{friend} joined with your link" emails an hour allows, once the hour has room; one
 * summary for every join past the cap until it is sent.
 */
export const FRIENDS_JOINED_TEMPLATE: MemberEmailTemplate<FriendsJoinedEmailData> = {
  withRewardsLeft: true,
  subject: (data) =>
    data.friendNames.length === 1
      ? '1 more friend joined with your link'
      : `${data.friendNames.length} more friends joined with your link`,
  body: (data, context) =>
    `<mj-section><mj-column>
      ${paragraph(`Hi ${context.memberFirstName},`)}
      ${paragraph(`More friends joined ${context.businessName} with your referral link: ${listOf(data.friendNames)}.`)}
      ${paragraph(
        `Each one ${context.businessName} approves becomes your branch and ${rewardPerFriend(context, data.discountPerBranchCents)}.`,
      )}
      ${rewardsLeftLine(context)}
    </mj-column></mj-section>`,
};
