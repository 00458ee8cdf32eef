import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `member_imports.heartbeat_at` (issue 31 item 4): when a running CSV import last said it is alive
 * (at its start, after each write statement and every few seconds while it runs). A 'running'
 * import whose heartbeat is older than the stale limit was stopped under it (its process killed)
 * and is reported failed, so it can run again, long before pg-boss expires its job
 * (docs/decisions/csv-import-heartbeat.md). NULL for an import that never ran.
 */
export class MemberImportsHeartbeat1795603000000 implements MigrationInterface {
  name = 'MemberImportsHeartbeat1795603000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE member_imports ADD COLUMN heartbeat_at timestamptz NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE member_imports DROP COLUMN heartbeat_at`);
  }
}
