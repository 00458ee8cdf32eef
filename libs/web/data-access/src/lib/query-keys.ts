/**
 * Query-cache keys that more than one app reads or invalidates. The shell and every remote share
 * one query client (docs/architecture.md#front-end), so a remote's data hook and another
 * remote's invalidation must name the same entry: the dashboard lists members and prospective
 * members, and the integrations remote reloads both when a Mindbody import or sync ends. Keys
 * used by one feature only live next to its hooks. (The session's key is `sessionKey` in
 * `session.ts`.)
 */
export const membersKey = ['members'] as const;

/** The dashboard's prospective members list (see {@link membersKey}). */
export const prospectsKey = ['prospects'] as const;
