import escapeHtml from 'escape-html';
import {
  memberBillFormats,
  MEMBER_PAGE_IDS as IDS,
  MEMBER_PAGE_MESSAGES,
  type MemberBranchStatus,
  shareTargets,
  type MemberPage,
} from '@grove/contracts';
import {
  alertHtml,
  fieldHtml,
  renderInlinePage,
  type InlinePageAssets,
} from '../../platform/web/inline-page.view';

/** What the member page shows; every text is escaped here, nothing arrives pre-escaped. */
export type MemberPageState =
  /** A live member session: the member's own page. */
  | { kind: 'member'; page: MemberPage }
  /**
   * No (live) session: why, and the "send me a new link" form. `reason`: 'first' no member
   * cookie at all (a first visit, also the page a magic link lands on before its script uses the
   * token), 'ended' a member cookie whose session ended, 'expired' a used or expired magic link, 'sent' the form's answer (the same for member and stranger), 'failed'
   * a refused request (e.g. 429) with its message, 'invalid' the email's message under the field.
   */
  | {
      kind: 'signed-out';
      reason: 'first' | 'ended' | 'expired' | 'sent' | 'failed' | 'invalid';
      email?: string;
      message?: string;
    };

/** How each ledger reason (`price_changes.reason`) reads to the member. */
const REASONS: Record<string, string> = {
  member_added: 'You joined',
  membership_price_changed: 'Membership price changed',
  discount_changed: 'Discount per friend changed',
  branch_added: 'A friend joined',
  branch_removed: 'A friend was removed',
  branch_counting: 'A friend started counting',
  branch_lapsed: 'A friend stopped counting',
  membership_ended: 'Membership ended',
  mindbody_sync: 'Updated from Mindbody',
  backfill: 'Starting price',
};

const STATUS_LABELS: Record<MemberBranchStatus, string> = {
  pending: 'Pending',
  counting: 'Counting',
  ended: 'Ended',
  suspended: 'Suspended',
};

const card = (content: string): string => `<section class="g-card">${content}</section>`;

const friendsCounting = (count: number): string =>
  count === 1 ? '1 friend counting' : `${count} friends counting`;

/** The price card's note on who bills the member. */
const BILLED_BY: Record<NonNullable<MemberPage['managedBy']>, string> = {
  Mindbody: 'Your Mindbody autopay amount. ',
  Stripe: 'Your Stripe subscription price. ',
};

/**
 * "Stripe will charge $X on <date>. " as the dashboard words it (`StripeNextCharge`): the upcoming
 * invoice's amount in its currency with the business's locale, the day in the business's time zone;
 * '' without one.
 */
function stripeCharge(data: MemberPage): string {
  const charge = data.stripeNextCharge;
  if (!charge) return '';
  const format = memberBillFormats(data.businessLocale, charge.currency);
  return `<span data-testid="stripe-next-charge">Stripe will charge ${format.money(charge.amountCents)} on ${format.date(charge.at)}.</span> `;
}

function priceCard(data: MemberPage): string {
  const format = memberBillFormats(data.businessLocale, data.billCurrency);
  const counting = data.branches.filter((branch) => branch.status === 'counting').length;
  const now =
    data.priceNowCents === null
      ? '<p class="g-muted">Your Mindbody price is not known yet.</p>'
      : `<p class="member-price" data-testid="price-now"><strong>${format.money(data.priceNowCents)}</strong><span> a month</span></p>`;
  const projections =
    data.projections.length === 0
      ? ''
      : '<ul class="member-projection" aria-label="More friends">' +
        data.projections
          .map(
            (line) =>
              `<li>${line.friends === 1 ? '1 more friend' : `${line.friends} more friends`} → <strong>${format.money(line.priceCents)}</strong></li>`,
          )
          .join('') +
        '</ul>';
  return card(
    '<h2>Your price</h2>' +
      now +
      `<p class="g-muted">${data.managedBy ? BILLED_BY[data.managedBy] : ''}` +
      (data.nextCharge
        ? `Mindbody will charge ${format.money(data.nextCharge.amountCents)} on ${format.day(data.nextCharge.on)}. `
        : '') +
      stripeCharge(data) +
      `Membership price ${format.money(data.membershipPriceCents)} · ${friendsCounting(counting)}</p>` +
      `<p class="member-saved">Saved so far: <strong data-testid="saved">${format.money(data.savedSoFarCents)}</strong></p>` +
      projections,
  );
}

function linkCard(data: MemberPage): string {
  let link = alertHtml('info', MEMBER_PAGE_MESSAGES.noLinkYet);
  if (data.referralUrl) {
    const url = escapeHtml(data.referralUrl);
    const targets = shareTargets({
      template: data.shareMessage,
      firstName: data.memberFirstName,
      gym: data.businessName,
      offer: data.welcomeOffer,
      referralUrl: data.referralUrl,
    });
    const channel = (name: string, href: string, label: string) =>
      `<a class="g-btn g-btn--secondary" data-share="${name}" href="${escapeHtml(href)}"${name === 'whatsapp' ? ' target="_blank" rel="noopener noreferrer"' : ''}>${label}</a>`;
    link =
      '<div class="member-share">' +
      `<p class="member-share__url" id="${IDS.url}" data-url="${escapeHtml(targets.copyUrl)}" data-testid="referral-url">${url}</p>` +
      '<div class="member-share__actions">' +
      `<button type="button" id="${IDS.share}" class="g-btn g-btn--primary g-btn--md" data-title="${escapeHtml(data.businessName)}" data-text="${escapeHtml(targets.shareText)}" hidden>Share</button>` +
      channel('whatsapp', targets.whatsapp, 'WhatsApp') +
      channel('sms', targets.sms, 'Text it') +
      channel('email', targets.email, 'Email it') +
      `<button type="button" id="${IDS.copy}" class="g-btn g-btn--secondary g-btn--md" aria-live="polite">Copy link</button>` +
      '</div>' +
      (data.referralQrSvg
        ? `<img class="member-share__qr" src="data:image/svg+xml;charset=utf-8,${escapeHtml(encodeURIComponent(data.referralQrSvg))}" alt="QR code of your referral link" width="180" height="180">`
        : '') +
      '</div>';
  }
  return card(
    '<h2>Your referral link</h2>' +
      link +
      `<p class="g-muted" data-testid="reward-per-friend">Each friend who joins with your link ${escapeHtml(data.rewardPerFriend)}.</p>` +
      (data.rewardsLeft
        ? `<p class="g-muted" data-testid="rewards-left">${escapeHtml(data.rewardsLeft)}.</p>`
        : ''),
  );
}

/** A card's list, or its muted text when there is nothing to list. */
function listOr<T>(items: T[], empty: string, className: string, item: (entry: T) => string) {
  if (items.length === 0) return `<p class="g-muted">${empty}</p>`;
  return `<ul class="${className}">${items.map(item).join('')}</ul>`;
}

function friendsCard(data: MemberPage): string {
  const list = listOr(
    data.branches,
    'No friends yet: share your link!',
    'member-friends',
    (branch) =>
      `<li><span>${escapeHtml(branch.firstName)}</span><span class="member-status member-status--${branch.status}">${STATUS_LABELS[branch.status]}</span></li>`,
  );
  return card('<h2>Your friends</h2>' + list);
}

function ledgerCard(data: MemberPage): string {
  const format = memberBillFormats(data.businessLocale, data.billCurrency);
  const list = listOr(
    data.ledger,
    'No price changes yet.',
    'member-ledger',
    (line) =>
      `<li><span class="member-ledger__when">${format.date(line.occurredAt)}</span>` +
      `<span>${escapeHtml(REASONS[line.reason] ?? line.reason)}</span>` +
      `<span class="member-ledger__price">${line.oldPriceCents === null ? '' : `${format.money(line.oldPriceCents)} → `}${format.money(line.newPriceCents)}</span></li>`,
  );
  return card('<h2>Price history</h2>' + list);
}

/** The "send me a new link" form: a plain POST to `/member` (no JavaScript needed). */
function requestForm(state: Extract<MemberPageState, { kind: 'signed-out' }>): string {
  if (state.reason === 'sent') return alertHtml('success', MEMBER_PAGE_MESSAGES.linkRequested);
  return (
    '<form method="post" action="/member" novalidate class="member-request" aria-label="New link">' +
    (state.reason === 'failed' && state.message ? alertHtml('error', state.message) : '') +
    fieldHtml(
      'member-email',
      {
        label: 'Your email',
        name: 'email',
        type: 'email',
        autocomplete: 'email',
        value: state.email ?? '',
      },
      state.reason === 'invalid' ? state.message : undefined,
    ) +
    `<button type="submit" class="g-btn g-btn--primary g-btn--md member-block">${state.reason === 'ended' || state.reason === 'expired' ? 'Send me a new link' : 'Email me a link'}</button>` +
    '</form>'
  );
}

function main(state: MemberPageState): string {
  if (state.kind === 'signed-out') {
    const expired = state.reason === 'expired';
    // After a request, only its answer: the reason to ask is no longer news. "Your session has
    // ended" only for a session that really ended; a first visit is asked to sign in.
    const why =
      state.reason === 'sent'
        ? ''
        : alertHtml(
            expired ? 'error' : 'info',
            expired
              ? MEMBER_PAGE_MESSAGES.linkExpired
              : state.reason === 'ended'
                ? MEMBER_PAGE_MESSAGES.sessionEnded
                : MEMBER_PAGE_MESSAGES.signIn,
            IDS.message,
          );
    return card('<h1>Your referral page</h1>' + why + requestForm(state));
  }
  const data = state.page;
  return (
    '<header class="member__head">' +
    `<p class="member__eyebrow">${escapeHtml(data.businessName)}</p>` +
    `<h1>Hi ${escapeHtml(data.memberFirstName)}</h1></header>` +
    `<div class="member__grid">${priceCard(data)}${linkCard(data)}${friendsCard(data)}${ledgerCard(data)}</div>` +
    '<form class="member__foot" method="post" action="/member/sign-out">' +
    '<button type="submit" class="g-btn g-btn--ghost g-btn--sm">Sign out</button></form>'
  );
}

/**
 * The whole member page `/member` as one HTML document (docs/product.md#member-page,
 * docs/architecture.md#member-page): for a member session the member's page (price now vs
 * membership price, savings, "N more friends → $X", the referral link with WhatsApp, Text it,
 * Email it and Copy link, each carrying the owner's share message filled in for this member and
 * its channel as `?via=` (docs/product.md#share-message), and its QR code, friends with status, the
 * price ledger) in this first response; else why and the "send me a new link" form. The inline
 * script (when built) lands magic links, copies, and shows Share where the browser can share.
 * @returns the document, UTF-8 text
 */
export function renderMemberPage(state: MemberPageState, assets: InlinePageAssets): string {
  return renderInlinePage({
    title: state.kind === 'member' ? `${state.page.businessName} referrals` : 'Your referral page',
    assets,
    main: `<main id="${IDS.main}" class="member">${main(state)}</main>`,
    withScript: true,
  });
}
