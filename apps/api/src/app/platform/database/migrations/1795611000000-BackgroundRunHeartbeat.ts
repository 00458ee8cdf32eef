import type { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['referral_link_runs', 'referral_email_runs'];

/**
 * A background run ('Create links for all members without one', 'Email all links') says it is
 * alive (issue 31 item 4): `heartbeat_at` is set when it starts and by every batch it records, and
 * a run is lost when it has been silent for STALE_RUN_SECONDS, not when it started that long ago
 * (a long run that is still working was taken for a lost one, and a second could start beside it).
 */
export class BackgroundRunHeartbeat1795611000000 implements MigrationInterface {
  name = 'BackgroundRunHeartbeat1795611000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await queryRunner.query(
        `ALTER TABLE ${table} ADD COLUMN heartbeat_at timestamptz NOT NULL DEFAULT now()`,
      );
      await queryRunner.query(`UPDATE ${table} SET heartbeat_at = started_at`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES)
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN heartbeat_at`);
  }
}
