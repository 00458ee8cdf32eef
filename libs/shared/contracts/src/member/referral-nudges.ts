/**
 * Asked at the right moment (issue 33 item 5, docs/product.md#referral-nudges): the emails Grove
 * sends a member on its own schedule, each switched on by the owner in Account Settings after a
 * preview — an invitation to refer after N days of membership, one reminder when the member has
 * not opened their link since, and a monthly summary to every referrer with a counting branch.
 * Where the gym's billing/CRM tells visits (Mindbody), the invitation can instead follow a
 * member's Nth visit.
 */
import type { FieldErrors, Unchecked } from '../common/field-rules';

/** The three nudges, as `GET /api/settings/referral-nudges/preview?kind=` names them. */
export const REFERRAL_NUDGE_KINDS = ['invite', 'reminder', 'summary'] as const;

/** One nudge. */
export type ReferralNudgeKind = (typeof REFERRAL_NUDGE_KINDS)[number];

/** Days of membership before the invitation: at least a week, at most a year. */
export const NUDGE_INVITE_DAYS = { min: 7, max: 365 } as const;

/**
 * The visit after which a member is invited (where the billing/CRM tells visits: Mindbody):
 * from the first visit to the hundredth (docs/decisions/mindbody-visits.md).
 */
export const NUDGE_INVITE_VISITS = { min: 1, max: 100 } as const;

/** Days after the invitation before the one reminder. */
export const NUDGE_REMINDER_DAYS = { min: 3, max: 90 } as const;

/** The days the Account Settings card proposes when the owner switches a nudge on. */
export const NUDGE_SUGGESTED_DAYS = { invite: 30, reminder: 14 } as const;

/** The visit the Account Settings card proposes when the owner invites after a number of visits. */
export const NUDGE_SUGGESTED_VISITS = 5;

/**
 * `GET/PUT /api/settings/referral-nudges`: null days = that email off (every nudge is off until
 * the owner switches it on).
 */
export interface ReferralNudgeSettings {
  /** Invite a member to refer this many days after they joined, or null: off. */
  inviteAfterDays: number | null;
  /**
   * Or invite a member after their Nth visit (Mindbody members, visits read from Mindbody), or
   * null: off. Never both this and `inviteAfterDays`. Absent in a request: null.
   */
  inviteAfterVisits?: number | null;
  /** Remind once, this many days after the invitation, a member who has not opened their link since; null: off. */
  reminderAfterDays: number | null;
  /** "You saved $X this month; one more friend → $Y" on the 1st of each month to referrers with a counting branch. */
  monthlySummary: boolean;
}

/** `GET/PUT /api/settings/referral-nudges` reply: the settings and what the business can choose. */
export interface ReferralNudgeSettingsReply extends ReferralNudgeSettings {
  /**
   * True when the gym's billing/CRM tells visits (Mindbody connected and its members imported):
   * only then can the invitation follow a member's Nth visit.
   */
  visitsAvailable: boolean;
  /**
   * Where visits are told: the members whose visits Grove checks, each once a week (uninvited
   * Mindbody members with an email and a live link, not unsubscribed): about this many Mindbody
   * calls a week while the invitation after visits is on. 0 where visits are not told.
   */
  visitChecksPerWeek: number;
  /** Where visits are told: the business's Mindbody members (membership not ended there); else 0. */
  mindbodyMembers: number;
}

/** Every nudge off: a business's settings until its owner changes them. */
export const REFERRAL_NUDGES_OFF: ReferralNudgeSettings = {
  inviteAfterDays: null,
  inviteAfterVisits: null,
  reminderAfterDays: null,
  monthlySummary: false,
};

/** The settings' validation messages (docs/product.md#referral-nudges). */
export const REFERRAL_NUDGE_MESSAGES = {
  inviteDays: `Invite after ${NUDGE_INVITE_DAYS.min} to ${NUDGE_INVITE_DAYS.max} days, or turn the invitation off`,
  inviteVisits: `Invite after visit ${NUDGE_INVITE_VISITS.min} to ${NUDGE_INVITE_VISITS.max}, or turn the invitation off`,
  daysOrVisits: 'Invite after a number of days or after a number of visits, not both',
  /** `PUT` with visits at a business whose Mindbody is not connected (or its members not imported). */
  visitsNeedMindbody:
    'Connect Mindbody and import your members first: Grove reads visits from Mindbody',
  reminderDays: `Remind after ${NUDGE_REMINDER_DAYS.min} to ${NUDGE_REMINDER_DAYS.max} days, or turn the reminder off`,
  reminderNeedsInvite: 'The reminder follows the invitation: turn the invitation on first',
  monthlySummary: 'The monthly summary must be on or off',
  kind: 'Choose the email to preview: invite, reminder or summary',
  /** `GET …/preview` with no member of the business to render it for. */
  noExample: 'Add a member with an email address to preview this email',
} as const;

const wholeIn = (value: unknown, range: { min: number; max: number }): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max;

/**
 * Checks the settings (the API's `PUT` body and the Account Settings card): each number of days
 * or visits null (or, for visits, absent) or a whole number in its range, the invitation after
 * days or after visits but not both, the reminder only with the invitation on, the summary a
 * boolean (docs/product.md#referral-nudges). Whether the business tells visits is the API's check.
 * @returns the fields with the first rule each breaks; empty when valid
 */
export function validateReferralNudgeSettings(
  input: Unchecked<ReferralNudgeSettings>,
): FieldErrors<ReferralNudgeSettings> {
  const errors: FieldErrors<ReferralNudgeSettings> = {};
  if (input.inviteAfterDays !== null && !wholeIn(input.inviteAfterDays, NUDGE_INVITE_DAYS))
    errors.inviteAfterDays = REFERRAL_NUDGE_MESSAGES.inviteDays;
  const visits = input.inviteAfterVisits ?? null;
  if (visits !== null) {
    if (!wholeIn(visits, NUDGE_INVITE_VISITS))
      errors.inviteAfterVisits = REFERRAL_NUDGE_MESSAGES.inviteVisits;
    else if (input.inviteAfterDays !== null)
      errors.inviteAfterVisits = REFERRAL_NUDGE_MESSAGES.daysOrVisits;
  }
  if (input.reminderAfterDays !== null) {
    if (!wholeIn(input.reminderAfterDays, NUDGE_REMINDER_DAYS))
      errors.reminderAfterDays = REFERRAL_NUDGE_MESSAGES.reminderDays;
    else if (input.inviteAfterDays === null && visits === null)
      errors.reminderAfterDays = REFERRAL_NUDGE_MESSAGES.reminderNeedsInvite;
  }
  if (typeof input.monthlySummary !== 'boolean')
    errors.monthlySummary = REFERRAL_NUDGE_MESSAGES.monthlySummary;
  return errors;
}

/** `GET /api/settings/referral-nudges/preview`: one nudge as a real member would get it; nothing sent. */
export interface ReferralNudgePreview {
  kind: ReferralNudgeKind;
  memberName: string;
  subject: string;
  /** The HTML part, a whole document (show it in a sandboxed iframe). */
  html: string;
  text: string;
}
