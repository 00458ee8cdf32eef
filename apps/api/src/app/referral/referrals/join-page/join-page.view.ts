import escapeHtml from 'escape-html';
import { endSentence, JOIN_PAGE_IDS as IDS, type JoinVia, MESSAGES } from '@grove/contracts';
import {
  alertHtml as alert,
  joinFormHtml,
  renderInlinePage,
  type InlinePageAssets,
} from '../../../platform/web/inline-page.view';

/** The inline assets the page carries (apps/referral `features/join/page`, built to `join-page/`). */
export type JoinPageAssets = InlinePageAssets;

/** What the join page shows; every text is escaped here, nothing arrives pre-escaped. */
export type JoinPageState =
  /** A live code: the form, with the values and messages of a refused send (400) if any. */
  | {
      kind: 'form';
      code: string;
      businessName: string;
      referrerFirstName: string;
      /** The friend's welcome offer, worded (`welcomeOfferWording`); null or absent for none. */
      welcomeOffer?: string | null;
      /** What the referrer gets (`referrerRewardWording`, friend voice); absent: 'a lower membership price'. */
      referrerReward?: string;
      values?: { name: string; email: string };
      errors?: { name?: string; email?: string };
      /** Show the product's failure text above the form (a send that failed, e.g. 429). */
      failed?: boolean;
      /** The channel that brought the visit (`joinChannel`), carried to the join; `direct` when absent. */
      via?: JoinVia;
    }
  /** The join went through: the same page for every friend of the code, whoever they are. */
  | {
      kind: 'success';
      code: string;
      businessName: string;
      referrerFirstName: string;
      welcomeOffer?: string | null;
      referrerReward?: string;
    }
  /** Unknown, revoked or expired code, or a send that could not be answered with the form. */
  | { kind: 'failure' };

/**
 * The success page's line about the welcome offer (docs/product.md#welcome-offer), unescaped; the
 * form carries it (`data-welcome-next`) for the inline script's in-place success.
 */
function welcomeNext(businessName: string, welcomeOffer: string): string {
  return `Your welcome offer once ${businessName} approves your membership: ${welcomeOffer}`;
}

/**
 * The card's content for each state (docs/product.md#referral-join): for a live code the business,
 * who invited the friend, the offer (the referrer's price goes down; no amount: a member's price
 * is theirs), the friend's welcome offer when the business has one (issue 33 item 1,
 * docs/product.md#welcome-offer: the business's, the same for every friend) and what happens next,
 * the same for every visitor of the code (issue 25).
 */
function card(state: JoinPageState): string {
  if (state.kind === 'failure')
    return `<h1>Join through a friend</h1>${alert('error', MESSAGES.referralFailed)}`;
  const business = escapeHtml(state.businessName);
  const referrer = escapeHtml(state.referrerFirstName);
  const head =
    `<p class="referral-join__eyebrow">${business}</p>` +
    `<h1>${referrer} invited you to join</h1>` +
    `<p class="referral-join__offer">${referrer} thinks you would like ${escapeHtml(endSentence(state.businessName))} Join through this link and ${referrer} gets ${escapeHtml(state.referrerReward ?? 'a lower membership price')} as a thank-you for bringing a friend.</p>` +
    (state.welcomeOffer
      ? `<p class="referral-join__welcome" data-testid="welcome-offer"><strong>Your welcome offer:</strong> ${escapeHtml(state.welcomeOffer)}</p>`
      : '');
  const next =
    `<section class="referral-join__next" aria-labelledby="join-next"><h2 id="join-next">What happens next</h2><ol>` +
    `<li>${business} gets your name and email, nothing else.</li>` +
    `<li>${business} contacts you to welcome you and approves your membership.</li>` +
    `<li>Once approved, you are a member, with a referral link of your own to invite friends.</li>` +
    `</ol></section>`;
  if (state.kind === 'success')
    return (
      head +
      alert('success', MESSAGES.referralSuccess) +
      (state.welcomeOffer
        ? `<p class="referral-join__welcome-next" data-testid="welcome-offer-next">${escapeHtml(welcomeNext(state.businessName, state.welcomeOffer))}</p>`
        : '') +
      next
    );
  const action = `/referral/${encodeURIComponent(state.code)}`;
  return (
    head +
    `<div id="${IDS.state}">` +
    (state.failed ? alert('error', MESSAGES.referralFailed, IDS.failure) : '') +
    joinFormHtml({
      ids: IDS,
      action,
      data: {
        code: state.code,
        ...(state.welcomeOffer
          ? { 'welcome-next': welcomeNext(state.businessName, state.welcomeOffer) }
          : {}),
      },
      values: state.values,
      errors: state.errors,
      hidden: `<input id="${IDS.via}" type="hidden" name="via" value="${escapeHtml(state.via ?? 'direct')}">`,
    }) +
    `</div>` +
    next
  );
}

/**
 * The whole join page as one HTML document (docs/architecture.md#join-page): the business's
 * name, who invited the friend and the form are in this first response, styled by the inline
 * stylesheet; the inline script (when built) makes the send happen in place. The `<style>` and
 * `<script>` bodies are exactly `assets.css` / `assets.script`, so the CSP hashes of those strings
 * match (`inlinePageContentSecurityPolicy`).
 * @returns the document, UTF-8 text
 */
export function renderJoinPage(state: JoinPageState, assets: JoinPageAssets): string {
  const title = state.kind === 'failure' ? 'Join through a friend' : `Join ${state.businessName}`;
  return renderInlinePage({
    title,
    assets,
    main: `<main class="referral-join"><section class="g-card">${card(state)}</section></main>`,
    withScript: state.kind === 'form',
    ...(state.kind === 'failure' ? {} : { brand: state.businessName }),
  });
}
