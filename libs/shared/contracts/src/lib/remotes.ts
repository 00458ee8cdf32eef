/**
 * The Module Federation remotes the shell mounts and the API lists in `/remotes.json`
 * (DESIGN.md §5). One list, so a new remote is added in one place.
 */
export const REMOTE_NAMES = ['marketing', 'dashboard', 'integrations', 'referral'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];
