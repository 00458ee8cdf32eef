import { button, paragraph, type MemberEmailTemplate } from './member-email-template';

/**
 * The magic link a member asked for on the member page: transactional (sent even after
 * unsubscribing, no List-Unsubscribe), no data of its own.
 */
export const MAGIC_LINK_TEMPLATE: MemberEmailTemplate<Record<string, never>> = {
  transactional: true,
  withMagicLink: true,
  subject: (_data, context) => `Your link to your ${context.businessName} referral page`,
  body: (_data, context) =>
    `<mj-section><mj-column>
      ${paragraph(`Hi ${context.memberFirstName},`)}
      ${paragraph('Here is the link you asked for. It works once and for a short while.')}
      ${context.magicLinkUrl ? button('Open my referral page', context.magicLinkUrl) : ''}
      ${paragraph('If you did not ask for it, you can ignore this email.')}
    </mj-column></mj-section>`,
};
