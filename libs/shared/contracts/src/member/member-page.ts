import { isValidEmail, type FieldErrors, type Unchecked } from '../common/field-rules';
import { MESSAGES } from '../common/messages';
import type { BusinessLocale } from '../common/locale-format';
import type { IntegrationName } from '../membership/types';

/**
 * The member page's texts (issue 15: a member's own page, reached by a magic link). One place for
 * the API's messages and the page's.
 */
export const MEMBER_PAGE_MESSAGES = {
  /** 401 for a magic link that is unknown, already used or expired. */
  linkExpired: 'This link has expired or has already been used. Ask for a new one below.',
  /**
   * 401 for a member API call without a live member session; the member page says it only when
   * the browser's member session really ended (its cookie came with the request).
   */
  sessionEnded: 'Your session has ended. Ask for a new link below.',
  /** The member page for a browser without any member session (a first visit): how to sign in. */
  signIn: 'Enter the email you gave your gym and we will email you a link to your referral page.',
  /** The answer to every new-link request, member or not (reveals nothing). */
  linkRequested: 'If this email belongs to a member, a new link is on its way. Check your inbox.',
  /** 429 for an owner re-sending "Your referral link" to one member too soon. */
  referralEmailTooSoon:
    'This member was already emailed their link in the last hour. Please try again later.',
  /** 404 for "Your referral link" to a member without a live link. */
  referralEmailNoLink: 'This member has no referral link yet. Create one first.',
  /** 404 for the example of "Your referral link" when no member of the business has a live link. */
  referralEmailNoExample: 'No member has a referral link yet, so there is no email to show.',
  /** The member page when the business has not made the member's referral link. */
  noLinkYet: 'Your referral link is not ready yet. Ask the front desk to create it.',
  /** The public unsubscribe page's answer. */
  unsubscribed: 'You will no longer receive emails about your referrals.',
  /** The unsubscribe page for an unknown token. */
  unsubscribeUnknown: 'This unsubscribe link is not valid.',
} as const;

/** `POST /api/member/magic-link`: ask for a new link to the member page. */
export interface MemberLinkRequest {
  email: string;
}

/** `POST /api/member/session`: start a member session from a magic link's token. */
export interface MemberSessionRequest {
  token: string;
}

/**
 * Checks a new-link request: the email pattern ('Not a valid email address').
 * @returns one message per invalid field; empty when valid
 */
export function validateMemberLinkRequest(
  input: Unchecked<MemberLinkRequest>,
): FieldErrors<MemberLinkRequest> {
  return typeof input.email === 'string' && isValidEmail(input.email)
    ? {}
    : { email: MESSAGES.invalidEmail };
}

/**
 * A branch as its member sees it: 'pending' = the friend joined through the member's link and
 * waits for the owner's approval, or is a branch the business's rule has not started counting yet
 * (docs/product.md#branch-qualification); 'counting' = lowers the member's price; 'ended' /
 * 'suspended' = the friend's (Mindbody) membership has ended / is suspended, it does not count.
 */
export type MemberBranchStatus = 'pending' | 'counting' | 'ended' | 'suspended';

/** One friend of the member page. */
export interface MemberBranch {
  /** The friend's first name (the page shows no one's full name or email). */
  firstName: string;
  status: MemberBranchStatus;
  /** ISO 8601: when they joined (pending) or became a branch. */
  since: string;
}

/** One line of the member's price ledger (table `price_changes`), cents. */
export interface MemberLedgerLine {
  occurredAt: string;
  /** The ledger's reason (`price_changes.reason`, e.g. 'branch_added'). */
  reason: string;
  oldPriceCents: number | null;
  newPriceCents: number;
  membershipPriceCents: number;
}

/** "N more friends → price": the price after `friends` more counting branches, cents, floor 0. */
export interface MemberProjection {
  friends: number;
  priceCents: number;
}

/** `GET /api/member/me`: everything the member page shows. Money in integer cents. */
export interface MemberPage {
  businessName: string;
  /** How the business writes money and dates (docs/decisions/business-locale.md). */
  businessLocale: BusinessLocale;
  memberFirstName: string;
  /** The live referral link URL, or null when the owner has not made one. */
  referralUrl: string | null;
  /**
   * The referral link's QR code as SVG markup (null without a link), in the page's own reply so
   * the page shows it without another request (`GET /api/member/qr.svg` is the same image).
   */
  referralQrSvg: string | null;
  /**
   * The message the member shares (docs/product.md#share-message): the owner's, or
   * `DEFAULT_SHARE_MESSAGE`, placeholders unfilled (`shareTargets` fills them per channel).
   */
  shareMessage: string;
  /**
   * The friend's welcome offer, worded as the join page words it (`welcomeOfferWording`,
   * docs/product.md#welcome-offer): what the share message's `{offer}` becomes; null for none.
   */
  welcomeOffer: string | null;
  /** What the member pays before any discount. */
  membershipPriceCents: number;
  /** What the member pays now (for a Mindbody member: the autopay amount Grove last saw, or null when not known). */
  priceNowCents: number | null;
  /** Discount per counting branch. */
  discountPerBranchCents: number;
  /**
   * What each friend who joins earns the member, after "each friend who joins"
   * (`referrerRewardWording`, member voice; docs/product.md#referrer-reward): 'lowers your price by
   * $15.00 a month', 'earns you a $25 credit', 'earns you 2 weeks free', 'earns you a Grove hoodie'.
   */
  rewardPerFriend: string;
  /**
   * What is left under the business's most friends rewarded a year, in the member's words
   * (`rewardsLeftWording`, docs/product.md#referrer-reward): '2 of 3 rewards left this year' (a
   * one-off reward: the rewards owed this calendar year in the business's time zone, not capped),
   * '2 of 3 friends left who lower your price' (the ongoing discount); null when the business sets
   * no such cap, and for a Mindbody member (their price follows the Mindbody discounts).
   */
  rewardsLeft: string | null;
  /**
   * Who bills the member's price: 'Mindbody' (autopay), 'Stripe' (a subscription on the business's
   * Stripe, issue 32), or null for a member kept in Grove by hand.
   */
  managedBy: IntegrationName | null;
  /**
   * The currency of every amount on the page when it is not the business's (ISO 4217, upper case):
   * a Stripe-billed member's subscription's, e.g. 'USD' ('USD 65.00' for an Australian business,
   * `memberBillFormats`); null for the business's own currency.
   */
  billCurrency: string | null;
  /**
   * Only for a Mindbody member whose next charge Grove has read (issue 22): what Mindbody will
   * charge (cents, tax and the contract's other products included) and when (ISO).
   */
  nextCharge?: { amountCents: number; on: string };
  /**
   * Only for a member billed on the business's Stripe whose upcoming invoice Stripe answered within
   * the page's budget (issue 32): what Stripe will charge (cents of `currency`, ISO 4217 lower case
   * as Stripe writes it) and when (ISO instant). Absent when Stripe has no upcoming invoice, is
   * slow or fails.
   */
  stripeNextCharge?: { amountCents: number; currency: string; at: string };
  /** Savings so far, cents: see docs/decisions/member-page-savings.md. */
  savedSoFarCents: number;
  branches: MemberBranch[];
  /** The next friends' effect, until the price reaches 0 (at most 3 lines). */
  projections: MemberProjection[];
  /** Newest first, at most 50 lines. */
  ledger: MemberLedgerLine[];
}

/**
 * `GET/POST /api/referral-links/email`: the latest 'Email all links' run of the business, a
 * background run over every member with a live link (counts in members).
 */
export interface ReferralEmailRun {
  status: 'idle' | 'running' | 'done' | 'failed';
  /** Members with a live link when the run started. */
  total: number;
  /** Members gone through so far (progress = processed / total). */
  processed: number;
  /** Members emailed their link by this run. */
  queued: number;
  /** Members gone through and skipped: emailed their link within the hour. */
  skipped: number;
}

/**
 * `GET /api/referral-links/email/preview` (issue 25): who 'Email all links' would email now, shown
 * before the owner confirms: `members` get "Your referral link", `alreadyEmailed` are skipped
 * (emailed it within the hour). Both count members with a live link.
 */
export interface ReferralEmailPreview {
  members: number;
  alreadyEmailed: number;
}

/**
 * `GET /api/referral-links/email/example`: one "Your referral link" email exactly as a real member
 * of the business would get it from 'Email all links' (issue 25), rendered by the template the
 * send uses. Nothing is sent and no token is issued: the member page button leads to `/member`
 * and the unsubscribe link is a placeholder.
 */
export interface ReferralEmailExample {
  /** The member it is rendered for (the first by name with a live link, or the one asked for). */
  memberId: string;
  memberName: string;
  subject: string;
  /** The HTML part, a whole document (show it in a sandboxed frame). */
  html: string;
  /** The plain-text part. */
  text: string;
}

/** `POST /api/members/:id/referral-link/email` reply: the "Your referral link" email queued. */
export interface ReferralEmailResult {
  /** Emails queued. */
  queued: number;
  /** Members left out: no live link, or already emailed within the hour. */
  skipped: number;
}

/**
 * The server-rendered member page `/member` (apps/api `member-page/member-page.view.ts`,
 * docs/architecture.md#member-page) and its inline script (apps/referral
 * `features/member/page/member-page.ts`) meet on these element ids: one list for both.
 */
export const MEMBER_PAGE_IDS = {
  /** The page's `<main>`: what a magic link's landing replaces with the member's page. */
  main: 'member-main',
  /** The referral link's text; its `data-url` is what Copy copies (the link with `?via=copy`). */
  url: 'member-url',
  /** The Copy button ('Copy link' / 'Copied!'). */
  copy: 'member-copy',
  /**
   * The Share button, shown by the script only where the browser has the Web Share API; its
   * `data-text` is the share message with the link carrying `?via=share`.
   */
  share: 'member-share',
  /** The signed-out page's message box (session ended / link expired). */
  message: 'member-message',
} as const;
