import type { MigrationInterface, QueryRunner } from 'typeorm';

const KNOWN = `('whatsapp', 'sms', 'email', 'copy', 'share', 'qr', 'direct')`;
const WITH_JOIN_PAGE = `('whatsapp', 'sms', 'email', 'copy', 'share', 'qr', 'join-page', 'direct')`;

/**
 * Friends who joined through the business's own join page (`/join/<code>`, "Who referred you?",
 * docs/product.md#business-join) get their own channel in Analytics, `join-page`, instead of
 * `direct` (issue 33). `prospects.channel` and the `prospect_joined` fact's `channel` may hold
 * it; `join_page_visits` does not (that page counts no visits). Earlier joins through that page
 * are moved to it: a prospect without a referring member (only that page queues one), and a
 * `prospect_joined` fact with neither referrer nor link (every referral join records both).
 * Down moves them back to `direct`.
 */
export class JoinPageChannel1795680000000 implements MigrationInterface {
  name = 'JoinPageChannel1795680000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE prospects
        DROP CONSTRAINT prospects_channel_known,
        ADD CONSTRAINT prospects_channel_known CHECK (channel IN ${WITH_JOIN_PAGE})`);
    await queryRunner.query(`
      ALTER TABLE lifecycle_facts
        DROP CONSTRAINT lifecycle_facts_channel_known,
        ADD CONSTRAINT lifecycle_facts_channel_known CHECK (
          channel IS NULL OR (kind = 'prospect_joined' AND channel IN ${WITH_JOIN_PAGE}))`);
    await queryRunner.query(
      `UPDATE prospects SET channel = 'join-page' WHERE referring_member_id IS NULL AND channel = 'direct'`,
    );
    await queryRunner.query(
      `UPDATE lifecycle_facts SET channel = 'join-page'
        WHERE kind = 'prospect_joined' AND referrer_id IS NULL AND referral_link_id IS NULL
          AND channel = 'direct'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE prospects SET channel = 'direct' WHERE channel = 'join-page'`);
    await queryRunner.query(
      `UPDATE lifecycle_facts SET channel = 'direct' WHERE channel = 'join-page'`,
    );
    await queryRunner.query(`
      ALTER TABLE prospects
        DROP CONSTRAINT prospects_channel_known,
        ADD CONSTRAINT prospects_channel_known CHECK (channel IN ${KNOWN})`);
    await queryRunner.query(`
      ALTER TABLE lifecycle_facts
        DROP CONSTRAINT lifecycle_facts_channel_known,
        ADD CONSTRAINT lifecycle_facts_channel_known CHECK (
          channel IS NULL OR (kind = 'prospect_joined' AND channel IN ${KNOWN}))`);
  }
}
