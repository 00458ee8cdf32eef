import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The analytics screen (`analytics/`) keeps each answer while the business's facts and price
 * ledger are unchanged: it compares the business's newest `lifecycle_facts` and `price_changes`
 * ids with the ones the answer was computed from. These indexes make that check two index-only
 * lookups (`ORDER BY id DESC LIMIT 1` within the business) instead of scans.
 */
export class AnalyticsVersionIndexes1795470887755 implements MigrationInterface {
  name = 'AnalyticsVersionIndexes1795470887755';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX lifecycle_facts_business_id_idx ON lifecycle_facts (business_id, id)`,
    );
    await queryRunner.query(
      `CREATE INDEX price_changes_business_id_idx ON price_changes (business_id, id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX price_changes_business_id_idx`);
    await queryRunner.query(`DROP INDEX lifecycle_facts_business_id_idx`);
  }
}
