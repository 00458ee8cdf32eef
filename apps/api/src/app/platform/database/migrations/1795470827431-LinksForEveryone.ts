import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Links for everyone (issue 14 part 4, docs/product.md#referral-links):
 * - `businesses.auto_referral_links`: when true, every new member (added by hand, approved from
 *   Prospective Members, imported from Mindbody or from a CSV file) gets a live referral link at
 *   once. Off by default: an owner turns it on.
 * - `referral_link_runs`: the latest 'Create links for all members without one' run of a
 *   business (one row per business), which a background job advances batch by batch: `status`
 *   ('running', 'done', 'failed'), `total` (members without a live link when it started),
 *   `processed` (members looked at so far) and `created` (links it created). The Referral Links
 *   screen polls it for the progress bar; a click while a run is going starts nothing new.
 */
export class LinksForEveryone1795470827431 implements MigrationInterface {
  name = 'LinksForEveryone1795470827431';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses ADD COLUMN auto_referral_links boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`
      CREATE TABLE referral_link_runs (
        business_id uuid PRIMARY KEY REFERENCES businesses(id) ON DELETE CASCADE,
        status text NOT NULL,
        total integer NOT NULL DEFAULT 0,
        processed integer NOT NULL DEFAULT 0,
        created integer NOT NULL DEFAULT 0,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz NULL,
        CONSTRAINT referral_link_runs_status_known CHECK (status IN ('running', 'done', 'failed')),
        CONSTRAINT referral_link_runs_counts CHECK (total >= 0 AND processed >= 0 AND created >= 0)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE referral_link_runs`);
    await queryRunner.query(`ALTER TABLE businesses DROP COLUMN auto_referral_links`);
  }
}
