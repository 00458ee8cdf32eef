import { endSentence } from '@grove/contracts';
import {
  button,
  escapeMjml,
  paragraph,
  rewardPerFriend,
  shareLinks,
  type MemberEmailContext,
  type MemberEmailTemplate,
} from './member-email-template';

/** The sentence with a full stop, unless it already ends with one ('A free class!'). */

/**
 * What each friend earns the new member (no amount for the ongoing discount: the welcome goes out
 * before the member's own discount is known to them), after "each friend who joins".
 */
const perFriend = (context: MemberEmailContext): string =>
  context.referrerReward && context.referrerReward.kind !== 'discount'
    ? rewardPerFriend(context, 0)
    : 'lowers your own price';

/** Data of the welcome to an approved friend. */
export interface WelcomeEmailData {
  /** Who referred them (the member's full name). */
  referrerName: string;
  /**
   * The welcome offer granted at approval, worded (`welcomeOfferWording`,
   * docs/product.md#welcome-offer); absent when the business offered none.
   */
  welcomeOffer?: string;
}

/**
 * The welcome to a friend the owner approved (issue 15 part 2): they are a member now. With a
 * live referral link of their own at delivery (automatic links, on for new businesses: issue 25)
 * it holds that link, so they can refer friends at once; without one it says to ask the front
 * desk for it; the link comes with one-tap share links (`shareLinks`). With a welcome offer
 * granted at approval it states it ('Your welcome offer: …', docs/product.md#welcome-offer). Then
 * a magic link to their own member page (their referral link and savings).
 */
export const WELCOME_TEMPLATE: MemberEmailTemplate<WelcomeEmailData> = {
  withMagicLink: true,
  subject: (_data, context) => `Welcome to ${context.businessName}`,
  body: (data, context) =>
    `<mj-section><mj-column>
      ${paragraph(`Hi ${context.memberFirstName},`)}
      ${paragraph(`Welcome to ${endSentence(context.businessName, '!')} ${data.referrerName} referred you, and you are now a member.`)}
      ${data.welcomeOffer ? paragraph(`Your welcome offer: ${endSentence(data.welcomeOffer)}`) : ''}
      ${
        context.referralUrl
          ? `${paragraph(`You can refer friends too: each friend who joins ${perFriend(context)}. Share your referral link:`)}
      <mj-text font-size="16px" font-weight="bold"><a href="${escapeMjml(context.referralUrl)}">${escapeMjml(context.referralUrl)}</a></mj-text>
      ${shareLinks(context)}`
          : paragraph(
              `You can refer friends too: each friend who joins ${perFriend(context)}. Ask the front desk for your referral link.`,
            )
      }
      ${context.magicLinkUrl ? button('See my referral page', context.magicLinkUrl) : ''}
    </mj-column></mj-section>`,
};
