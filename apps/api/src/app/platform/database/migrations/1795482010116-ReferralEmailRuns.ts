import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * 'Email all links' as a background run (issue 15, docs/product.md#referral-links):
 * `referral_email_runs` holds a business's latest run (one row per business), the same columns
 * as `referral_link_runs` (`database/background-runs.ts` runs both): `status` ('running',
 * 'done', 'failed'), `total` (members with a live link when it started), `processed` (members
 * gone through so far) and `created` (the "Your referral link" emails it queued; the others were
 * skipped as emailed within the hour). The Referral Links screen polls it for the progress bar;
 * a click while a run is going starts nothing new.
 */
export class ReferralEmailRuns1795482010116 implements MigrationInterface {
  name = 'ReferralEmailRuns1795482010116';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The same columns, defaults and checks as referral_link_runs (LIKE copies all but the key
    // and the foreign key, added after).
    await queryRunner.query(
      `CREATE TABLE referral_email_runs (LIKE referral_link_runs INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`,
    );
    await queryRunner.query(`ALTER TABLE referral_email_runs
      ADD PRIMARY KEY (business_id),
      ADD FOREIGN KEY (business_id) REFERENCES businesses(id) ON DELETE CASCADE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE referral_email_runs`);
  }
}
