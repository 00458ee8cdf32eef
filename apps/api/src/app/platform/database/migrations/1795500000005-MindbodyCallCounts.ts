import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mindbody bills API calls past a free tier, so each run counts its calls (issue 22):
 * `mindbody_integrations.last_run_calls` (the last import or sync, null before one),
 * `month_calls` (every job of the business this calendar month: imports, syncs, prices) and
 * `calls_month` (the first day of the month `month_calls` counts). The wizard shows them.
 */
export class MindbodyCallCounts1795500000005 implements MigrationInterface {
  name = 'MindbodyCallCounts1795500000005';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE mindbody_integrations ADD COLUMN last_run_calls integer NULL,
         ADD COLUMN month_calls integer NOT NULL DEFAULT 0,
         ADD COLUMN calls_month date NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE mindbody_integrations DROP COLUMN calls_month, DROP COLUMN month_calls,
         DROP COLUMN last_run_calls`,
    );
  }
}
