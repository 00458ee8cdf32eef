import { endSentence } from '@grove/contracts';
import mjml2html from 'mjml';
import { convert } from 'html-to-text';
import { MAGIC_LINK_TEMPLATE } from './magic-link.template';
import {
  escapeMjml,
  type MemberEmailContext,
  type MemberEmailTemplate,
} from './member-email-template';
import { REFERRAL_LINK_TEMPLATE, type ReferralLinkEmailData } from './referral-link.template';
import { BRANCH_COUNTING_TEMPLATE, type BranchCountingEmailData } from './branch-counting.template';
import { BRANCH_ENDED_TEMPLATE, type BranchEndedEmailData } from './branch-ended.template';
import { FRIEND_JOINED_TEMPLATE, type FriendJoinedEmailData } from './friend-joined.template';
import { FRIENDS_JOINED_TEMPLATE, type FriendsJoinedEmailData } from './friends-joined.template';
import { WELCOME_TEMPLATE, type WelcomeEmailData } from './welcome.template';
import {
  REFERRAL_INVITE_TEMPLATE,
  REFERRAL_REMINDER_TEMPLATE,
  REFERRAL_SUMMARY_TEMPLATE,
  type ReferralNudgeEmailData,
  type ReferralSummaryEmailData,
} from './referral-nudge.templates';

export type { MemberEmailContext, MemberEmailTemplate } from './member-email-template';
export type { ReferralLinkEmailData } from './referral-link.template';
export type { FriendsJoinedEmailData } from './friends-joined.template';
export type { ReferralNudgeEmailData, ReferralSummaryEmailData } from './referral-nudge.templates';

/**
 * The data of each member email template, by template name. To add an email: write
 * `templates/<name>.template.ts` (a `MemberEmailTemplate<YourData>`), add its data type here
 * and the template to `MEMBER_EMAIL_TEMPLATES`.
 */
export interface MemberEmailData {
  'referral-link': ReferralLinkEmailData;
  'magic-link': Record<string, never>;
  'friend-joined': FriendJoinedEmailData;
  'friends-joined': FriendsJoinedEmailData;
  'branch-counting': BranchCountingEmailData;
  'branch-ended': BranchEndedEmailData;
  welcome: WelcomeEmailData;
  'referral-invite': ReferralNudgeEmailData;
  'referral-reminder': ReferralNudgeEmailData;
  'referral-summary': ReferralSummaryEmailData;
}

/** A member email template's name. */
export type MemberEmailName = keyof MemberEmailData;

/** Every member email template by name. */
export const MEMBER_EMAIL_TEMPLATES: {
  [K in MemberEmailName]: MemberEmailTemplate<MemberEmailData[K]>;
} = {
  'referral-link': REFERRAL_LINK_TEMPLATE,
  'magic-link': MAGIC_LINK_TEMPLATE,
  'friend-joined': FRIEND_JOINED_TEMPLATE,
  'friends-joined': FRIENDS_JOINED_TEMPLATE,
  'branch-counting': BRANCH_COUNTING_TEMPLATE,
  'branch-ended': BRANCH_ENDED_TEMPLATE,
  welcome: WELCOME_TEMPLATE,
  'referral-invite': REFERRAL_INVITE_TEMPLATE,
  'referral-reminder': REFERRAL_REMINDER_TEMPLATE,
  'referral-summary': REFERRAL_SUMMARY_TEMPLATE,
};

/** True when `name` is a known template (a stored row's template, read back). */
export function isMemberEmailName(name: string): name is MemberEmailName {
  return Object.hasOwn(MEMBER_EMAIL_TEMPLATES, name);
}

/** A rendered member email. */
export interface RenderedMemberEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * Renders a member email: the template's body inside Grove's layout (the business's name on
 * top, a footer with the unsubscribe link when there is one), MJML → responsive HTML, and the
 * plain-text part from that HTML (html-to-text: links as `text [url]`).
 * @throws Error when the MJML is invalid (a template bug: the job fails and is retried)
 */
export async function renderMemberEmail<K extends MemberEmailName>(
  name: K,
  data: MemberEmailData[K],
  context: MemberEmailContext,
): Promise<RenderedMemberEmail> {
  const template = MEMBER_EMAIL_TEMPLATES[name] as MemberEmailTemplate<MemberEmailData[K]>;
  const subject = template.subject(data, context);
  const footer = context.unsubscribeUrl
    ? `<mj-text font-size="12px" color="#6b7280">You get this email because you are a member of ${escapeMjml(endSentence(context.businessName))} <a href="${escapeMjml(context.unsubscribeUrl)}">Unsubscribe</a></mj-text>`
    : `<mj-text font-size="12px" color="#6b7280">Sent by ${escapeMjml(context.businessName)} through Grove.</mj-text>`;
  const source = `<mjml>
  <mj-head>
    <mj-title>${escapeMjml(subject)}</mj-title>
    <mj-attributes><mj-all font-family="Helvetica, Arial, sans-serif" /><mj-text font-size="15px" line-height="22px" color="#1f2937" /></mj-attributes>
  </mj-head>
  <mj-body background-color="#f4f6f5">
    <mj-section><mj-column><mj-text font-size="20px" font-weight="bold" color="#2f6f4f">${escapeMjml(context.businessName)}</mj-text></mj-column></mj-section>
    ${template.body(data, context)}
    <mj-section><mj-column>${footer}</mj-column></mj-section>
  </mj-body>
</mjml>`;
  const result = await mjml2html(source, { validationLevel: 'strict', minify: false });
  const text = convert(result.html, {
    wordwrap: 78,
    selectors: [
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
      { selector: 'title', format: 'skip' },
    ],
  });
  return { subject, html: result.html, text };
}
