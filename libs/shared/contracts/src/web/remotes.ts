/**
 * The Module Federation remotes the shell mounts and the API lists in `/remotes.json`
 * (docs/architecture.md#front-end). One list, so a new remote is added in one place.
 */
export const REMOTE_NAMES = ['marketing', 'dashboard', 'integrations', 'referral'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** A remote and the module of it a page mounts (the shell's RemoteSlot). */
export interface RemoteModule {
  remote: RemoteName;
  expose: string;
}

/** Who may open a route: anyone, or a signed-in owner (inside the shell's signed-in frame). */
export type RouteAccess = 'public' | 'signed-in';

/** A top-level path the shell hands to a remote module, e.g. `/dashboard/*` → dashboard/Routes. */
export interface RemoteRoute extends RemoteModule {
  /** The path's first segment (`dashboard` for `/dashboard/...`). */
  segment: string;
  access: RouteAccess;
}

/**
 * The shell's own pages (public, not in a remote): `/login`, `/signup`, `/forgot-password`,
 * `/reset-password`, `/accept-invitation` (an invitation link, issue 34) and `/verify-email` (the
 * owner's verification link, docs/product.md#verified-senders).
 */
export const SHELL_PAGES = [
  'login',
  'signup',
  'forgot-password',
  'reset-password',
  'accept-invitation',
  'verify-email',
  // The page of the emailed sign-up link (SIGNUP_CONFIRM_PATH, docs/product.md#signup).
  'signup/confirm',
] as const;
export type ShellPage = (typeof SHELL_PAGES)[number];

/**
 * Grove's route → remote table (docs/product.md#screens): the shell builds its router from it (apps/shell
 * App.tsx) and `remoteForPath` reads it, so the two cannot drift apart. Paths matching none of
 * these nor a shell page go to `FALLBACK_REMOTE`.
 */
export const REMOTE_ROUTES: readonly RemoteRoute[] = [
  { segment: 'referral', remote: 'referral', expose: 'Routes', access: 'public' },
  { segment: 'member', remote: 'referral', expose: 'Member', access: 'public' },
  { segment: 'dashboard', remote: 'dashboard', expose: 'Routes', access: 'signed-in' },
  { segment: 'referral-links', remote: 'dashboard', expose: 'ReferralLinks', access: 'signed-in' },
  { segment: 'mindbody-setup', remote: 'integrations', expose: 'Routes', access: 'signed-in' },
  { segment: 'stripe-setup', remote: 'integrations', expose: 'StripeSetup', access: 'signed-in' },
];

/**
 * The marketing remote's pages, by their one path segment ('' = home): its router
 * (apps/marketing/src/remote-entry.tsx) has exactly these, and answers every other path with the
 * 404 screen.
 */
export const MARKETING_PAGES = [
  '',
  'pricing',
  'about',
  'contact',
  'privacyPolicy',
  'landingPage',
] as const;

/**
 * False when no screen of Grove renders `pathname`, so the page the shell shows is the 404 screen
 * and the server answers HTTP 404 with it: a first segment that is neither a shell page, a remote's
 * route (its own router decides below it) nor a marketing page, or a marketing page with more
 * segments. A trailing slash is ignored.
 */
export function isKnownPagePath(pathname: string): boolean {
  const segments = pathname.replace(/\/+$/, '').split('/').slice(1);
  const first = segments[0] ?? '';
  if ((SHELL_PAGES as readonly string[]).includes(first))
    return (SHELL_PAGES as readonly string[]).includes(segments.join('/'));
  if (REMOTE_ROUTES.some((route) => route.segment === first)) return true;
  return segments.length <= 1 && (MARKETING_PAGES as readonly string[]).includes(first);
}

/** Every other path (public): the marketing remote's pages, and its 404 screen for unknown ones. */
export const FALLBACK_REMOTE: Readonly<RemoteModule> = { remote: 'marketing', expose: 'Routes' };

/**
 * Which remote module renders `pathname` (from `REMOTE_ROUTES`), or null for the shell's own
 * pages (/login, /signup). The shell preloads it on start-up and the API adds a preload of its
 * manifest to index.html, so it downloads while React does.
 */
export function remoteForPath(pathname: string): RemoteModule | null {
  const first = pathname.split('/')[1] ?? '';
  if ((SHELL_PAGES as readonly string[]).includes(first)) return null;
  const route = REMOTE_ROUTES.find((entry) => entry.segment === first) ?? FALLBACK_REMOTE;
  return { remote: route.remote, expose: route.expose };
}
