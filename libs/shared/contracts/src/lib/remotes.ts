/**
 * The Module Federation remotes the shell mounts and the API lists in `/remotes.json`
 * (DESIGN.md §5). One list, so a new remote is added in one place.
 */
export const REMOTE_NAMES = ['marketing', 'dashboard', 'integrations', 'referral'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** A remote and the module of it a page mounts (the shell's RemoteSlot). */
export interface RemoteModule {
  remote: RemoteName;
  expose: string;
}

/**
 * Which remote module renders `pathname` (mirrors the shell's routes in apps/shell App.tsx), or
 * null for the shell's own pages (/login, /signup). The shell preloads it on start-up and the
 * API adds a preload of its manifest to index.html, so it downloads while React does.
 */
export function remoteForPath(pathname: string): RemoteModule | null {
  const first = pathname.split('/')[1] ?? '';
  if (first === 'login' || first === 'signup') return null;
  if (first === 'dashboard') return { remote: 'dashboard', expose: 'Routes' };
  if (first === 'referral-links') return { remote: 'dashboard', expose: 'ReferralLinks' };
  if (first === 'mindbody-setup') return { remote: 'integrations', expose: 'Routes' };
  if (first === 'referral') return { remote: 'referral', expose: 'Routes' };
  return { remote: 'marketing', expose: 'Routes' };
}
