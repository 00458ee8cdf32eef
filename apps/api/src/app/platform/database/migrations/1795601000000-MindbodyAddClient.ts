import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33 item 4 (docs/decisions/mindbody-add-client.md): a friend approved with 'Add to
 * Mindbody' becomes a Mindbody client through a job.
 * - `mindbody_integrations.add_client_referral_type`: the site's referral type (one of
 *   `GET /client/clientreferraltypes`) the owner picked for the clients Grove adds (`ReferredBy`);
 *   null: none is sent.
 * - `members.mindbody_add_state`: 'pending' while the job has not added or linked the member's
 *   client, 'failed' when it could not (`mindbody_add_error`: why, shown to the owner, who may
 *   try again); null otherwise (never asked, or done: `mindbody_client_id` is then set).
 */
export class MindbodyAddClient1795601000000 implements MigrationInterface {
  name = 'MindbodyAddClient1795601000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE mindbody_integrations
      ADD COLUMN add_client_referral_type text
        CONSTRAINT mindbody_integrations_referral_type_length
          CHECK (char_length(add_client_referral_type) BETWEEN 1 AND 100)`);
    await queryRunner.query(`ALTER TABLE members
      ADD COLUMN mindbody_add_state text
        CONSTRAINT members_mindbody_add_state CHECK (mindbody_add_state IN ('pending', 'failed')),
      ADD COLUMN mindbody_add_error text
        CONSTRAINT members_mindbody_add_error_length CHECK (char_length(mindbody_add_error) <= 500)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE members DROP COLUMN mindbody_add_error, DROP COLUMN mindbody_add_state`,
    );
    await queryRunner.query(
      `ALTER TABLE mindbody_integrations DROP COLUMN add_client_referral_type`,
    );
  }
}
