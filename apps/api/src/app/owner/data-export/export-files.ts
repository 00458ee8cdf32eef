/**
 * The files of a business's export (issue 34 item 6, docs/product.md#data-rights): one entry per
 * CSV file of the ZIP, in the order they are written, each described in the README. To export one
 * more table, add one line here: its file name, what README.txt says about it, and its SELECT
 * (`$1` is the business's id; every statement must filter on it). An entry with `ifTable` is
 * written only when that table exists (e.g. `audit_log`, built beside this export).
 *
 * Amounts are integer cents, times ISO 8601 in UTC, ids uuids; no password hash, token or secret
 * is ever selected.
 */
export interface ExportFile {
  /** The file's name in the ZIP. */
  file: string;
  /** One line for README.txt: what a row is. */
  about: string;
  /** The SELECT of its rows, `$1` the business's id; its column names are the CSV header. */
  sql: string;
  /** Written only when this table exists in the database. */
  ifTable?: string;
}

export const EXPORT_FILES: readonly ExportFile[] = [
  {
    file: 'business.csv',
    about: "The business's details and settings (one row).",
    sql: `SELECT name, website, phone, country, time_zone, default_discount_cents, share_message,
            welcome_offer, referrer_reward, reward_cap_percent, reward_yearly_cap_cents,
            reward_max_branches, auto_referral_links, auto_approve_prospects, branch_qualification,
            member_email_friend_joined, created_at
          FROM businesses WHERE id = $1`,
  },
  {
    file: 'staff.csv',
    about: 'The staff accounts: name, email, role, created (no password).',
    sql: `SELECT id, first_name, last_name, email, role, created_at
          FROM users WHERE business_id = $1 ORDER BY created_at, id`,
  },
  {
    file: 'members.csv',
    about:
      'Every member: name, email, membership price and discount per branch (cents), who referred them (referred_by_id), when added, when erased on request.',
    sql: `SELECT id, name, email, membership_price_cents, discount_cents, referred_by_id,
            referred_by_note, mindbody_client_id, created_at, erased_at
          FROM members WHERE business_id = $1 ORDER BY created_at, id`,
  },
  {
    file: 'branches.csv',
    about: 'Every branch: a member (member_id) and the member who referred them (referrer_id).',
    sql: `SELECT m.id AS member_id, m.name AS member_name, r.id AS referrer_id, r.name AS referrer_name,
            m.branch_counting_since, m.branch_lapsed_at
          FROM members m JOIN members r ON r.id = m.referred_by_id AND r.business_id = m.business_id
          WHERE m.business_id = $1 ORDER BY r.id, m.id`,
  },
  {
    file: 'price-history.csv',
    about:
      "The price ledger: every change of a member's price (cents) with its reason and the branch that caused it.",
    sql: `SELECT id, member_id, occurred_at, reason, old_price_cents, new_price_cents,
            membership_price_cents, branch_id
          FROM price_changes WHERE business_id = $1 ORDER BY occurred_at, id`,
  },
  {
    file: 'rewards-owed.csv',
    about:
      'Rewards owed to referrers: one per friend (branch_id) who started counting while the reward was a one-off credit, a free period or a gift, the reward as it was then (JSON, cents), capped when past the most friends rewarded a year (nothing owed), and when it was honoured.',
    sql: `SELECT o.id, o.referrer_id, r.name AS referrer_name, o.branch_id, f.name AS friend_name,
            o.reward, o.capped, o.counted_at, o.honoured_at
          FROM referrer_rewards_owed o
          JOIN members r ON r.id = o.referrer_id AND r.business_id = o.business_id
          JOIN members f ON f.id = o.branch_id AND f.business_id = o.business_id
          WHERE o.business_id = $1 ORDER BY o.counted_at, o.id`,
  },
  {
    file: 'referral-links.csv',
    about: "Every member's referral links: code, created, expiry and revocation.",
    sql: `SELECT id, member_id, code, created_at, expires_at, revoked_at
          FROM referral_links WHERE business_id = $1 ORDER BY created_at, id`,
  },
  {
    file: 'prospects.csv',
    about:
      'Prospective members waiting for approval: name, email, who referred them (the member, or their answer to "Who referred you?" on your join page), how.',
    sql: `SELECT id, referring_member_id, referred_by_note, name, email, source, channel, created_at
          FROM prospects WHERE business_id = $1 ORDER BY created_at, id`,
  },
  {
    file: 'prospect-outcomes.csv',
    about: 'Prospects decided: approved (member_id) or removed, and when.',
    sql: `SELECT prospect_id, referring_member_id, member_id, name, email, outcome, joined_at, decided_at
          FROM prospect_outcomes WHERE business_id = $1 ORDER BY decided_at, prospect_id`,
  },
  {
    file: 'lifecycle-events.csv',
    about: 'What happened to members over time (the analytics are built from these).',
    sql: `SELECT id, kind, occurred_at, member_id, referrer_id, referral_link_id, prospect_id, source, channel
          FROM lifecycle_facts WHERE business_id = $1 ORDER BY occurred_at, id`,
  },
  {
    file: 'member-emails.csv',
    about: 'Emails Grove sent (or holds) to members on your behalf: which, to whom, status.',
    sql: `SELECT id, member_id, template, status, held_reason, created_at, delivered_at
          FROM member_emails WHERE business_id = $1 ORDER BY created_at, id`,
  },
  {
    file: 'audit-log.csv',
    about: 'The audit log: every change, who made it, when, before and after.',
    sql: `SELECT * FROM audit_log WHERE business_id = $1 ORDER BY 1`,
    ifTable: 'audit_log',
  },
];

/**
 * README.txt of the ZIP: what the export is and one paragraph per file written.
 * @param businessName the business's name
 * @param at when the export was made (ISO 8601)
 * @param files the files written
 */
export function exportReadme(
  businessName: string,
  at: string,
  files: readonly ExportFile[],
): string {
  return [
    `Grove data export of ${businessName}, made ${at} (UTC).`,
    '',
    'Each file is CSV (UTF-8 with a byte-order mark, comma-separated, first row the column names).',
    'Amounts are in cents (1250 = 12.50), times are ISO 8601 in UTC, ids are uuids that link the',
    'files together (members.csv id = member_id elsewhere). A cell a spreadsheet would run as a',
    "formula starts with an apostrophe (').",
    '',
    ...files.map((file) => `${file.file}\n  ${file.about}`),
    '',
  ].join('\r\n');
}
