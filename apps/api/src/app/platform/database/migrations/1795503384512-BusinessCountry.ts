import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Any country (issue 25, docs/product.md#country): `businesses.country`, the business's country
 * as an ISO 3166-1 alpha-2 code, chosen at signup and editable in Account Settings; its phone
 * number is read for it. Existing businesses, and any insert that names none, are Australian
 * ('AU', the old app's en-AU rule).
 */
export class BusinessCountry1795503384512 implements MigrationInterface {
  name = 'BusinessCountry1795503384512';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE businesses
      ADD COLUMN country text NOT NULL DEFAULT 'AU'
        CONSTRAINT businesses_country_iso CHECK (country ~ '^[A-Z]{2}$')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE businesses DROP COLUMN country`);
  }
}
