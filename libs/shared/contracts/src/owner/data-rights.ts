/**
 * Data rights and verified senders (issue 34 items 4 and 6, docs/product.md#data-rights,
 * docs/product.md#verified-senders): the messages the API answers and the web shows.
 */

/** Where an export of a business's data stands. */
export const DATA_EXPORT_STATES = ['queued', 'running', 'done', 'failed', 'expired'] as const;

/** One export's state. */
export type DataExportState = (typeof DATA_EXPORT_STATES)[number];

/** 409 when an export of the business is already queued or running. */
export const DATA_EXPORT_RUNNING_MESSAGE =
  'An export of your data is already being prepared. Please wait for it to finish.';

/** 429 when the business has started its exports for the day. */
export function dataExportLimitMessage(limit: number): string {
  return `You can export your data ${limit} times a day. Please try again tomorrow.`;
}

/** The export failed because the ZIP grew past the size limit. */
export function dataExportTooLargeMessage(maxMb: number): string {
  return `Your export is larger than ${maxMb} MB. Please contact support and we will send it to you.`;
}

/** The export failed for another reason. */
export const DATA_EXPORT_FAILED_MESSAGE = 'The export failed. Please try again.';

/** 404/410 when the export is unknown, not finished or its file has expired. */
export const DATA_EXPORT_NOT_READY_MESSAGE =
  'This export is not available. Start a new export to download your data.';

/** What an erased member is called everywhere afterwards (docs/product.md#data-rights). */
export const ERASED_MEMBER_NAME = 'Erased member';

/** 409 when an added or imported email was erased on request before (the owner may confirm). */
export const ERASED_EMAIL_MESSAGE =
  "This person's data was erased at their request. Add them again only if they asked to come back.";

/** The CSV dry run's message for a row whose email was erased on request (not imported unless confirmed). */
export const ERASED_EMAIL_ROW_MESSAGE =
  'This email was erased at the member’s request; tick “Import erased members too” to add it again';

/** 409 when the member is already erased. */
export const MEMBER_ALREADY_ERASED_MESSAGE = "This member's personal data is already erased.";

/** Days between asking to close a business and its deletion. */
export const ACCOUNT_CLOSURE_DAYS = 30;

/** 400 when the password given to close the account is wrong. */
export const CLOSURE_PASSWORD_MESSAGE = 'That password is not right.';

/** 409 when the business is already closing. */
export const ALREADY_CLOSING_MESSAGE = 'Your account is already closing.';

/** 409 when the business is not closing (nothing to cancel). */
export const NOT_CLOSING_MESSAGE = 'Your account is not closing.';

/** 403 for a member of staff other than an owner while the business is closing. */
export const BUSINESS_CLOSING_MESSAGE =
  'This business is closing. Ask an owner to cancel the closure to sign in again.';

/** Why member emails wait (`GET /api/account/email-sending`). */
export const HELD_EMAIL_REASONS = ['unverified_sender', 'daily_cap'] as const;

/** A reason member emails wait. */
export type HeldEmailReason = (typeof HELD_EMAIL_REASONS)[number];

/** 400 when a verification link is unknown, used or older than a day. */
export const VERIFICATION_INVALID_MESSAGE =
  'This verification link is no longer valid. Sign in and send a new one from the banner.';

/** 409 when the owner asking for a verification link is already verified. */
export const ALREADY_VERIFIED_MESSAGE = 'Your email is already verified.';

/** 409 when the member to erase is managed by Mindbody (its sync would write the data back). */
export const ERASE_MANAGED_MESSAGE =
  'This member is managed by Mindbody. Erase them in Mindbody first; Grove removes them at the next sync.';

/** The page a verification link opens (the token in its fragment). */
export const VERIFY_EMAIL_PATH = '/verify-email';

/** Seconds a verification link works: 24 hours. */
export const VERIFICATION_TTL_SECONDS = 86_400;

/** 200 after a verification link was used. */
export const EMAIL_VERIFIED_MESSAGE =
  'Your email is verified. Grove now sends the emails to your members that were waiting.';

/** 202 after asking for a new verification link. */
export const VERIFICATION_SENT_MESSAGE = 'We sent you a new verification link. Check your inbox.';

/** 429 after too many verification links in an hour. */
export const VERIFICATION_LIMIT_MESSAGE =
  'You asked for several links in the last hour. Please use the newest one or try again later.';
