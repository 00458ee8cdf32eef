import { AUDIT_COLUMNS, auditAuthorSql } from '../../platform/audit/audit.repository';
import { FACT_COLUMNS, ON_EVENT_KEY } from '../../membership/lifecycle/lifecycle.repository';

/**
 * SQL: CTEs (`auto_links`, `auto_link_facts`, `auto_link_audit`, each preceded by a comma) that
 * give every member of `added` a referral link when the business's automatic-link setting
 * (`businesses.auto_referral_links`) is on, inside a bulk write's own statement: the same links,
 * `link_created` facts and 'link.created' audit entries (`source` 'automatic') as
 * `LinksForEveryoneService.linkNewMembers`, without its three round trips per batch
 * (docs/decisions/import-write-floor.md). A member that got a live link meanwhile (a click on
 * 'Create link') keeps it (`referral_links_live_member_key`, DO NOTHING). A bulk writer of a
 * higher area (the Mindbody import and sync, the Stripe member import's pages) embeds it in its
 * own statement.
 * @param added a CTE or subquery with columns `id` (member of the business), `name` and `code`
 *   (an unguessable code per member, `newReferralCode()`)
 * @param p parameter references: `business` its id, `actor` and `user` bound to `auditActorParams`
 */
export function automaticLinksSql(
  added: string,
  p: { business: string; actor: string; user: string },
): string {
  return `, auto_links AS (
     INSERT INTO referral_links (business_id, member_id, code)
     SELECT ${p.business}, a.id, a.code FROM ${added} a
     WHERE (SELECT b.auto_referral_links FROM businesses b WHERE b.id = ${p.business})
     ON CONFLICT (member_id) WHERE revoked_at IS NULL DO NOTHING
     RETURNING id, member_id, code
   ), auto_link_facts AS (
     INSERT INTO lifecycle_facts (${FACT_COLUMNS})
     SELECT ${p.business}, 'link_created', l.member_id, NULL::uuid, l.id, NULL::uuid, NULL, 'link_created:' || l.id
     FROM auto_links l
     ${ON_EVENT_KEY}
   ), auto_link_audit AS (
     INSERT INTO audit_log (${AUDIT_COLUMNS})
     SELECT ${auditAuthorSql(p.business, p.actor, p.user)}, 'link.created', l.member_id, a.name, NULL::jsonb,
       jsonb_build_object('code', l.code, 'expiresAt', NULL::text, 'source', 'automatic'::text)
     FROM auto_links l JOIN ${added} a ON a.id = l.member_id
   )`;
}
