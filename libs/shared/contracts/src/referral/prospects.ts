import type { Schema } from '@grove/api-contract';

/** One row of the Prospective Members screen (docs/product.md#prospective-members, docs/product.md#entities). */
export type ProspectRow = Schema<'ProspectRow'>;

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
export type FlaggedJoinRow = Schema<'FlaggedJoinRow'>;

/**
 * `GET/PUT /api/settings/prospects` (issue 15): `autoApprove` (off by default) makes a friend whose
 * join raised no fraud signal a branch and a tree at once, at the referrer's membership price and
 * discount; a flagged one still waits for the owner.
 */
export type ProspectSettings = Schema<'ProspectSettings'>;

/** 400 for a prospect settings body that is not `{ autoApprove: true|false }`. */
export const PROSPECT_SETTINGS_INVALID = 'Automatic approval must be on or off';
