import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Money and dates by the business's locale (issue 25, docs/decisions/business-locale.md):
 * `businesses.time_zone`, the IANA time zone its dates are shown in, chosen in Account Settings.
 * NULL (every existing business, and a business whose country changed without a zone chosen)
 * means the country's main zone (contracts' `defaultTimeZone`: AU Australia/Sydney, US
 * America/New_York, GB Europe/London). The locale and currency follow the country and are not
 * stored.
 */
export class BusinessTimeZone1795560711000 implements MigrationInterface {
  name = 'BusinessTimeZone1795560711000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE businesses
      ADD COLUMN time_zone text NULL
        CONSTRAINT businesses_time_zone_length CHECK (length(time_zone) BETWEEN 1 AND 64)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE businesses DROP COLUMN time_zone`);
  }
}
