import escapeHtml from 'escape-html';
import { BUSINESS_JOIN_IDS as IDS, BUSINESS_JOIN_TEXTS as TEXTS, MESSAGES } from '@grove/contracts';
import {
  alertHtml as alert,
  fieldHtml as field,
  joinFormHtml,
  renderInlinePage,
  type InlinePageAssets,
} from '../../platform/web/inline-page.view';

/** What the business's join page shows; every text is escaped here. */
export type BusinessJoinPageState =
  | {
      kind: 'form';
      code: string;
      businessName: string;
      /** The friend's welcome offer, worded (`welcomeOfferWording`); null for none. */
      welcomeOffer: string | null;
      values?: { name: string; email: string; referredBy?: string };
      errors?: { name?: string; email?: string; referredBy?: string };
    }
  | { kind: 'success'; businessName: string; welcomeOffer: string | null }
  /** Unknown code, or a send that could not be answered with the form (e.g. 429). */
  | { kind: 'failure' };

function card(state: BusinessJoinPageState): string {
  if (state.kind === 'failure') return `<h1>Join</h1>${alert('error', MESSAGES.referralFailed)}`;
  const business = escapeHtml(state.businessName);
  const head =
    `<p class="referral-join__eyebrow">${business}</p>` +
    `<h1>${escapeHtml(TEXTS.heading(state.businessName))}</h1>` +
    `<p class="referral-join__offer">${escapeHtml(TEXTS.intro(state.businessName))}</p>` +
    (state.welcomeOffer
      ? `<p class="referral-join__welcome" data-testid="welcome-offer"><strong>Your welcome offer:</strong> ${escapeHtml(state.welcomeOffer)}</p>`
      : '');
  if (state.kind === 'success') return head + alert('success', MESSAGES.referralSuccess);
  const action = `/join/${encodeURIComponent(state.code)}`;
  return (
    head +
    joinFormHtml({
      ids: IDS,
      action,
      values: state.values,
      errors: state.errors,
      moreFields: field(
        IDS.referredBy,
        {
          label: TEXTS.referredByLabel,
          name: 'referredBy',
          type: 'text',
          autocomplete: 'off',
          value: state.values?.referredBy ?? '',
          hint: TEXTS.referredByHint,
        },
        state.errors?.referredBy,
      ),
    })
  );
}

/**
 * The business's join page as one HTML document (docs/product.md#business-join), styled by the
 * referral join page's inline stylesheet and without script: the form posts and the reply is a
 * page. Names no member, whatever was sent.
 * @returns the document, UTF-8 text
 */
export function renderBusinessJoinPage(
  state: BusinessJoinPageState,
  assets: InlinePageAssets,
): string {
  return renderInlinePage({
    title: state.kind === 'failure' ? 'Join' : TEXTS.heading(state.businessName),
    assets,
    main: `<main class="referral-join"><section class="g-card">${card(state)}</section></main>`,
    withScript: false,
    ...(state.kind === 'failure' ? {} : { brand: state.businessName }),
  });
}
