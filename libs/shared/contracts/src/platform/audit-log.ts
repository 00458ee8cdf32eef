import type { LocaleFormats } from '../common/locale-format';
import type { Page } from '../common/page';

/**
 * The audit log (issue 34 item 2, docs/product.md#audit-log): every change to a member, a price,
 * a discount, a branch, a prospect, a setting, an import, an integration or a bill write, with
 * who made it, when, and what it was before and after. Owners and managers read it.
 */

/** Every kind of entry, by subject then verb. */
export const AUDIT_KINDS = [
  'member.created',
  'member.updated',
  'member.price_changed',
  'member.removed',
  'branch.added',
  'branch.removed',
  'prospect.approved',
  'prospect.removed',
  'reward.honoured',
  'link.created',
  'link.rotated',
  'link.revoked',
  'settings.changed',
  'import.run',
  'integration.connected',
  'integration.disconnected',
  'integration.synced',
  'integration.client_added',
  'bill.written',
  'team.invited',
  'team.joined',
  'team.role_changed',
  'team.removed',
] as const;

/** A kind of audit entry. */
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** How each kind is named on the Activity page and in the CSV. */
export const AUDIT_KIND_LABELS: Readonly<Record<AuditKind, string>> = {
  'member.created': 'Member added',
  'member.updated': 'Member details changed',
  'member.price_changed': 'Price or discount changed',
  'member.removed': 'Member removed',
  'branch.added': 'Branch added',
  'branch.removed': 'Branch removed',
  'prospect.approved': 'Friend approved',
  'prospect.removed': 'Friend removed',
  'reward.honoured': 'Reward honoured',
  'link.created': 'Referral link created',
  'link.rotated': 'Referral link replaced',
  'link.revoked': 'Referral link revoked',
  'settings.changed': 'Setting changed',
  'import.run': 'Import run',
  'integration.connected': 'Integration connected',
  'integration.disconnected': 'Integration disconnected',
  'integration.synced': 'Integration synced',
  'integration.client_added': 'Client added to the integration',
  'bill.written': 'Bill written',
  'team.invited': 'Staff invited',
  'team.joined': 'Staff joined',
  'team.role_changed': 'Staff role changed',
  'team.removed': 'Staff removed',
};

/** True when `value` is a kind of audit entry. */
export function isAuditKind(value: unknown): value is AuditKind {
  return typeof value === 'string' && (AUDIT_KINDS as readonly string[]).includes(value);
}

/** Who made a change: a member of staff, or Mindbody, Stripe or Grove itself. */
export type AuditActor = 'staff' | 'mindbody' | 'stripe' | 'system';

/** How a non-staff author is named. */
export const AUDIT_ACTOR_LABELS: Readonly<Record<Exclude<AuditActor, 'staff'>, string>> = {
  mindbody: 'Mindbody',
  stripe: 'Stripe',
  system: 'Grove',
};

/** A small JSON value of a before or after (no secrets, passwords or tokens). */
export type AuditValue = Record<string, string | number | boolean | null>;

/** One entry of the audit log. */
export interface AuditEntry {
  id: string;
  /** ISO 8601 time of the change. */
  at: string;
  actor: AuditActor;
  /** The member of staff's user id (staff only). */
  authorUserId: string | null;
  /** The author as named at the time ("Siobhán O'Brien"; "Mindbody", "Stripe", "Grove"). */
  authorName: string;
  kind: AuditKind;
  /** The member the change is about, when it is about one (the id may no longer exist). */
  memberId: string | null;
  memberName: string | null;
  before: AuditValue | null;
  after: AuditValue | null;
}

/** One page of the audit log, newest first. */
export type AuditLogPage = Page<AuditEntry>;

/** Most entries one page of `GET /api/audit-log` holds. */
export const AUDIT_PAGE_SIZE_MAX = 100;
/** Most entries one CSV download holds (the newest first; narrow the filters for older ones). */
export const AUDIT_CSV_MAX_ROWS = 50_000;
/** Retention of the audit log in days: default two years, from 30 days to 10 years. */
export const AUDIT_RETENTION_DAYS = { default: 730, min: 30, max: 3650 } as const;

/** The CSV download's header, in order. */
export const AUDIT_CSV_HEADER = ['When', 'Who', 'What', 'Member', 'Before', 'After'] as const;

/** The audit log's messages (400 answers of its routes, shown as sent). */
export const AUDIT_MESSAGES = {
  dateInvalid: 'Please enter dates as YYYY-MM-DD.',
  periodInvalid: 'The end date must not be before the start date.',
  retentionInvalid: 'Keep the activity log between 30 and 3650 days.',
} as const;

/** True when `value` is a real calendar day written YYYY-MM-DD. */
export function isAuditDay(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

/**
 * How each field of a before or after is named to people (the Activity page and a member's
 * History): the one list, beside the kinds. A key not listed is shown as written.
 */
export const AUDIT_FIELD_LABELS: Readonly<Record<string, string>> = {
  // Members, branches and friends
  name: 'Name',
  email: 'Email',
  membershipPriceCents: 'Membership price',
  discountCents: 'Discount per referral',
  discountOnReferralCents: 'Discount on referral',
  discountForRefereeCents: 'Discount for referee',
  referrer: 'Referred by',
  source: 'Source',
  membership: 'Membership',
  // Referral links
  code: 'Link code',
  expiresAt: 'Expires',
  // Settings
  setting: 'Setting',
  kind: 'Offer',
  amountCents: 'Amount off',
  percent: 'Percent off',
  months: 'Months',
  text: 'Offer text',
  friendJoined: 'Friend joined',
  branchCounting: 'Branch counting',
  branchEnded: 'Branch ended',
  welcome: 'Welcome',
  message: 'Message',
  creditCents: 'Credit per friend',
  freeCount: 'Free period',
  freeUnit: 'Free period unit',
  giftText: 'Gift',
  capPercent: 'Most a member can save (%)',
  yearlyCapCents: 'Yearly cap',
  maxBranchesPerYear: 'Friends rewarded a year',
  reward: 'Reward',
  friend: 'Friend',
  honoured: 'Honoured',
  rule: 'Branch counts',
  days: 'Days',
  autoCreate: 'Links for new members',
  inviteAfterDays: 'Invite after (days)',
  reminderAfterDays: 'Reminder after (days)',
  monthlySummary: 'Monthly summary',
  autoApprove: 'Approve automatically',
  firstName: 'First name',
  lastName: 'Last name',
  businessName: 'Business name',
  country: 'Country',
  timeZone: 'Time zone',
  phoneNumber: 'Phone',
  website: 'Website',
  // Imports, integrations and bills
  rows: 'Rows',
  add: 'Added',
  update: 'Updated',
  unchanged: 'Unchanged',
  skipped: 'Skipped',
  error: 'Errors',
  integration: 'Integration',
  siteId: 'Site ID',
  key: 'Key',
  clients: 'Clients read',
  invalidEmails: 'Without a valid email',
  billsWritten: 'Bills written',
  billsHeld: 'Bills held for review',
  listed: 'Subscriptions listed',
  membersWritten: 'Members written',
  ended: 'Ended',
  discountsRemoved: 'Discounts removed',
  autopaysRestored: 'Bills restored',
  autopaysNotRestored: 'Bills not restored',
  billing: 'Billed by',
  billCents: 'Bill',
  // Staff
  staff: 'Staff member',
  role: 'Role',
  invitedBy: 'Invited by',
  joinedWith: 'Joined with',
};

/** How the fixed values of some fields read to people (`value` as stored → its words). */
const AUDIT_VALUE_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  rule: {
    approval: 'At approval',
    days: 'After days as a member',
    first_payment: 'At first payment',
  },
  kind: {
    none: 'None',
    amount: 'Amount off',
    percent: 'Percent off',
    free: 'Free months',
    text: 'Own words',
  },
  membership: { running: 'Running', ended: 'Ended' },
  joinedWith: { password: 'Password', passkey: 'Passkey' },
  source: {
    approval: 'Approved friend',
    all_members: 'Create links for all members',
    automatic: 'Automatic link for a new member',
  },
};

/** Field `key` as people read it ("membershipPriceCents" → "Membership price"). */
export function auditFieldLabel(key: string): string {
  return AUDIT_FIELD_LABELS[key] ?? key;
}

/**
 * One before or after as label–text pairs for people, with the business's formats: money
 * (`…Cents` keys, integer cents) as dollars, an instant (`expiresAt`) as its date (none: 'Never'),
 * On/Off for yes/no, '—' for nothing, fixed values in words; the setting's name first.
 */
export function auditValuePairs(
  value: AuditValue | null,
  formats: Pick<LocaleFormats, 'money' | 'date'>,
): { key: string; label: string; text: string }[] {
  if (!value) return [];
  // The setting's name first (a stored value keeps no key order).
  const entries = Object.entries(value).sort(
    ([a], [b]) => Number(b === 'setting') - Number(a === 'setting'),
  );
  return entries.map(([key, item]) => ({
    key,
    label: auditFieldLabel(key),
    text:
      item === null
        ? key === 'expiresAt'
          ? 'Never'
          : '—'
        : typeof item === 'boolean'
          ? item
            ? 'On'
            : 'Off'
          : typeof item === 'number' && key.endsWith('Cents')
            ? formats.money(item)
            : key === 'expiresAt' && typeof item === 'string'
              ? formats.date(item)
              : (AUDIT_VALUE_LABELS[key]?.[String(item)] ?? String(item)),
  }));
}

/**
 * The retention rule (`PUT /api/audit-log/retention` and the Your data card): a whole number of
 * days from {@link AUDIT_RETENTION_DAYS} min to max. @returns `{ days: message }` or `{}`
 */
export function validateAuditRetention(input: { days: unknown }): { days?: string } {
  const { days } = input;
  return typeof days === 'number' &&
    Number.isInteger(days) &&
    days >= AUDIT_RETENTION_DAYS.min &&
    days <= AUDIT_RETENTION_DAYS.max
    ? {}
    : { days: AUDIT_MESSAGES.retentionInvalid };
}
