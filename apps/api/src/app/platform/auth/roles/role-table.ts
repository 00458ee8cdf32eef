import { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from '@grove/contracts';

/**
 * A part of a route one role may not use although it may call the route (docs/product.md#staff-accounts):
 *
 * - `default-price-and-discount`: the body's `membershipPriceCents` and `discountCents` must be
 *   the business's member defaults (front desk adds members and branches at the default price).
 * - `approval-prefill`: the body's `membershipPriceCents` and `discountCents` must be what the
 *   approval starts from (the prospect's `approvalPrefill`: the referrer's price and discount).
 * - `price-unchanged`: the body's `membershipPriceCents` and `discountCents`, when present, must
 *   be the member's own (front desk edits a name or an email, never a price or a discount).
 * - `own-name-only`: the body may change only the caller's own `firstName` and `lastName`, not
 *   the business's details.
 *
 * Each is checked by `RoleGuard` through `RoleLimitChecks` (the module that owns the data
 * registers the check); a limit with no check registered refuses.
 */
export type RoleLimit =
  'default-price-and-discount' | 'approval-prefill' | 'price-unchanged' | 'own-name-only';

/** What each `RoleLimit` says in the docs. */
export const ROLE_LIMIT_TEXTS: Readonly<Record<RoleLimit, string>> = {
  'default-price-and-discount': 'at the default price and discount only',
  'approval-prefill': "at the referrer's price and discount only",
  'price-unchanged': 'no price or discount change',
  'own-name-only': 'own name only',
};

/** One authenticated route and who may call it. */
export interface RoleRule {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path as the OpenAPI document writes it: `/api/members/{id}`. */
  path: string;
  /** The roles allowed; any other gets 403 and the route does not run. */
  roles: readonly StaffRole[];
  /** A part of the route an allowed role may still not use (403 when it tries). */
  limits?: Partial<Record<StaffRole, RoleLimit>>;
  /**
   * Open to a user whose business requires a second factor they have not set up: the routes that
   * set one up, read who is signed in, and list or end their own sign-ins (`SecondFactorGate` refuses every other signed-in route
   * with 403, docs/product.md#second-factor). Signing out is public.
   */
  beforeSecondFactor?: true;
}

const ALL: readonly StaffRole[] = STAFF_ROLES;
/** Everyone who may write: every role but viewer. */
const STAFF: readonly StaffRole[] = ['owner', 'manager', 'front_desk'];
/** Owners and managers: members' prices, imports, exports, settings. */
const MANAGERS: readonly StaffRole[] = ['owner', 'manager'];
/** Owners only: Grove's bill, integrations, the team. */
const OWNER: readonly StaffRole[] = ['owner'];

const FRONT_DESK_DEFAULTS = { front_desk: 'default-price-and-discount' } as const;

/**
 * THE role table (issue 34 item 1, docs/product.md#staff-accounts): every route a signed-in
 * member of staff can call, and the roles allowed. `RoleGuard` (a global guard after
 * `JwtAuthGuard`) refuses any role not listed with 403 before the route runs, and refuses every
 * role on a signed-in route missing here. Public routes (`@Public()`) are not listed.
 * Rendered into docs/rest-api.md#roles by `renderRoleTable` (role-table.spec.ts fails when the
 * docs differ; `UPDATE_DOCS=1` rewrites them); `roles.integration-spec.ts` calls every route as
 * every role and fails when a route the app serves is missing here.
 *
 * To add a route: add its row here (method, OpenAPI path, roles), then run
 * `UPDATE_DOCS=1 npx jest -c apps/api/jest.config.cjs role-table`.
 */
export const ROLE_TABLE: readonly RoleRule[] = [
  // The signed-in user's own account and sessions.
  { method: 'GET', path: '/api/auth/me', roles: ALL, beforeSecondFactor: true },
  { method: 'GET', path: '/api/account', roles: ALL, beforeSecondFactor: true },
  {
    method: 'PATCH',
    path: '/api/account',
    roles: ALL,
    limits: { front_desk: 'own-name-only', viewer: 'own-name-only' },
  },
  { method: 'POST', path: '/api/account/password', roles: ALL },
  // 'Set a password' of an account that joined with a passkey (its passkey confirms it is them).
  { method: 'POST', path: '/api/account/password/set/options', roles: ALL },
  { method: 'POST', path: '/api/account/password/set', roles: ALL },
  // A person always sees where their own account is signed in and can end those sign-ins, a
  // missing second factor or not (ASVS 3.3: list and end one's own sessions).
  { method: 'GET', path: '/api/account/sessions', roles: ALL, beforeSecondFactor: true },
  {
    method: 'POST',
    path: '/api/account/sessions/sign-out-others',
    roles: ALL,
    beforeSecondFactor: true,
  },
  { method: 'DELETE', path: '/api/account/sessions/{id}', roles: ALL, beforeSecondFactor: true },
  // Every role manages their own second factor; one whose business requires it may set it up.
  { method: 'GET', path: '/api/account/second-factor', roles: ALL, beforeSecondFactor: true },
  { method: 'POST', path: '/api/account/second-factor/totp', roles: ALL, beforeSecondFactor: true },
  {
    method: 'POST',
    path: '/api/account/second-factor/totp/confirm',
    roles: ALL,
    beforeSecondFactor: true,
  },
  { method: 'POST', path: '/api/account/second-factor/totp/disable', roles: ALL },
  { method: 'POST', path: '/api/account/second-factor/recovery-codes', roles: ALL },
  { method: 'GET', path: '/api/account/passkeys', roles: ALL, beforeSecondFactor: true },
  { method: 'POST', path: '/api/account/passkeys/options', roles: ALL, beforeSecondFactor: true },
  { method: 'POST', path: '/api/account/passkeys', roles: ALL, beforeSecondFactor: true },
  { method: 'POST', path: '/api/account/passkeys/{id}/remove', roles: ALL },
  { method: 'POST', path: '/api/support/issues', roles: ALL },
  { method: 'GET', path: '/api/getting-started', roles: ALL },
  { method: 'PUT', path: '/api/getting-started', roles: MANAGERS },

  // The team (owners only).
  { method: 'GET', path: '/api/team', roles: OWNER },
  { method: 'POST', path: '/api/team/invitations', roles: OWNER },
  { method: 'DELETE', path: '/api/team/invitations/{id}', roles: OWNER },
  { method: 'PATCH', path: '/api/team/members/{id}', roles: OWNER },
  { method: 'DELETE', path: '/api/team/members/{id}', roles: OWNER },
  { method: 'DELETE', path: '/api/team/members/{id}/sign-in-pause', roles: OWNER },
  { method: 'PUT', path: '/api/settings/second-factor', roles: OWNER },

  // Grove's bill (owners only).
  { method: 'GET', path: '/api/billing', roles: OWNER },
  { method: 'POST', path: '/api/billing/checkout', roles: OWNER },
  { method: 'POST', path: '/api/billing/portal', roles: OWNER },

  // Data rights (issue 34 item 6): the export of everything is the owners'.
  { method: 'GET', path: '/api/data-exports', roles: OWNER },
  { method: 'POST', path: '/api/data-exports', roles: OWNER },
  { method: 'GET', path: '/api/data-exports/{id}', roles: OWNER },
  { method: 'GET', path: '/api/data-exports/{id}/download', roles: OWNER },
  { method: 'GET', path: '/api/account/closure', roles: OWNER },
  // Verified senders (issue 34 item 4): the owner's link, and why member emails wait.
  { method: 'POST', path: '/api/account/email-verification', roles: OWNER },
  { method: 'GET', path: '/api/member-emails/sending', roles: ALL },
  { method: 'POST', path: '/api/account/closure', roles: OWNER },
  { method: 'DELETE', path: '/api/account/closure', roles: OWNER },

  // Analytics.
  { method: 'GET', path: '/api/analytics/channels', roles: ALL },
  { method: 'GET', path: '/api/analytics/funnel', roles: ALL },
  { method: 'GET', path: '/api/analytics/money', roles: ALL },
  { method: 'GET', path: '/api/analytics/referrers', roles: ALL },
  { method: 'GET', path: '/api/analytics/retention', roles: ALL },

  // Members and branches.
  { method: 'GET', path: '/api/members', roles: ALL },
  { method: 'POST', path: '/api/members', roles: STAFF, limits: FRONT_DESK_DEFAULTS },
  { method: 'GET', path: '/api/members/{id}', roles: ALL },
  {
    method: 'PATCH',
    path: '/api/members/{id}',
    roles: STAFF,
    limits: { front_desk: 'price-unchanged' },
  },
  // Referrals at the desk (issue 33 item 4): matching adds a branch at the members' own prices.
  { method: 'GET', path: '/api/referrals-to-match', roles: ALL },
  { method: 'POST', path: '/api/referrals-to-match/{memberId}/match', roles: STAFF },
  { method: 'POST', path: '/api/referrals-to-match/{memberId}/dismiss', roles: STAFF },
  { method: 'DELETE', path: '/api/members/{id}', roles: MANAGERS },
  { method: 'GET', path: '/api/members/{id}/profile', roles: ALL },
  {
    method: 'POST',
    path: '/api/members/{id}/branches',
    roles: STAFF,
    limits: FRONT_DESK_DEFAULTS,
  },
  { method: 'DELETE', path: '/api/members/{id}/branches/{branchId}', roles: MANAGERS },
  // Erasing a member's personal data on request (issue 34 item 6): like removing a member.
  { method: 'POST', path: '/api/members/{id}/erase', roles: MANAGERS },

  // Spreadsheets: imports and the export.
  { method: 'GET', path: '/api/members-csv/export', roles: MANAGERS },
  { method: 'POST', path: '/api/members-csv/imports', roles: MANAGERS },
  { method: 'GET', path: '/api/members-csv/imports/{id}', roles: MANAGERS },
  { method: 'POST', path: '/api/members-csv/imports/{id}/dry-run', roles: MANAGERS },
  { method: 'GET', path: '/api/members-csv/imports/{id}/failed-rows', roles: MANAGERS },
  { method: 'POST', path: '/api/members-csv/imports/{id}/run', roles: MANAGERS },

  // Referral links and their emails.
  { method: 'GET', path: '/api/referral-links', roles: ALL },
  { method: 'GET', path: '/api/join-page', roles: ALL },
  { method: 'GET', path: '/api/join-page/qr.svg', roles: ALL },
  { method: 'POST', path: '/api/join-page/new-link', roles: MANAGERS },
  { method: 'POST', path: '/api/members/{memberId}/referral-link', roles: STAFF },
  { method: 'DELETE', path: '/api/members/{memberId}/referral-link', roles: STAFF },
  { method: 'POST', path: '/api/members/{memberId}/referral-link/rotate', roles: STAFF },
  { method: 'POST', path: '/api/members/{memberId}/referral-link/email', roles: STAFF },
  { method: 'GET', path: '/api/members/{memberId}/referral-link/qr.png', roles: ALL },
  { method: 'GET', path: '/api/members/{memberId}/referral-link/qr.svg', roles: ALL },
  { method: 'GET', path: '/api/referral-links/all', roles: ALL },
  { method: 'POST', path: '/api/referral-links/all', roles: STAFF },
  { method: 'GET', path: '/api/referral-links/email', roles: ALL },
  { method: 'POST', path: '/api/referral-links/email', roles: STAFF },
  { method: 'GET', path: '/api/referral-links/email/example', roles: ALL },
  { method: 'GET', path: '/api/referral-links/email/preview', roles: ALL },
  { method: 'GET', path: '/api/referral-links/settings', roles: ALL },
  { method: 'PUT', path: '/api/referral-links/settings', roles: MANAGERS },

  // Prospective members.
  { method: 'GET', path: '/api/prospects', roles: ALL },
  {
    method: 'POST',
    path: '/api/prospects/{id}/approve',
    roles: STAFF,
    limits: { front_desk: 'approval-prefill' },
  },
  { method: 'DELETE', path: '/api/prospects/{id}', roles: STAFF },
  { method: 'GET', path: '/api/prospects/flags', roles: ALL },
  { method: 'DELETE', path: '/api/prospects/flags/{id}', roles: MANAGERS },

  // Settings.
  { method: 'GET', path: '/api/settings/branches', roles: ALL },
  { method: 'PUT', path: '/api/settings/branches', roles: MANAGERS },
  { method: 'GET', path: '/api/settings/member-defaults', roles: ALL },
  { method: 'PUT', path: '/api/settings/member-defaults', roles: MANAGERS },
  { method: 'GET', path: '/api/settings/member-emails', roles: ALL },
  { method: 'PUT', path: '/api/settings/member-emails', roles: MANAGERS },
  { method: 'GET', path: '/api/settings/prospects', roles: ALL },
  { method: 'PUT', path: '/api/settings/prospects', roles: MANAGERS },
  // Asking members to refer at the right moment (issue 33 item 5): owners and managers only (the preview shows a member's name).
  { method: 'GET', path: '/api/settings/referral-nudges', roles: MANAGERS },
  { method: 'PUT', path: '/api/settings/referral-nudges', roles: MANAGERS },
  { method: 'GET', path: '/api/settings/referral-nudges/preview', roles: MANAGERS },
  { method: 'GET', path: '/api/settings/share-message', roles: ALL },
  { method: 'PUT', path: '/api/settings/share-message', roles: MANAGERS },
  { method: 'GET', path: '/api/settings/welcome-offer', roles: ALL },
  { method: 'PUT', path: '/api/settings/welcome-offer', roles: MANAGERS },
  // The referrer's reward and its cap (issue 33 item 2): it moves prices, so managers set it.
  { method: 'GET', path: '/api/settings/referrer-reward', roles: ALL },
  { method: 'PUT', path: '/api/settings/referrer-reward', roles: MANAGERS },
  // The friend's welcome offers to honour by hand: the desk hands them over (issue 33 item 1).
  { method: 'GET', path: '/api/welcome-offers', roles: ALL },
  { method: 'POST', path: '/api/welcome-offers/{id}/honoured', roles: STAFF },
  // The referrers' rewards owed (credit, free period, gift) to honour by hand (issue 33 item 2).
  { method: 'GET', path: '/api/referrer-rewards', roles: ALL },
  { method: 'POST', path: '/api/referrer-rewards/{id}/honoured', roles: STAFF },

  // The audit log, "Activity" (issue 34 item 2): owners and managers read it; owners set its retention.
  { method: 'GET', path: '/api/audit-log', roles: MANAGERS },
  { method: 'GET', path: '/api/audit-log/export', roles: MANAGERS },
  { method: 'GET', path: '/api/audit-log/authors', roles: MANAGERS },
  { method: 'GET', path: '/api/audit-log/retention', roles: MANAGERS },
  { method: 'PUT', path: '/api/audit-log/retention', roles: OWNER },

  // Stripe as the gym's member billing (issue 32): owners only, like every integration.
  { method: 'GET', path: '/api/stripe-members', roles: OWNER },
  { method: 'DELETE', path: '/api/stripe-members', roles: OWNER },
  { method: 'PUT', path: '/api/stripe-members/credentials', roles: OWNER },
  { method: 'PUT', path: '/api/stripe-members/webhook', roles: OWNER },
  { method: 'PUT', path: '/api/stripe-members/discounts', roles: OWNER },
  { method: 'POST', path: '/api/stripe-members/import', roles: OWNER },
  { method: 'GET', path: '/api/stripe-members/credits/preview', roles: OWNER },
  { method: 'POST', path: '/api/stripe-members/credits', roles: OWNER },
  { method: 'GET', path: '/api/stripe-members/sync/preview', roles: OWNER },
  { method: 'POST', path: '/api/stripe-members/sync', roles: OWNER },
  { method: 'GET', path: '/api/stripe-members/members/{id}/next-charge', roles: OWNER },

  // Mindbody (owners only; its status is read by every screen that shows managed members).
  { method: 'GET', path: '/api/mindbody', roles: ALL },
  { method: 'DELETE', path: '/api/mindbody', roles: OWNER },
  { method: 'GET', path: '/api/mindbody/activation', roles: OWNER },
  { method: 'POST', path: '/api/mindbody/credentials', roles: OWNER },
  { method: 'PUT', path: '/api/mindbody/discounts', roles: OWNER },
  { method: 'POST', path: '/api/mindbody/import', roles: OWNER },
  { method: 'GET', path: '/api/mindbody/referral-types', roles: OWNER },
  { method: 'PUT', path: '/api/mindbody/referral-type', roles: OWNER },
  { method: 'POST', path: '/api/mindbody/clients/{memberId}/retry', roles: OWNER },
  { method: 'GET', path: '/api/mindbody/removal/preview', roles: OWNER },
  { method: 'POST', path: '/api/mindbody/sync', roles: OWNER },
  { method: 'GET', path: '/api/mindbody/sync/preview', roles: OWNER },
];

const byRoute = new Map(ROLE_TABLE.map((rule) => [`${rule.method} ${rule.path}`, rule]));

/**
 * The table's row for a route, or undefined when it has none.
 * @param method the HTTP method (HEAD reads its GET's row)
 * @param path the OpenAPI path (`/api/members/{id}`) or Express's (`/api/members/:id`)
 */
export function roleRuleFor(method: string, path: string): RoleRule | undefined {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  return byRoute.get(`${verb} ${path.replace(/:(\w+)/g, '{$1}')}`);
}

/** The table as markdown (the section between the role-table markers of docs/rest-api.md). */
export function renderRoleTable(): string {
  const header = `| Method | Path | ${STAFF_ROLES.map((role) => STAFF_ROLE_LABELS[role]).join(' | ')} |`;
  const rule = `| --- | --- | ${STAFF_ROLES.map(() => '---').join(' | ')} |`;
  const rows = ROLE_TABLE.map((row) => {
    const cells = STAFF_ROLES.map((role) => {
      if (!row.roles.includes(role)) return '—';
      const limit = row.limits?.[role];
      return limit ? `yes (${ROLE_LIMIT_TEXTS[limit]})` : 'yes';
    });
    const mark = row.beforeSecondFactor ? ' †' : '';
    return `| ${row.method} | \`${row.path}\`${mark} | ${cells.join(' | ')} |`;
  });
  const legend =
    '† Open before a second factor: a user whose business requires one they have not set up gets 403 on every other signed-in route (`SecondFactorGate`).';
  return [header, rule, ...rows, '', legend].join('\n');
}
