import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Automatic referral links are on for new businesses (issue 25, "an owner's ordinary day"): the
 * welcome email says "You can refer friends too", so a new member must have a link at once.
 * Only the column's default changes: a business created from now on (signup, the demo seed)
 * starts with `auto_referral_links = true`; every existing business keeps the setting it has.
 */
export class AutoReferralLinksOnForNewBusinesses1795571200000 implements MigrationInterface {
  name = 'AutoReferralLinksOnForNewBusinesses1795571200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses ALTER COLUMN auto_referral_links SET DEFAULT true`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses ALTER COLUMN auto_referral_links SET DEFAULT false`,
    );
  }
}
