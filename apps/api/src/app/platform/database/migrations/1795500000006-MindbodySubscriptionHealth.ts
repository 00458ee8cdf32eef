import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The health of Grove's one Mindbody webhook subscription (issue 22): Mindbody deactivates a
 * subscription whose deliveries keep failing (`DeactivatedTooManyFailedMessageDeliveryAttempts`)
 * and tells nobody. An hourly job reads its status and activates it again;
 * `mindbody_webhook_subscription.status` is the status it last read, `checked_at` when,
 * `down_since` since when it has been inactive and could not be activated again (null while it
 * delivers). The wizard says so while it is down.
 */
export class MindbodySubscriptionHealth1795500000006 implements MigrationInterface {
  name = 'MindbodySubscriptionHealth1795500000006';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE mindbody_webhook_subscription ADD COLUMN status text NULL,
         ADD COLUMN checked_at timestamptz NULL, ADD COLUMN down_since timestamptz NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE mindbody_webhook_subscription DROP COLUMN down_since, DROP COLUMN checked_at,
         DROP COLUMN status`,
    );
  }
}
