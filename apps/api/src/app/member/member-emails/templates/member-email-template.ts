import {
  DEFAULT_REFERRER_REWARD,
  referrerRewardWording,
  shareTargets,
  type LocaleFormats,
  type ReferrerRewardFields,
} from '@grove/contracts';

/**
 * What every member email template gets besides its own data, filled in at delivery: the
 * business (the sender's display name), the member, the member's unsubscribe page (null for an
 * email the member asked for themselves, which is always sent), the member's own referral link
 * (null without a live one) and, for a template with `withMagicLink`, a fresh magic link to the
 * member page.
 */
export interface MemberEmailContext {
  businessName: string;
  /** The business's money and date formatters (its currency, locale and time zone). */
  format: LocaleFormats;
  memberFirstName: string;
  /** The public unsubscribe page of this member, or null for a transactional email. */
  unsubscribeUrl: string | null;
  /** The member page's magic link (`<origin>/member#token=…`), set only with `withMagicLink`. */
  magicLinkUrl: string | null;
  /**
   * The member's own live referral link at delivery (`<origin>/referral/<code>`, on
   * PUBLIC_ORIGIN), or null when they have none.
   */
  referralUrl: string | null;
  /**
   * The business's share message, placeholders unfilled (`businesses.share_message`, or
   * DEFAULT_SHARE_MESSAGE until the owner writes one; docs/product.md#share-message).
   */
  shareMessage: string;
  /** The friend's welcome offer, worded (the share message's `{offer}`), or null for none. */
  welcomeOffer: string | null;
  /**
   * The business's reward for referrers at delivery (`businesses.referrer_reward`; null for the
   * ongoing discount), worded by {@link rewardPerFriend}.
   */
  referrerReward: ReferrerRewardFields | null;
  /**
   * What the member has left under the business's cap on rewarded friends, in their words ('2 of
   * 3 rewards left this year'; `ReferrerRewardService.rewardsLeft`, the member page's line), for
   * a template `withRewardsLeft`; null without a cap, for a Mindbody member, or another template.
   */
  rewardsLeft: string | null;
}

/**
 * What each friend who joins earns the member, after "each friend who joins"
 * (docs/product.md#referrer-reward; contracts' `referrerRewardWording`, member voice): 'lowers
 * your price by $10.00 a month' for the ongoing discount, 'earns you a $25 credit', 'earns you 2
 * weeks free', 'earns you a Grove hoodie'.
 * @param discountCents the member's discount per branch (cents), for the ongoing discount
 */
export function rewardPerFriend(context: MemberEmailContext, discountCents: number): string {
  const reward = context.referrerReward ?? DEFAULT_REFERRER_REWARD;
  return (
    referrerRewardWording(reward, context.format, 'member', discountCents) ??
    referrerRewardWording(DEFAULT_REFERRER_REWARD, context.format, 'member', discountCents) ??
    ''
  );
}

/**
 * The line under a stated reward of what is left under the cap (docs/product.md#referrer-reward):
 * '2 of 3 rewards left this year.' as on the member page, or '' without one.
 */
export function rewardsLeftLine(context: MemberEmailContext): string {
  return context.rewardsLeft ? paragraph(`${context.rewardsLeft}.`) : '';
}

/**
 * One member email. `subject` is plain text; `body` is MJML for inside `<mj-body>` (sections),
 * every interpolated value passed through `escapeMjml`. The shared layout adds the business's
 * name, the footer and the unsubscribe link, and renders HTML (mjml) and plain text (html-to-text).
 */
export interface MemberEmailTemplate<D> {
  /**
   * True: sent even to a member who unsubscribed, and without List-Unsubscribe (only the magic
   * link a member asks for themselves).
   */
  transactional?: boolean;
  /** True: delivery issues a fresh magic link (MEMBER_MAGIC_LINK_TTL_SECONDS) as `magicLinkUrl`. */
  withMagicLink?: boolean;
  /** True: the email states the referrer's reward, and delivery reads what is left under the cap (`rewardsLeft`). */
  withRewardsLeft?: boolean;
  subject(data: D, context: MemberEmailContext): string;
  body(data: D, context: MemberEmailContext): string;
}

/** Escapes text for MJML/HTML content and attribute values. */
export function escapeMjml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** One paragraph of text (MJML `mj-text`), the text escaped. */
export function paragraph(text: string): string {
  return `<mj-text>${escapeMjml(text)}</mj-text>`;
}

/** A call-to-action button (MJML `mj-button`) to `href`, both escaped. */
export function button(label: string, href: string): string {
  return `<mj-button href="${escapeMjml(href)}" background-color="#2f6f4f" border-radius="6px">${escapeMjml(label)}</mj-button>`;
}

/**
 * The share links under a referral link in an email (issue 33 item 3, docs/product.md#share-message):
 * WhatsApp, text message and email, each opening with the owner's share message filled in for
 * this member and the link carrying its channel (`?via=whatsapp|sms|email`), as on the member
 * page. Copy and the phone's share sheet need a script, which email has not: the link above them
 * is the copy.
 * @returns one MJML `mj-text`, or '' when the member has no live referral link
 */
export function shareLinks(context: MemberEmailContext): string {
  if (!context.referralUrl) return '';
  const targets = shareTargets({
    template: context.shareMessage,
    firstName: context.memberFirstName,
    gym: context.businessName,
    offer: context.welcomeOffer,
    referralUrl: context.referralUrl,
  });
  const link = (label: string, href: string) =>
    `<a href="${escapeMjml(href)}" style="color:#2f6f4f;font-weight:bold">${escapeMjml(label)}</a>`;
  return `<mj-text>Share it in one tap: ${link('WhatsApp', targets.whatsapp)} · ${link('Text it', targets.sms)} · ${link('Email it', targets.email)}</mj-text>`;
}
