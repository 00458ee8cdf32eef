import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which channel brought each join-page visit and each join (issue 33 item 3: the referral link's
 * `?via=whatsapp|sms|email|copy|share|qr`, anything else `direct`; docs/product.md#referral-join).
 *
 * - `join_page_visits.channel`: visits are counted per link, UTC day and channel (the primary key
 *   grows by the channel); earlier rows are `direct`.
 * - `prospects.channel`: the channel the prospective member joined through (the first join's; a
 *   repeat keeps it); earlier rows `direct`.
 * - `lifecycle_facts.channel`: the same on the `prospect_joined` fact, which outlives the prospect
 *   row (deleted on approval), so Analytics counts approvals by the channel of the join; null on
 *   every other kind.
 */
export class JoinChannel1795572100000 implements MigrationInterface {
  name = 'JoinChannel1795572100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const known = `('whatsapp', 'sms', 'email', 'copy', 'share', 'qr', 'direct')`;
    await queryRunner.query(`
      ALTER TABLE join_page_visits
        ADD COLUMN channel text NOT NULL DEFAULT 'direct',
        ADD CONSTRAINT join_page_visits_channel_known CHECK (channel IN ${known}),
        DROP CONSTRAINT join_page_visits_pkey,
        ADD PRIMARY KEY (referral_link_id, day, channel)`);
    await queryRunner.query(`
      ALTER TABLE prospects
        ADD COLUMN channel text NOT NULL DEFAULT 'direct',
        ADD CONSTRAINT prospects_channel_known CHECK (channel IN ${known})`);
    await queryRunner.query(`
      ALTER TABLE lifecycle_facts
        ADD COLUMN channel text NULL,
        ADD CONSTRAINT lifecycle_facts_channel_known CHECK (
          channel IS NULL OR (kind = 'prospect_joined' AND channel IN ${known}))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE lifecycle_facts DROP COLUMN channel`);
    await queryRunner.query(`ALTER TABLE prospects DROP COLUMN channel`);
    // A link's visits of one day, per channel, become one row again (their sum).
    await queryRunner.query(`
      INSERT INTO join_page_visits (business_id, referral_link_id, day, visits, channel)
      SELECT business_id, referral_link_id, day, sum(visits)::int, 'direct'
      FROM join_page_visits GROUP BY business_id, referral_link_id, day
      ON CONFLICT (referral_link_id, day, channel) DO UPDATE SET visits = EXCLUDED.visits`);
    await queryRunner.query(`DELETE FROM join_page_visits WHERE channel <> 'direct'`);
    await queryRunner.query(`
      ALTER TABLE join_page_visits
        DROP CONSTRAINT join_page_visits_pkey,
        DROP COLUMN channel,
        ADD PRIMARY KEY (referral_link_id, day)`);
  }
}
