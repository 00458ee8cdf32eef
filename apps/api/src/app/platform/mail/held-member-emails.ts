/**
 * The pg-boss queue that sends the member emails a business has waiting ('held'): its data
 * `{ businessId }`. Queued by platform when an owner verifies their email; handled by the member
 * area's `MemberEmails` (docs/product.md#verified-senders), which also runs it hourly for every
 * business (a new UTC day resets the daily cap).
 */
export const MEMBER_EMAIL_RELEASE_QUEUE = 'member-email.release';

/** Data of a `member-email.release` job. */
export interface MemberEmailReleaseJob {
  businessId: string;
}
