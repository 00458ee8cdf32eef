import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The business's own join page (issue 33 item 4, docs/product.md#business-join,
 * docs/decisions/business-join-page.md): `/join/<code>`, a link without a member.
 * - `businesses.join_code`: the page's code, 32 random hex characters, one per business, given to
 *   every business (existing ones too) by its default.
 * - `prospects.referring_member_id` may be NULL: a friend who joined through the business's page
 *   has no referring member until the owner matches them; `prospects.referred_by_note` keeps who
 *   they said referred them ("Jenny (spin class)"), at most 100 characters, as the desk's note on
 *   members does. `prospect_outcomes.referring_member_id` follows.
 */
export class BusinessJoinPage1795640000000 implements MigrationInterface {
  name = 'BusinessJoinPage1795640000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses
         ADD COLUMN join_code text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '')
         CONSTRAINT businesses_join_code_key UNIQUE`,
    );
    await queryRunner.query(
      `ALTER TABLE prospects
         ALTER COLUMN referring_member_id DROP NOT NULL,
         ADD COLUMN referred_by_note text NULL
         CONSTRAINT prospects_referred_by_note_length CHECK (char_length(referred_by_note) BETWEEN 1 AND 100)`,
    );
    await queryRunner.query(
      `ALTER TABLE prospect_outcomes ALTER COLUMN referring_member_id DROP NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM prospect_outcomes WHERE referring_member_id IS NULL`);
    await queryRunner.query(
      `ALTER TABLE prospect_outcomes ALTER COLUMN referring_member_id SET NOT NULL`,
    );
    await queryRunner.query(`DELETE FROM prospects WHERE referring_member_id IS NULL`);
    await queryRunner.query(
      `ALTER TABLE prospects DROP COLUMN referred_by_note, ALTER COLUMN referring_member_id SET NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE businesses DROP COLUMN join_code`);
  }
}
