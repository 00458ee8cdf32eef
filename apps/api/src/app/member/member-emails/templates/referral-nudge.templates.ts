import {
  button,
  escapeMjml,
  paragraph,
  rewardPerFriend,
  rewardsLeftLine,
  shareLinks,
  type MemberEmailContext,
  type MemberEmailTemplate,
} from './member-email-template';

/** Data of the invitation and the reminder to refer (issue 33 item 5), cents. */
export interface ReferralNudgeEmailData {
  /** Whole days since the member joined (the invitation's "N days with us"). */
  daysAsMember: number;
  /**
   * The visits the invitation follows (the owner's N, when it is sent after the Nth visit as
   * Mindbody tells it); absent or null for the invitation after N days.
   */
  visits?: number | null;
  /** What each friend who becomes a counting branch takes off the member's monthly price. */
  discountPerBranchCents: number;
}

/** Data of the monthly summary to a referrer with counting branches, cents. */
export interface ReferralSummaryEmailData {
  /** Counting branches now. */
  countingBranches: number;
  /** This month's saving: membership price − price now (docs/product.md#referral-nudges). */
  savedThisMonthCents: number;
  priceNowCents: number;
  /** The price with one more counting branch (`newPriceCents`, floor 0). */
  priceWithOneMoreCents: number;
}

/** The referral link in large type with the one-tap share links under it; '' without a link. */
function linkBlock(context: MemberEmailContext): string {
  if (!context.referralUrl) return paragraph('Ask the front desk for your referral link.');
  return `<mj-text font-size="16px" font-weight="bold"><a href="${escapeMjml(context.referralUrl)}">${escapeMjml(context.referralUrl)}</a></mj-text>
      ${shareLinks(context)}`;
}

/** The member page button (magic link) and its note. */
function pageButton(context: MemberEmailContext, label: string): string {
  if (!context.magicLinkUrl) return '';
  return `${button(label, context.magicLinkUrl)}
      ${paragraph('The button works once and for a short while; your page can send you a new one.')}`;
}

/** The invitation's opening: N days with the gym, or the first / Nth visit. */
function inviteOpening(data: ReferralNudgeEmailData, businessName: string): string {
  if (data.visits === 1) return `Thanks for your first visit to ${businessName}.`;
  if (data.visits) return `You've been to ${businessName} ${data.visits} times now.`;
  return `You've been with ${businessName} for ${data.daysAsMember} days.`;
}

/**
 * "Know someone who'd like {gym}?" — the invitation to refer, N days after the member joined or
 * after their Nth visit (docs/product.md#referral-nudges): their link, share links and member page.
 */
export const REFERRAL_INVITE_TEMPLATE: MemberEmailTemplate<ReferralNudgeEmailData> = {
  withMagicLink: true,
  withRewardsLeft: true,
  subject: (_data, context) => `Know someone who'd like ${context.businessName}?`,
  body: (data, context) =>
    `<mj-section><mj-column>
      ${paragraph(`Hi ${context.memberFirstName},`)}
      ${paragraph(`${inviteOpening(data, context.businessName)} If a friend would enjoy it too, send them your referral link.`)}
      ${paragraph(`Each friend who joins ${rewardPerFriend(context, data.discountPerBranchCents)}.`)}
      ${rewardsLeftLine(context)}
      ${context.welcomeOffer ? paragraph(`Your friend gets ${context.welcomeOffer}.`) : ''}
      ${linkBlock(context)}
      ${pageButton(context, 'See your page')}
    </mj-column></mj-section>`,
};

/**
 * "Your referral link is waiting" — the one reminder, when the member has opened neither their
 * member page nor their link since the invitation (docs/product.md#referral-nudges).
 */
export const REFERRAL_REMINDER_TEMPLATE: MemberEmailTemplate<ReferralNudgeEmailData> = {
  withMagicLink: true,
  withRewardsLeft: true,
  subject: () => 'Your referral link is waiting',
  body: (data, context) =>
    `<mj-section><mj-column>
      ${paragraph(`Hi ${context.memberFirstName},`)}
      ${paragraph(`A quick reminder: every friend who joins ${context.businessName} with your link ${rewardPerFriend(context, data.discountPerBranchCents)}.`)}
      ${rewardsLeftLine(context)}
      ${linkBlock(context)}
      ${pageButton(context, 'See your page')}
      ${paragraph("This is the only reminder we'll send.")}
    </mj-column></mj-section>`,
};

/**
 * "You saved $X this month" — the monthly summary to a referrer with counting branches
 * (docs/product.md#referral-nudges): the saving, the price now and one more friend's price.
 */
export const REFERRAL_SUMMARY_TEMPLATE: MemberEmailTemplate<ReferralSummaryEmailData> = {
  withMagicLink: true,
  subject: (data, context) =>
    `You saved ${context.format.money(data.savedThisMonthCents)} this month`,
  body: (data, context) => {
    const money = context.format.money;
    const friends = data.countingBranches === 1 ? '1 friend' : `${data.countingBranches} friends`;
    const next =
      data.priceWithOneMoreCents < data.priceNowCents
        ? `One more friend → ${money(data.priceWithOneMoreCents)} a month.`
        : 'Your membership is already free: thank you for bringing your friends!';
    return `<mj-section><mj-column>
      ${paragraph(`Hi ${context.memberFirstName},`)}
      ${paragraph(`Thanks to ${friends} you brought to ${context.businessName}, you saved ${money(data.savedThisMonthCents)} this month. You pay ${money(data.priceNowCents)} a month.`)}
      ${paragraph(next)}
      ${data.priceWithOneMoreCents < data.priceNowCents ? linkBlock(context) : ''}
      ${pageButton(context, 'See your savings')}
    </mj-column></mj-section>`;
  },
};
