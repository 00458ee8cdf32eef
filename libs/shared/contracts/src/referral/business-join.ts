/**
 * The business's own join page (issue 33 item 4, docs/product.md#business-join): `/join/<code>`,
 * a link without a member for friends who came without a referral link. It asks "Who referred
 * you?" as free text; the answer is kept for the owner and matched afterwards, never on the page
 * (a public page names and confirms no member).
 */
import type { FieldErrors, Unchecked } from '../common/field-rules';
import { isPlainText } from '../common/plain-text';
import { REFERRED_BY_NOTE_MAX_LENGTH } from '../membership/referrals-to-match';
import { validateJoinReferral, type JoinReferralInput } from './join-page';

/** The page's texts (docs/product.md#business-join). */
export const BUSINESS_JOIN_TEXTS = {
  heading: (businessName: string) => `Join ${businessName}`,
  intro: (businessName: string) =>
    `Leave your name and email and ${businessName} will contact you to welcome you.`,
  referredByLabel: 'Who referred you?',
  referredByHint: 'Optional: their name as you know them, e.g. “Jenny from spin class”.',
  /** A "Who referred you?" that is not plain text of at most 100 characters. */
  referredByInvalid: `Write who referred you in plain text, at most ${REFERRED_BY_NOTE_MAX_LENGTH} characters`,
  /** The owner's card in Account Settings. */
  ownerTitle: 'Your join page',
  ownerHint:
    'A link without a member, for friends who came without a referral link: it asks “Who referred you?” and the answer waits in Referrals to match once you approve them.',
  /** Replacing the link (`POST /api/join-page/new-link`): the button and its confirmation. */
  newLink: 'New link',
  newLinkTitle: 'Replace your join page link?',
  newLinkWarning:
    'The current link stops working at once, and so do the QR codes you printed or shared: anyone who opens them sees “Something went wrong”. Print and share the new QR code instead.',
  newLinkConfirm: 'Replace the link',
  newLinkDone: 'Your join page has a new link. The old one no longer works.',
  /** A replacement asked without `confirm: true`. */
  newLinkConfirmRequired: 'Confirm that the current link and its printed QR codes stop working',
} as const;

/** The body of `POST /api/join-page/new-link`: the owner confirmed the old link stops working. */
export interface NewJoinLinkInput {
  confirm: true;
}

/**
 * Checks a join page link replacement: `confirm` must be exactly `true` (the dialog's 'Replace
 * the link'), else `newLinkConfirmRequired`. @returns one message per invalid field; empty when valid
 */
export function validateNewJoinLink(
  input: Unchecked<NewJoinLinkInput>,
): FieldErrors<NewJoinLinkInput> {
  return input.confirm === true ? {} : { confirm: BUSINESS_JOIN_TEXTS.newLinkConfirmRequired };
}

/** The join page's element ids (its form posts without JavaScript). */
export const BUSINESS_JOIN_IDS = {
  form: 'business-join-form',
  name: 'business-join-name',
  email: 'business-join-email',
  referredBy: 'business-join-referred-by',
  website: 'business-join-website',
} as const;

/**
 * The business's join page on `origin` (`https://grove.example.com/join/<code>`): the one place
 * it is spelled (the owner's settings, its QR code).
 */
export function businessJoinUrl(origin: string, code: string): string {
  return `${origin}/join/${code}`;
}

/** The business join form's fields. */
export interface BusinessJoinInput extends JoinReferralInput {
  /** Who referred them, as typed; empty or absent for nobody. */
  referredBy?: string;
}

/**
 * Checks the business join form: the referral join's name and email rules
 * (`validateJoinReferral`), and "Who referred you?", when not empty after trimming, plain
 * single-line text of at most 100 characters (as the desk's note, `validateReferredBy`).
 * @returns one message per invalid field; empty when valid
 */
export function validateBusinessJoin(
  input: Unchecked<BusinessJoinInput>,
): FieldErrors<BusinessJoinInput> {
  const errors: FieldErrors<BusinessJoinInput> = validateJoinReferral(input);
  const note = input.referredBy;
  if (note === undefined || note === null) return errors;
  if (typeof note !== 'string')
    return { ...errors, referredBy: BUSINESS_JOIN_TEXTS.referredByInvalid };
  const trimmed = note.trim();
  if (
    trimmed !== '' &&
    ([...trimmed].length > REFERRED_BY_NOTE_MAX_LENGTH || !isPlainText(trimmed))
  )
    errors.referredBy = BUSINESS_JOIN_TEXTS.referredByInvalid;
  return errors;
}
