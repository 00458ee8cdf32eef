import type { BusinessLocale } from './locale-format';
import type { MindbodyDiscountsInput } from './mindbody-setup';
import type { MemberInput } from './validate';

/**
 * Shapes of the REST API's requests and replies, shared by the API and the web client.
 * Money is always integer cents, in requests and replies; dollar text lives only inside the web forms.
 */
import type { ApprovalPrefill } from './member-defaults';

/** The signed-in owner and their business (`GET /api/auth/me`). */
export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** What the account button shows (docs/product.md#signed-in-frame): the owner's first and last name. */
  username: string;
  /**
   * The business: its country (ISO 3166-1 alpha-2) and how its money and dates are written
   * (`BusinessLocale`: locale, currency, time zone; docs/decisions/business-locale.md).
   */
  business: { id: string; name: string; country: string } & BusinessLocale;
  /**
   * Present (true) only in the login reply of an owner whose password no longer meets Grove's
   * password rule (an older, shorter or common one): they are signed in and asked to choose a
   * new one on Account Settings.
   */
  passwordChangeRequired?: true;
}

/** `POST /api/auth/login` body. */
export interface LoginRequest {
  email: string;
  password: string;
}

/**
 * A member's state on the Branches screen (docs/product.md#states): 'Ended' while its Mindbody
 * membership has ended, 'Suspended' while it is suspended, 'Pending' for a branch that does not
 * count yet under the business's rule (docs/product.md#branch-qualification), else 'Active'.
 */
export type MemberStatus = 'Active' | 'Pending' | 'Ended' | 'Suspended';

/** Every `MemberStatus`, in the order the Branches screen's filter and status sort use. */
export const MEMBER_STATUSES = [
  'Active',
  'Pending',
  'Suspended',
  'Ended',
] as const satisfies readonly MemberStatus[];

/** A branch as listed on its tree (docs/product.md#entities "Branch detail"). */
export interface BranchDetail {
  id: string;
  branchName: string;
  branchEmail: string;
  /** Whether it lowers the tree's price now ('Active') or why not. */
  status: MemberStatus;
}

/** Which integration manages a member, or null for members kept by hand. */
export type IntegrationName = 'Mindbody';

/** One row of the Branches screen (docs/product.md#branches, derived fields from docs/product.md#entities). */
export interface MemberRow {
  id: string;
  memberName: string;
  memberEmail: string;
  /** Membership price before discounts, cents. */
  membershipPriceCents: number;
  /** Discount per referral, cents (for Mindbody rows: the integration's discountOnReferral). */
  discountCents: number;
  /**
   * Number of branches that count now (docs/product.md#branch-qualification): the entries of
   * branchDetails whose status is 'Active'.
   */
  branches: number;
  branchDetails: BranchDetail[];
  /** Price after discounts, cents (docs/product.md#constants; unchanged membership price for Mindbody rows). */
  newPriceCents: number;
  /** The member's own state (docs/product.md#states). */
  status: MemberStatus;
  managedByIntegration: IntegrationName | null;
  /**
   * Present (true) only while a Mindbody member's price is not known yet: the import stores
   * members first and a follow-up job reads their contracts. `membershipPriceCents` and
   * `newPriceCents` are then 0 placeholders, not a price; the Branches screen shows 'Pricing…'.
   */
  membershipPricePending?: true;
  /**
   * Present (true) only for a Mindbody member whose contracts Grove has read and found no autopay
   * contract: Mindbody bills them nothing recurring, so `membershipPriceCents` and `newPriceCents`
   * are 0 and no referral discount can reach a bill. The Branches screen shows 'No autopay'.
   */
  noAutopayContract?: true;
  /**
   * Present only for a running Mindbody membership whose next charge Grove has read (issue 22):
   * what Mindbody will charge (cents, tax and every product of the contract included: the
   * `ChargeAmount`s of the next `UpcomingAutopayEvents` date) and when (ISO). The Branches screen
   * shows 'Mindbody will charge $X on 1 Dec'.
   */
  mindbodyNextCharge?: { amountCents: number; on: string };
  /**
   * Present only for a Mindbody member whose client has a `ReferredBy`: how they heard of the
   * business (one of the site's referral types, e.g. 'Friend', 'Instagram'). A label, never a
   * link to another member (issue 22).
   */
  mindbodyReferralSource?: string;
  /**
   * Present (true) only for a Mindbody member whose membership has ended (cancelled, expired or
   * terminated in Mindbody): nothing is billed any more. The Branches screen shows 'Ended'.
   */
  membershipEnded?: true;
  /** The tree this member is a branch of, if any. */
  referringMemberId: string | null;
}

/**
 * Sort keys of `GET /api/members`: name, email, branch count, join date (`createdAt`), the price
 * the table shows (`newPriceCents`) and status (in `MEMBER_STATUSES` order).
 */
export const MEMBER_SORT_KEYS = [
  'memberName',
  'memberEmail',
  'branches',
  'createdAt',
  'newPriceCents',
  'status',
] as const;
export type MemberSortKey = (typeof MEMBER_SORT_KEYS)[number];

/** `managed` filter of `GET /api/members`: Mindbody-managed rows, or Grove's own. */
export const MEMBER_MANAGED_FILTERS = ['mindbody', 'grove'] as const;
export type MemberManagedFilter = (typeof MEMBER_MANAGED_FILTERS)[number];

/** `hasLink` filter of `GET /api/members`: members with a live referral link, or without one. */
export const MEMBER_LINK_FILTERS = ['yes', 'no'] as const;
export type MemberLinkFilter = (typeof MEMBER_LINK_FILTERS)[number];

/** Page sizes the Branches screen offers (`pageSize` accepts 1–100). */
export const TREE_PAGE_SIZES = [25, 50, 100] as const;

/** Query of `GET /api/members`. Every filter narrows the list and its total. */
export interface ListMembersQuery {
  page?: number;
  pageSize?: number;
  sort?: MemberSortKey;
  order?: 'asc' | 'desc';
  search?: string;
  /** Only members of this status. */
  status?: MemberStatus;
  /** Only Mindbody-managed members, or only Grove's own. */
  managed?: MemberManagedFilter;
  /** Only members with (yes) or without (no) a live referral link. */
  hasLink?: MemberLinkFilter;
  /** Only the branches of this member (its id). */
  referredBy?: string;
}

/**
 * `GET /api/members`: a page of trees, and the names of the members the page's trees were
 * referred by (id → name; present when one of them was).
 */
export interface MembersPage extends Page<MemberRow> {
  referrerNames?: Record<string, string>;
}

/** A page of a list endpoint. `page` is 1-based. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  /**
   * True when `total` is a floor, not a count: more than `total` rows match (a members search
   * counts its matches only up to a cap, docs/product.md#branches). Absent or false: exact.
   */
  totalCapped?: boolean;
}

/** Body of `POST /api/members`: the member body (amounts in integer cents) and, optionally, its tree. */
export interface CreateMemberRequest extends MemberInput {
  /** Only on `POST /api/members`: attach the new tree as a branch of this member. */
  referringMemberId?: string;
}

/** Every API error reply: `message` is the text to show the user. */
export interface ApiErrorBody {
  statusCode: number;
  message: string;
  /** Per-field messages when the body failed validation. */
  fieldErrors?: Record<string, string>;
}

/** A member's live referral link (docs/product.md#referral-links Referral Links). */
export interface ReferralLink {
  /** Unguessable, URL-safe code (the last path segment of `url`). */
  code: string;
  /** The join page: `<origin>/referral/<code>`. */
  url: string;
  createdAt: string;
  /** When the link stops working; null = never. */
  expiresAt: string | null;
}

/** One row of the Referral Links screen: a member (tree) and its live link, or null (docs/product.md#screens). */
export interface ReferralLinkRow {
  memberId: string;
  memberName: string;
  memberEmail: string;
  link: ReferralLink | null;
}

/** Optional body of `POST /api/members/:id/referral-link` (and `/rotate`). */
export interface CreateReferralLinkRequest {
  /** 1–365; absent = the link does not expire. */
  expiresInDays?: number;
}

/** `GET /api/referrals/:code` (public): what the join page shows. */
export interface ReferralInfo {
  businessName: string;
  referrerFirstName: string;
}

/** `POST /api/referrals/:code/join` body (public, docs/product.md#entities "Referral sign-up"). */
export interface JoinReferralRequest {
  name: string;
  email: string;
  /** Honeypot: a hidden field people leave empty. */
  website?: string;
}

/** `POST /api/referrals/:code/join` reply: `{ message: MESSAGES.referralSuccess }`. */
export interface JoinReferralReply {
  message: string;
}

/** One row of the Prospective Members screen (docs/product.md#prospective-members, docs/product.md#entities). */
export interface ProspectRow {
  id: string;
  name: string;
  email: string;
  referringMemberId: string;
  referringMemberName: string;
  /** 'Mindbody' for integration-managed prospects (shown as 'Managed by Mindbody'), else null. */
  managedByIntegration: IntegrationName | null;
  /** Fraud signals raised by the join (sorted; empty when it passed every check). */
  flags: JoinSignal[];
  createdAt: string;
  /**
   * What the approval form starts from (cents; null = unknown, the field starts empty): the
   * referrer's membership price and discount per referral, else the business's defaults
   * (`approvalPrefill`, docs/product.md#member-defaults).
   */
  approvalPrefill: ApprovalPrefill;
}

/**
 * A fraud signal on a referral join (issue 15 part 4), shown to the owner in words
 * ({@link JOIN_FLAG_REASON_TEXT}); never a silent drop:
 * - {@link BLOCKING_JOIN_SIGNALS} ('already_member', 'self_referral'): the friend is not queued;
 *   the join is listed under 'Flagged joins' with every signal it raised, until dismissed;
 * - the others: the friend is queued as a prospective member with these flags, and the owner
 *   approves or removes as for anyone.
 */
export type JoinSignal =
  | 'already_member'
  | 'self_referral'
  | 'disposable_email'
  | 'former_member'
  | 'similar_to_referrer'
  | 'join_burst'
  | 'member_page_address';

/** Why a referral join was flagged for the owner instead of queued (`join_flags.reasons`). */
export type JoinFlagReason = JoinSignal;

/** The signals that keep a join out of the prospects (it goes to 'Flagged joins'). */
export const BLOCKING_JOIN_SIGNALS: readonly JoinSignal[] = ['already_member', 'self_referral'];

/** What the Prospective Members screen says for each {@link JoinSignal} (Grove's own texts). */
export const JOIN_FLAG_REASON_TEXT: Readonly<Record<JoinSignal, string>> = {
  already_member: 'Already a member: this email belongs to one of your members',
  self_referral: 'Own link: the member tried to join through their own referral link',
  disposable_email: 'Disposable email: the address is from a throwaway email service',
  former_member:
    'Former member: this email belonged to a member whose membership ended or who was removed',
  similar_to_referrer:
    "Looks like the referrer: the name or email is very close to the referring member's own",
  join_burst: 'Burst of joins: many people joined through this link within a few minutes',
  member_page_address:
    "Same connection as the referrer: joined from the internet address that opened the referring member's page",
};

/**
 * `GET /api/prospects/flags`: a join through a referral link that was answered like any other but
 * not queued (issue 11: public endpoints reveal nothing about members), until the owner dismisses it.
 */
export interface FlaggedJoinRow {
  id: string;
  /** Name and email as the friend typed them (the latest attempt). */
  name: string;
  email: string;
  /** The member whose link was used (the latest attempt). */
  referringMemberId: string;
  referringMemberName: string;
  /** Sorted, at least one. */
  reasons: JoinFlagReason[];
  /** How many joins this flag stands for (repeats of the same email add up). */
  attempts: number;
  createdAt: string;
  lastAttemptAt: string;
}

// ---------------------------------------------------------------------------------------------
// Public site, contact and support (issue 5; docs/product.md#contact-page Contact page, Landing page, Issue form)
// ---------------------------------------------------------------------------------------------

/** Which captcha the contact form shows (`GET /api/captcha`); altcha unless keys are configured. */
export type CaptchaProvider = 'altcha' | 'recaptcha' | 'turnstile';

/** `GET /api/captcha` (public): how the contact form renders its captcha. */
export interface CaptchaConfig {
  provider: CaptchaProvider;
  /** reCAPTCHA / Turnstile site key; absent for altcha. */
  siteKey?: string;
  /** altcha: where the widget fetches a fresh proof-of-work challenge. */
  challengeUrl?: string;
}

/** `POST /api/contact` body (public, docs/product.md#entities "Contact message"); `captcha` = the widget's solution/token. */
export interface ContactRequest {
  firstName: string;
  lastName: string;
  email: string;
  /** The country the phone number is read for (ISO 3166-1 alpha-2; Australia when absent). */
  country?: string;
  phoneNumber: string;
  website: string;
  message: string;
  captcha: string;
}

/** The landing page's 'Learn More' pop-up fields (public, `POST /api/leads`). */
export interface LeadInput {
  fullName: string;
  email: string;
  /** The country the phone number is read for (ISO 3166-1 alpha-2; Australia when absent). */
  country?: string;
  phone: string;
  company: string;
}

/** `POST /api/leads` body: the pop-up's fields and `captcha`, the captcha widget's solution/token. */
export interface LeadRequest extends LeadInput {
  captcha: string;
}

/** Reply of the public forms and the issue form: `message` is the text to show. */
export interface MessageReply {
  message: string;
}

/** `POST /api/support/issues` body (signed in, docs/product.md#entities "Issue report"). */
export interface SupportIssueRequest {
  summary: string;
  description: string;
}

/** `GET/PATCH /api/account` (signed in): the owner's name and business details (Account Settings). */
export interface AccountDetails {
  firstName: string;
  lastName: string;
  email: string;
  businessName: string;
  /** The business's country, ISO 3166-1 alpha-2 (docs/product.md#country); its phone number is read for it. */
  country: string;
  /**
   * IANA time zone the business's dates are shown in (docs/decisions/business-locale.md); the
   * country's main zone until one is chosen. Sending a new `country` without it resets it to
   * the new country's main zone.
   */
  timeZone: string;
  phoneNumber: string;
  website: string;
}

/** `PATCH /api/account` body: any subset of the editable fields (email is not editable here). */
export type UpdateAccountRequest = Partial<Omit<AccountDetails, 'email'>>;

/** `POST /api/account/password` body. */
export interface ChangePasswordRequest {
  currentPassword: string;
  newPassword: string;
}

// ---------------------------------------------------------------------------------------------
// Mindbody integration (issue 4; docs/product.md#mindbody-setup Mindbody setup, docs/product.md#mindbody-stages stage table and process state)
// ---------------------------------------------------------------------------------------------

/** docs/product.md#states: 1 enter credentials, 2 validated, 3 members imported, 4 fully configured. */
export type MindbodyStage = 1 | 2 | 3 | 4;

/** `GET /api/mindbody` (signed in): what the setup wizard shows. Never includes credentials. */
export interface MindbodyStatus {
  stage: MindbodyStage;
  siteId: string | null;
  /** docs/product.md#entities mindbodyDiscounts, in cents; null until saved (and after 'Remove integration'). */
  discounts: { discountOnReferralCents: number; discountForRefereeCents: number } | null;
  /**
   * docs/product.md#mindbody-stages process state text: null when idle, 'running', 'completed <ISO time>' or
   * 'failed <ISO time>' (the screen shows the second word after 'Failed at:').
   */
  processState: string | null;
  /** Progress of the running or last job (clients processed / total), or null. */
  progress: { done: number; total: number } | null;
  /** docs/product.md#entities mindbodyAccount.lastMindbodySync (ISO time), or null before the first sync. */
  lastSyncAt: string | null;
  /**
   * Clients of the last finished import or sync whose Mindbody email is not one plain mailbox
   * (`isValidEmail`, issue 24 part 3): stored with no email (the member shows 'No email' and gets
   * no email) until it is corrected in Mindbody; null before the first run.
   */
  invalidEmails: number | null;
  /**
   * Mindbody calls (Mindbody bills them past a free tier, issue 22): of the last import or sync
   * (null before one) and of every job this calendar month; absent before the first job.
   */
  mindbodyCalls?: { lastRun: number | null; thisMonth: number };
  /**
   * Present at stage 4 while Mindbody's webhook subscription delivers nothing and could not be
   * activated again (issue 22): since when (ISO) and its status, e.g.
   * 'DeactivatedTooManyFailedMessageDeliveryAttempts'. Grove tries again every hour.
   */
  webhooksDown?: { since: string; status: string };
  /**
   * Only in the reply of 'Remove integration' (`DELETE /api/mindbody`, issue 22): the Mindbody
   * autopays Grove had overridden and has put back to each member's own amount, and the names of
   * the members whose autopay it could not put back (the owner fixes those in Mindbody).
   */
  removal?: { autopaysRestored: number; autopaysNotRestored: string[] };
  /**
   * Present once a sync has written or tried to write autopays (issue 25): how many members'
   * Mindbody bills the last sync wrote (its run record; a failed sync counts those written before
   * it stopped). 0 when it found nothing to change.
   */
  lastSyncBillsWritten?: number;
}

/** One member's Mindbody bill that a sync would change, or 'Remove integration' would put back (issue 25). Cents. */
export interface MindbodyBillChange {
  memberId: string;
  name: string;
  /** What Mindbody bills now (the autopay amount as Grove last read or wrote it). */
  currentCents: number;
  /** What it would bill afterwards. */
  newCents: number;
  /** `newCents − currentCents` (negative: the member pays less each month). */
  differenceCents: number;
}

/**
 * `GET /api/mindbody/sync/preview` and `GET /api/mindbody/removal/preview` (issue 25): the
 * Mindbody bills that would change, from what Grove has stored (no Mindbody call), one page of
 * them by name (`items`, `page`, `pageSize`), with the count and the total monthly difference of
 * all of them (cents). `fingerprint` names exactly this set of changes: `POST /api/mindbody/sync`
 * carries it as `confirm`.
 */
export interface MindbodyBillChanges extends Page<MindbodyBillChange> {
  /** Sum of every change's `differenceCents` (all pages): what the members pay more (+) or less (−) a month. */
  monthlyDifferenceCents: number;
  fingerprint: string;
  /**
   * Sync only: running members whose contract Grove has not read yet (never priced, or a contract
   * event since): the sync reads them first and their bills may change too. 0 for the removal.
   */
  unreadContracts: number;
  /**
   * Sync only: friends approved through a Mindbody member's Grove link who wait for their own
   * Mindbody client (they count once a sync finds it, by email): their referrer's bill and theirs
   * change then, which no stored data can show yet. 0 for the removal.
   */
  waitingFriends: number;
}

/** `POST /api/mindbody/sync` body (issue 25): the `fingerprint` of the preview the owner confirmed. */
export interface MindbodySyncRequest {
  confirm: string;
}

/** What a member without an email address shows instead of one (issue 24 part 3). */
export const NO_EMAIL_TEXT = 'No email';

/**
 * The Mindbody summary's line about clients whose email Grove cannot send to (issue 24 part 3).
 * @param count clients of the run with an email that is not one plain mailbox (> 0)
 */
export function mindbodyInvalidEmailsNote(count: number): string {
  const clients = count === 1 ? '1 client has' : `${count.toLocaleString('en-AU')} clients have`;
  return `${clients} an email address in Mindbody that Grove cannot send to: ${count === 1 ? 'it shows' : 'they show'} '${NO_EMAIL_TEXT}' and ${count === 1 ? 'gets' : 'get'} no emails until it is corrected in Mindbody.`;
}

/** `POST /api/mindbody/credentials` body (docs/product.md#validation-mindbody: all three required). */
export interface MindbodyCredentialsRequest {
  username: string;
  password: string;
  siteId: string;
}

/**
 * `GET /api/mindbody/activation?siteId=` (issue 22, docs/product.md#mindbody-setup stage 1): whether the Mindbody
 * site has activated Grove's developer account (Mindbody lists it among the sites Grove may read),
 * and if not, the code and link its owner opens (Mindbody's `GET /site/activationcode`).
 */
export interface MindbodySiteActivation {
  siteId: string;
  activated: boolean;
  /** The activation code to confirm; null once activated. */
  activationCode: string | null;
  /** The link to the site's Manage Credentials screen; null once activated. */
  activationLink: string | null;
}

/** `PUT /api/mindbody/discounts` body, integer cents (`validateMindbodyDiscounts`). */
export type MindbodyDiscountsRequest = MindbodyDiscountsInput;

/**
 * `GET/PUT /api/settings/prospects` (issue 15): `autoApprove` (off by default) makes a friend whose
 * join raised no fraud signal a branch and a tree at once, at the referrer's membership price and
 * discount; a flagged one still waits for the owner.
 */
export interface ProspectSettings {
  autoApprove: boolean;
}

/** 400 for a prospect settings body that is not `{ autoApprove: true|false }`. */
export const PROSPECT_SETTINGS_INVALID = 'Automatic approval must be on or off';
