import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Stripe import and the Stripe sync run as background jobs with progress (issue 32), as
 * Mindbody's do: `stripe_member_runs` holds a business's latest run, one row per business —
 * its kind ('import' | 'sync'), state ('running' | 'done' | 'failed'), `run_id` (the job carries
 * it: a job of an older run does nothing), progress (`done`, `total`: NULL while unknown, an
 * import's listing has no count), the result (JSON counts), the failure's message, and for a sync
 * the bills the owner confirmed (`confirmed`: member id → new cents, so a retried job writes only
 * those). Down drops the table.
 */
export class StripeMemberRuns1795630000000 implements MigrationInterface {
  name = 'StripeMemberRuns1795630000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE stripe_member_runs (
        business_id uuid PRIMARY KEY REFERENCES businesses(id) ON DELETE CASCADE,
        run_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('import', 'sync')),
        state text NOT NULL CHECK (state IN ('running', 'done', 'failed')),
        done integer NOT NULL DEFAULT 0 CHECK (done >= 0),
        total integer NULL CHECK (total >= 0),
        result jsonb NULL,
        error text NULL,
        confirmed jsonb NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz NULL
      )`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE stripe_member_runs`);
  }
}
