import type { RemoteName } from '@grove/contracts';

/** A remote and the module of it a page mounts (see RemoteSlot). */
export interface RemoteModule {
  remote: RemoteName;
  expose: string;
}

/**
 * Which remote module renders `pathname` (mirrors the routes in App.tsx), or null for the shell's
 * own pages (/login, /signup). Used to start downloading it before React has rendered.
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
