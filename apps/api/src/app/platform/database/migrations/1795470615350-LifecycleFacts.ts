import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What happened in a business, recorded as it happens (issue 14: owners see whether referrals
 * pay; issue 15: members see their own ledger). Three append-only tables, each owned by its
 * business and kept when the member it is about is removed (analytics look back in time), so
 * member, link and prospect ids are plain columns, not foreign keys.
 *
 * - `lifecycle_facts`: one row per event (`kind`): a referral link created, rotated or revoked;
 *   a friend joined through a link (prospective member), was approved or removed; a branch added
 *   or removed; a member added or ended (Mindbody cancellations included). `source` tells how
 *   (manual, import, approval, mindbody, csv, backfill). `event_key` makes recording idempotent:
 *   one row per business and key (e.g. `prospect_approved:<prospect id>`), so a twice-approve,
 *   a re-import or a replayed webhook writes nothing new (`ON CONFLICT DO NOTHING`).
 * - `join_page_visits`: the join page opened, counted per referral link and UTC day; no personal
 *   data at all.
 * - `price_changes`: the price ledger. Each change of a member's effective price (cents), with
 *   its `reason`, the price before (null for the first line of a member) and after, the member's
 *   membership price at that moment (what they pay before discounts, so discounts given =
 *   membership price − new price), the branch that caused it if any, and an `event_key` for
 *   idempotency like the facts.
 */
export class LifecycleFacts1795470615350 implements MigrationInterface {
  name = 'LifecycleFacts1795470615350';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE lifecycle_facts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        kind text NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        member_id uuid NULL,
        referrer_id uuid NULL,
        referral_link_id uuid NULL,
        prospect_id uuid NULL,
        source text NULL,
        event_key text NOT NULL,
        CONSTRAINT lifecycle_facts_kind_known CHECK (kind IN (
          'link_created', 'link_rotated', 'link_revoked',
          'prospect_joined', 'prospect_approved', 'prospect_removed',
          'branch_added', 'branch_removed',
          'member_added', 'member_ended')),
        CONSTRAINT lifecycle_facts_source_known CHECK (source IS NULL OR source IN (
          'manual', 'import', 'approval', 'mindbody', 'csv', 'backfill')),
        CONSTRAINT lifecycle_facts_event_key UNIQUE (business_id, event_key)
      )`);
    // Analytics read one business's facts of a kind over a period.
    await queryRunner.query(
      `CREATE INDEX lifecycle_facts_business_kind_idx ON lifecycle_facts (business_id, kind, occurred_at)`,
    );
    // A member's own history (profile, member page).
    await queryRunner.query(
      `CREATE INDEX lifecycle_facts_business_member_idx ON lifecycle_facts (business_id, member_id, occurred_at)`,
    );
    await queryRunner.query(`
      CREATE TABLE join_page_visits (
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        referral_link_id uuid NOT NULL,
        day date NOT NULL,
        visits integer NOT NULL DEFAULT 1,
        CONSTRAINT join_page_visits_positive CHECK (visits > 0),
        PRIMARY KEY (referral_link_id, day)
      )`);
    await queryRunner.query(
      `CREATE INDEX join_page_visits_business_day_idx ON join_page_visits (business_id, day)`,
    );
    await queryRunner.query(`
      CREATE TABLE price_changes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        member_id uuid NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        reason text NOT NULL,
        old_price_cents integer NULL,
        new_price_cents integer NOT NULL,
        membership_price_cents integer NOT NULL,
        branch_id uuid NULL,
        event_key text NOT NULL,
        CONSTRAINT price_changes_reason_known CHECK (reason IN (
          'member_added', 'membership_price_changed', 'discount_changed',
          'branch_added', 'branch_removed', 'branch_counting', 'branch_lapsed',
          'membership_ended', 'mindbody_sync', 'backfill')),
        CONSTRAINT price_changes_prices_not_negative CHECK (
          new_price_cents >= 0 AND membership_price_cents >= 0
          AND (old_price_cents IS NULL OR old_price_cents >= 0)),
        CONSTRAINT price_changes_event_key UNIQUE (business_id, event_key)
      )`);
    await queryRunner.query(
      `CREATE INDEX price_changes_business_member_idx ON price_changes (business_id, member_id, occurred_at, id)`,
    );
    await queryRunner.query(
      `CREATE INDEX price_changes_business_occurred_idx ON price_changes (business_id, occurred_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE price_changes`);
    await queryRunner.query(`DROP TABLE join_page_visits`);
    await queryRunner.query(`DROP TABLE lifecycle_facts`);
  }
}
