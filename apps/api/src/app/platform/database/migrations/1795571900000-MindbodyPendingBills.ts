import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A Mindbody sync's pending bill changes (issue 31: no bill changes unconfirmed, ever). A sync
 * started by a webhook reads and stores what changed, then holds the autopay writes it would make:
 * `pending_bills_count` (members whose bill would change), `pending_bills_fingerprint` (the
 * fingerprint of those changes, as `GET /api/mindbody/sync/preview` computes it) and
 * `pending_bills_since` (when changes were first held; the owner was emailed then). All null when
 * nothing waits for the owner's confirmation.
 */
export class MindbodyPendingBills1795571900000 implements MigrationInterface {
  name = 'MindbodyPendingBills1795571900000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE mindbody_integrations
         ADD COLUMN pending_bills_count integer NULL,
         ADD COLUMN pending_bills_fingerprint text NULL,
         ADD COLUMN pending_bills_since timestamptz NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE mindbody_integrations
         DROP COLUMN pending_bills_count,
         DROP COLUMN pending_bills_fingerprint,
         DROP COLUMN pending_bills_since`,
    );
  }
}
