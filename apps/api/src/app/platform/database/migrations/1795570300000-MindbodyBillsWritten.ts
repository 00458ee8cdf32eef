import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `mindbody_integrations.last_sync_bills_written` (null before a sync wrote or tried to write):
 * how many members' Mindbody autopays the last sync wrote, its run record (issue 25: after
 * confirming a sync's preview the owner sees 'N bills written'; a failed sync counts those
 * written before it stopped).
 */
export class MindbodyBillsWritten1795570300000 implements MigrationInterface {
  name = 'MindbodyBillsWritten1795570300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE mindbody_integrations ADD COLUMN last_sync_bills_written integer NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE mindbody_integrations DROP COLUMN last_sync_bills_written`,
    );
  }
}
