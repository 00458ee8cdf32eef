import {
  button,
  escapeMjml,
  paragraph,
  rewardPerFriend,
  rewardsLeftLine,
  shareLinks,
  type MemberEmailTemplate,
} from './member-email-template';

/** Data of "Your referral link", amounts in cents as of the owner's request. */
export interface ReferralLinkEmailData {
  referralUrl: string;
  /** What the member pays now. */
  priceNowCents: number;
  /** Discount per friend who becomes a branch. */
  discountPerBranchCents: number;
}

/**
 * "Your referral link" (issue 15): sent by the owner from Referral Links. Holds the member's
 * referral link with one-tap share links (`shareLinks`) and a magic link to their member page.
 */
export const REFERRAL_LINK_TEMPLATE: MemberEmailTemplate<ReferralLinkEmailData> = {
  withMagicLink: true,
  withRewardsLeft: true,
  subject: (_data, context) => `Your referral link for ${context.businessName}`,
  body: (data, context) =>
    `<mj-section><mj-column>
      ${paragraph(`Hi ${context.memberFirstName},`)}
      ${paragraph(
        `Share your referral link with friends. Each friend who joins ${context.businessName} ${rewardPerFriend(context, data.discountPerBranchCents)}.`,
      )}
      ${rewardsLeftLine(context)}
      <mj-text font-size="16px" font-weight="bold"><a href="${escapeMjml(data.referralUrl)}">${escapeMjml(data.referralUrl)}</a></mj-text>
      ${shareLinks({ ...context, referralUrl: data.referralUrl })}
      ${paragraph(`Your price now: ${context.format.money(data.priceNowCents)} a month.`)}
      ${context.magicLinkUrl ? button('See your savings', context.magicLinkUrl) : ''}
      ${paragraph('The button works once and for a short while; your page can send you a new one.')}
    </mj-column></mj-section>`,
};
