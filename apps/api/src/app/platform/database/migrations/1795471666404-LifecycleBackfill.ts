import type { MigrationInterface, QueryRunner } from 'typeorm';

// A migration runs the SQL it ran when it was written: the price rule and the key format are
// frozen copies here, not imports of today's rule (membership/pricing), which may change.

/** SQL: a timestamptz expression as the `<time>` of an event key (UTC ISO 8601, microseconds). */
const keyTime = (expression: string): string =>
  `to_char((${expression}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * SQL: member row `r`'s price as this migration recorded it: a hand-managed member's
 * max(0, price − discount × every branch), a priced Mindbody member's undiscounted membership
 * price, NULL for an unpriced one (the rule of 2026-06, every branch counting).
 */
const BACKFILL_PRICE = `CASE
    WHEN r.mindbody_client_id IS NULL THEN GREATEST(0, r.membership_price_cents - r.discount_cents * (SELECT count(*) FROM members b WHERE b.business_id = r.business_id
        AND b.referred_by_id = r.id AND true)::int)
    WHEN r.mindbody_priced_at IS NULL OR r.mindbody_autopay_cents IS NULL THEN NULL
    ELSE r.membership_price_cents END`;

/** One kind of backfilled fact: SQL expressions over the rows of `from` (absent ids are NULL). */
interface BackfilledFact {
  kind: string;
  /** occurred_at */
  at: string;
  member?: string;
  referrer?: string;
  link?: string;
  prospect?: string;
  /** event_key, as the live flows write it */
  key: string;
  /** the table, and a filter */
  from: string;
}

const BACKFILLED_FACTS: BackfilledFact[] = [
  {
    kind: 'member_added',
    at: 'created_at',
    member: 'id',
    key: `'member_added:' || id`,
    from: 'members',
  },
  {
    kind: 'branch_added',
    at: 'created_at',
    member: 'id',
    referrer: 'referred_by_id',
    key: `'branch_added:' || id`,
    from: 'members WHERE referred_by_id IS NOT NULL',
  },
  {
    kind: 'member_ended',
    at: 'mindbody_cancelled_at',
    member: 'id',
    key: `'member_ended:' || id || ':' || ${keyTime('mindbody_cancelled_at')}`,
    from: 'members WHERE mindbody_client_id IS NOT NULL AND mindbody_cancelled_at IS NOT NULL',
  },
  {
    kind: 'link_created',
    at: 'created_at',
    member: 'member_id',
    link: 'id',
    key: `'link_created:' || id`,
    from: 'referral_links',
  },
  {
    kind: 'link_revoked',
    at: 'revoked_at',
    member: 'member_id',
    link: 'id',
    key: `'link_revoked:' || id`,
    from: 'referral_links WHERE revoked_at IS NOT NULL',
  },
  {
    kind: 'prospect_joined',
    at: 'created_at',
    referrer: 'referring_member_id',
    prospect: 'id',
    key: `'prospect_joined:' || id`,
    from: 'prospects',
  },
];

/**
 * A best-effort history for rows that existed before lifecycle facts were recorded (issue 14;
 * docs/architecture.md#lifecycle-facts), from what the tables hold, all with source (facts) or
 * reason (ledger) 'backfill' and the same event keys the live flows write, inserted
 * `ON CONFLICT DO NOTHING` (running it again, or over facts already recorded, adds nothing):
 * - member_added at `members.created_at` (`member_added:<id>`);
 * - branch_added for each member with a referrer, at its `created_at` (`branch_added:<id>`; when
 *   it became a branch is not kept, so its creation stands in);
 * - link_created at `referral_links.created_at` (a rotation cannot be told from a creation) and
 *   link_revoked at `revoked_at`;
 * - prospect_joined at `prospects.created_at` (approved or removed prospects are gone: no facts);
 * - member_ended for each ended Mindbody membership at `mindbody_cancelled_at`, keyed as the
 *   import and the webhook key it;
 * - one opening ledger line per member without a ledger: old NULL, new = its effective price now,
 *   at its `created_at` (`price:<id>:backfill`); none for a membership that has ended or a Mindbody
 *   member without a known price.
 * Members removed before are gone and get nothing. down() deletes exactly the 'backfill' rows.
 */
export class LifecycleBackfill1795471666404 implements MigrationInterface {
  name = 'LifecycleBackfill1795471666404';

  async up(queryRunner: QueryRunner): Promise<void> {
    const onKey = `ON CONFLICT (business_id, event_key) DO NOTHING`;
    for (const fact of BACKFILLED_FACTS) {
      await queryRunner.query(
        `INSERT INTO lifecycle_facts (business_id, kind, occurred_at, member_id, referrer_id, referral_link_id,
           prospect_id, source, event_key)
         SELECT business_id, '${fact.kind}', ${fact.at}, ${fact.member ?? 'NULL'}::uuid,
           ${fact.referrer ?? 'NULL'}::uuid, ${fact.link ?? 'NULL'}::uuid, ${fact.prospect ?? 'NULL'}::uuid,
           'backfill', ${fact.key}
         FROM ${fact.from} ${onKey}`,
      );
    }
    await queryRunner.query(`
      INSERT INTO price_changes (business_id, member_id, occurred_at, reason, old_price_cents, new_price_cents,
        membership_price_cents, branch_id, event_key)
      SELECT r.business_id, r.id, r.created_at, 'backfill', NULL, p.price, r.membership_price_cents, NULL,
        'price:' || r.id || ':backfill'
      FROM members r CROSS JOIN LATERAL (SELECT ${BACKFILL_PRICE} AS price) p
      WHERE p.price IS NOT NULL AND r.mindbody_cancelled_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM price_changes c WHERE c.business_id = r.business_id AND c.member_id = r.id)
      ${onKey}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM price_changes WHERE reason = 'backfill'`);
    await queryRunner.query(`DELETE FROM lifecycle_facts WHERE source = 'backfill'`);
  }
}
