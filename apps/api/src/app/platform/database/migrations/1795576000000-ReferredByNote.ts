import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Referrals at the front desk (issue 33 item 4, docs/product.md#referrals-to-match):
 * `members.referred_by_note`, who referred a member as the desk typed it when it matched no
 * member ("Jenny (spin class)"), at most 100 characters; NULL once matched or dismissed. Referrals
 * to match are the business's members with a note and no referrer, oldest first: a partial index
 * holds just those.
 */
export class ReferredByNote1795576000000 implements MigrationInterface {
  name = 'ReferredByNote1795576000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE members
         ADD COLUMN referred_by_note text NULL
         CONSTRAINT members_referred_by_note_length CHECK (char_length(referred_by_note) BETWEEN 1 AND 100)`,
    );
    await queryRunner.query(
      `CREATE INDEX members_referrals_to_match ON members (business_id, created_at, id)
        WHERE referred_by_note IS NOT NULL AND referred_by_id IS NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE members DROP COLUMN referred_by_note`);
  }
}
