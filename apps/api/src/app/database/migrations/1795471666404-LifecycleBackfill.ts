import type { MigrationInterface, QueryRunner } from 'typeorm';
import { effectivePrice, keyTime } from '../../lifecycle/lifecycle.repository';

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
    const facts = `INSERT INTO lifecycle_facts (business_id, kind, occurred_at, member_id, referrer_id, referral_link_id, prospect_id, source, event_key)`;
    const onKey = `ON CONFLICT (business_id, event_key) DO NOTHING`;
    await queryRunner.query(`${facts}
      SELECT business_id, 'member_added', created_at, id, NULL, NULL, NULL, 'backfill', 'member_added:' || id
      FROM members ${onKey}`);
    await queryRunner.query(`${facts}
      SELECT business_id, 'branch_added', created_at, id, referred_by_id, NULL, NULL, 'backfill', 'branch_added:' || id
      FROM members WHERE referred_by_id IS NOT NULL ${onKey}`);
    await queryRunner.query(`${facts}
      SELECT business_id, 'member_ended', mindbody_cancelled_at, id, NULL, NULL, NULL, 'backfill',
        'member_ended:' || id || ':' || ${keyTime('mindbody_cancelled_at')}
      FROM members WHERE mindbody_client_id IS NOT NULL AND mindbody_cancelled_at IS NOT NULL ${onKey}`);
    await queryRunner.query(`${facts}
      SELECT business_id, 'link_created', created_at, member_id, NULL, id, NULL, 'backfill', 'link_created:' || id
      FROM referral_links ${onKey}`);
    await queryRunner.query(`${facts}
      SELECT business_id, 'link_revoked', revoked_at, member_id, NULL, id, NULL, 'backfill', 'link_revoked:' || id
      FROM referral_links WHERE revoked_at IS NOT NULL ${onKey}`);
    await queryRunner.query(`${facts}
      SELECT business_id, 'prospect_joined', created_at, NULL, referring_member_id, NULL, id, 'backfill', 'prospect_joined:' || id
      FROM prospects ${onKey}`);
    await queryRunner.query(`
      INSERT INTO price_changes (business_id, member_id, occurred_at, reason, old_price_cents, new_price_cents,
        membership_price_cents, branch_id, event_key)
      SELECT r.business_id, r.id, r.created_at, 'backfill', NULL, p.price, r.membership_price_cents, NULL,
        'price:' || r.id || ':backfill'
      FROM members r CROSS JOIN LATERAL (SELECT ${effectivePrice('r')} AS price) p
      WHERE p.price IS NOT NULL AND r.mindbody_cancelled_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM price_changes c WHERE c.business_id = r.business_id AND c.member_id = r.id)
      ${onKey}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM price_changes WHERE reason = 'backfill'`);
    await queryRunner.query(`DELETE FROM lifecycle_facts WHERE source = 'backfill'`);
  }
}
