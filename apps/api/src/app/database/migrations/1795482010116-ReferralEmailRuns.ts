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
    await queryRunner.query(`
      CREATE TABLE referral_email_runs (
        business_id uuid PRIMARY KEY REFERENCES businesses(id) ON DELETE CASCADE,
        status text NOT NULL,
        total integer NOT NULL DEFAULT 0,
        processed integer NOT NULL DEFAULT 0,
        created integer NOT NULL DEFAULT 0,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz NULL,
        CONSTRAINT referral_email_runs_status_known CHECK (status IN ('running', 'done', 'failed')),
        CONSTRAINT referral_email_runs_counts CHECK (total >= 0 AND processed >= 0 AND created >= 0)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE referral_email_runs`);
  }
}
