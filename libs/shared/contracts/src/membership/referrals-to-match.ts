/**
 * Referrals at the front desk (issue 33 item 4, docs/product.md#referrals-to-match): a member
 * added by hand may name who referred them. A member of the business picked from the typeahead
 * makes the new member that member's branch at once (`referringMemberId`); a name that matches
 * nobody ("Jenny (spin class)") is kept as written (`referredByNote`) and waits in Referrals to
 * match until someone picks the member it meant, or dismisses it.
 */
import type { FieldErrors, Unchecked } from '../common/field-rules';
import { isPlainText } from '../common/plain-text';

/** Longest "referred by" note, in characters (Unicode code points, as PostgreSQL counts them). */
export const REFERRED_BY_NOTE_MAX_LENGTH = 100;

/** The messages of the "Referred by" field and of Referrals to match. */
export const REFERRED_BY_MESSAGES = {
  /** The note is not text, holds a control character, or is over 100 characters. */
  noteInvalid: `Write who referred them in plain text, at most ${REFERRED_BY_NOTE_MAX_LENGTH} characters`,
  /** Both a member and a note were sent: the note is for a name that matches nobody. */
  noteWithReferrer: 'Pick the member who referred them, or type a name, not both',
  /** Matching a member to themselves. */
  ownReferrer: 'A member cannot be their own referrer',
  /** Matching a member who is already someone's branch. */
  alreadyBranch: 'That member is already a branch of another member',
  /** Matching would make the referrer a branch of their own branch. */
  referralLoop: 'That member was referred by this one: pick someone else',
} as const;

/**
 * What the add-member form and the CSV import's dry run say of a "referred by" name that names no
 * one (or, in a file, several members): it is kept as typed and waits in Referrals to match.
 * @param name the name as typed ("Jenny (spin class)")
 * @param several true when more than one member has that name (the CSV import)
 */
export function referredByWaitsMessage(name: string, several = false): string {
  return several
    ? `More than one member is named “${name}”: it will wait in Referrals to match.`
    : `No member matches “${name}”: it will wait in Referrals to match.`;
}

/** The "referred by" part of `POST /api/members`. */
export interface ReferredByInput {
  /** The member who referred them (id): the new member becomes that member's branch. */
  referringMemberId?: string;
  /** Who referred them, as typed, when it matches no member: it waits in Referrals to match. */
  referredByNote?: string;
}

/**
 * Checks the "referred by" part of a new member: `referredByNote`, when sent and not empty after
 * trimming, is plain single-line text of at most 100 characters and comes without
 * `referringMemberId`.
 * @returns `{ referredByNote }` with the rule broken; empty when valid
 */
export function validateReferredBy(
  input: Unchecked<ReferredByInput>,
): FieldErrors<ReferredByInput> {
  const note = input.referredByNote;
  if (note === undefined || note === null) return {};
  if (typeof note !== 'string') return { referredByNote: REFERRED_BY_MESSAGES.noteInvalid };
  const trimmed = note.trim();
  if (trimmed === '') return {};
  if ([...trimmed].length > REFERRED_BY_NOTE_MAX_LENGTH || !isPlainText(trimmed))
    return { referredByNote: REFERRED_BY_MESSAGES.noteInvalid };
  if (typeof input.referringMemberId === 'string' && input.referringMemberId !== '')
    return { referredByNote: REFERRED_BY_MESSAGES.noteWithReferrer };
  return {};
}

/** One member waiting in Referrals to match (`GET /api/referrals-to-match`). */
export interface ReferralToMatch {
  memberId: string;
  memberName: string;
  memberEmail: string;
  /** Who referred them, as typed at the desk. */
  referredByNote: string;
  /** When the member was added (ISO 8601). */
  addedAt: string;
}

/** `GET /api/referrals-to-match`: the oldest waiting first, at most 100, and how many wait. */
export interface ReferralsToMatch {
  items: ReferralToMatch[];
  total: number;
}

/** Body of `POST /api/referrals-to-match/:memberId/match`: the member who referred them. */
export interface MatchReferralRequest {
  referrerId: string;
}
