import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The invitation after the Nth visit asks Mindbody about each member once a week, only for the
 * visits since its last check (issue 33 item 5, docs/decisions/mindbody-visits.md):
 *
 * - `referral_nudge_visit_checks.counted_until`: classes that started before this time are in
 *   `visits`, now a running count (the next check asks Mindbody from here and adds). The rows of
 *   the daily checks held a count capped at N up to `checked_at`, not a running count: they are
 *   deleted, so each member's next check reads its history once from the start.
 */
export class VisitChecksWeekly1795740000000 implements MigrationInterface {
  name = 'VisitChecksWeekly1795740000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM referral_nudge_visit_checks`);
    await queryRunner.query(
      `ALTER TABLE referral_nudge_visit_checks
         ADD COLUMN counted_until timestamptz NOT NULL,
         ADD CONSTRAINT referral_nudge_visit_checks_counted_until CHECK (counted_until <= checked_at)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM referral_nudge_visit_checks`);
    await queryRunner.query(
      `ALTER TABLE referral_nudge_visit_checks
         DROP CONSTRAINT referral_nudge_visit_checks_counted_until,
         DROP COLUMN counted_until`,
    );
  }
}
