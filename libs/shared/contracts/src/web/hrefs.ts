/**
 * Grove's web routes, the one place a page's address is spelled (docs/product.md#screens): the
 * shell, the remotes and their specs link with these, never with a path literal. The first
 * segments match the shell's route table (`REMOTE_ROUTES`, `SHELL_PAGES`, `MARKETING_PAGES` in
 * remotes.ts); the dashboard's sub-pages match its router (apps/dashboard/src/remote-entry.tsx).
 */
/** The Branches screen's search parameter (`/dashboard?search=…`). */
export const BRANCHES_SEARCH_PARAM = 'search';

export const hrefs = {
  home: '/',
  pricing: '/pricing',
  about: '/about',
  contact: '/contact',
  privacyPolicy: '/privacyPolicy',
  landingPage: '/landingPage',
  login: '/login',
  signup: '/signup',
  /** The page of the emailed sign-up link (`#token=…`, docs/product.md#signup). */
  signupConfirm: '/signup/confirm',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  /** The Branches screen (the dashboard's index; `/dashboard/branches` is the same screen). */
  dashboard: '/dashboard',
  branches: '/dashboard/branches',
  prospectiveMembers: '/dashboard/prospective-members',
  analytics: '/dashboard/analytics',
  /** The audit log (owners and managers, docs/product.md#audit-log). */
  activity: '/dashboard/activity',
  /** Account Settings' first section, Your details (docs/product.md#account-settings). */
  accountSettings: '/dashboard/account-settings',
  /** Account Settings' Security section: password, sign-ins. */
  accountSecurity: '/dashboard/account-settings/security',
  /** Account Settings' Members & rewards section: defaults, the branch rule, the welcome offer. */
  accountMembers: '/dashboard/account-settings/members',
  /** Account Settings' Emails & sharing section: member emails, the message members share. */
  accountEmails: '/dashboard/account-settings/emails',
  /** Account Settings' Team section (owners). */
  accountTeam: '/dashboard/account-settings/team',
  /** Account Settings' Your data section: export everything, close the account (owners). */
  accountData: '/dashboard/account-settings/data',
  /** Account Settings' Billing section (Grove's own bill, docs/product.md#billing; owners). */
  billing: '/dashboard/account-settings/billing',
  /** The new-member defaults card, in Members & rewards. */
  memberDefaults: '/dashboard/account-settings/members#member-defaults',
  referralLinks: '/referral-links',
  mindbodySetup: '/mindbody-setup',
  stripeSetup: '/stripe-setup',
  /** A member's profile. @param memberId the member's id */
  memberProfile: (memberId: string): string => `/dashboard/members/${encodeURIComponent(memberId)}`,
  /** The Branches screen searching for `query` (the top bar's tree search). */
  branchesSearch: (query: string): string =>
    `/dashboard?${new URLSearchParams({ [BRANCHES_SEARCH_PARAM]: query })}`,
} as const;
