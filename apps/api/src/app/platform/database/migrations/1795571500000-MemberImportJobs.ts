import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The job of a queued CSV import (issue 31 item 4: nothing stuck). `member_imports.job_id` is the
 * pg-boss job queued with the import, in the same transaction: an import whose job is no longer
 * waiting or running (failed, expired after a crash, stopped by a deploy) while the import still
 * says 'queued' or 'running' is reported 'failed' with 'Try again' instead of a progress bar that
 * polls forever. Null for uploads never queued, and for imports queued before this migration.
 */
export class MemberImportJobs1795571500000 implements MigrationInterface {
  name = 'MemberImportJobs1795571500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE member_imports ADD COLUMN job_id uuid NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE member_imports DROP COLUMN job_id`);
  }
}
