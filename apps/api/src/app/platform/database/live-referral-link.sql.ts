/**
 * SQL condition: the `referral_links` row `alias` is live, i.e. not revoked and not expired (an
 * expiry of NULL never ends). The one statement of the rule every area's queries use (the join
 * page, the members list's link filter and export, member emails and the member page, the
 * getting-started checklist); it sits in platform because areas of every level read links.
 * @param alias the table alias of `referral_links` in the query (default `l`)
 */
export function liveReferralLink(alias = 'l'): string {
  return `${alias}.revoked_at IS NULL AND (${alias}.expires_at IS NULL OR ${alias}.expires_at > now())`;
}
