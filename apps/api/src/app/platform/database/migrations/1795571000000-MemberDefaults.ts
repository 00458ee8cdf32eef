import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Defaults instead of retyping (issue 25, "An owner's ordinary day", Build 4;
 * docs/product.md#member-defaults):
 * - `businesses.default_discount_cents`, `default_membership_price_cents`: the business's default
 *   discount per referral and membership price (integer cents, 0 to $1,000,000; NULL = not set),
 *   which the add-tree form, approval, CSV import and automatic approval start from;
 * - `businesses.getting_started_dismissed_at`: when the owner hid the 'Getting started' checklist
 *   on Branches. Businesses that exist already are past getting started: theirs is hidden now
 *   (docs/decisions/getting-started-checklist.md).
 */
export class MemberDefaults1795571000000 implements MigrationInterface {
  name = 'MemberDefaults1795571000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE businesses
      ADD COLUMN default_discount_cents integer NULL
        CONSTRAINT businesses_default_discount_range
          CHECK (default_discount_cents BETWEEN 0 AND 100000000),
      ADD COLUMN default_membership_price_cents integer NULL
        CONSTRAINT businesses_default_membership_price_range
          CHECK (default_membership_price_cents BETWEEN 0 AND 100000000),
      ADD COLUMN getting_started_dismissed_at timestamptz NULL`);
    await queryRunner.query(`UPDATE businesses SET getting_started_dismissed_at = now()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE businesses
      DROP COLUMN getting_started_dismissed_at,
      DROP COLUMN default_membership_price_cents,
      DROP COLUMN default_discount_cents`);
  }
}
