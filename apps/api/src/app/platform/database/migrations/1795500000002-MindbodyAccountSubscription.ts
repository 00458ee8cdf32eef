import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One Mindbody webhook subscription for Grove's developer account (issue 22): a subscription names
 * no site and receives the events of every site that activated the account, so Grove keeps ONE
 * (`mindbody_webhook_subscription`, a single row: its id, its signature key sealed as the other
 * Mindbody secrets, the URL it delivers to) and routes each delivery to the businesses of its
 * `eventData.siteId` (docs/architecture.md#mindbody). A delivery is processed once per business:
 * `mindbody_webhook_messages` is unique by (message_id, business_id), as two businesses may share a
 * site. The per-business columns `webhook_subscription_id` / `webhook_signature_key_enc` stay for
 * subscriptions made before (verified and deleted as before, never created again).
 */
export class MindbodyAccountSubscription1795500000002 implements MigrationInterface {
  name = 'MindbodyAccountSubscription1795500000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE mindbody_webhook_subscription (
         id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
         subscription_id text NOT NULL,
         signature_key_enc text NOT NULL,
         webhook_url text NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    await queryRunner.query(
      `ALTER TABLE mindbody_webhook_messages DROP CONSTRAINT mindbody_webhook_messages_message_id_key`,
    );
    await queryRunner.query(
      `ALTER TABLE mindbody_webhook_messages ADD CONSTRAINT mindbody_webhook_messages_message_business_key UNIQUE (message_id, business_id)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE mindbody_webhook_messages DROP CONSTRAINT mindbody_webhook_messages_message_business_key`,
    );
    // A message processed for several businesses keeps one row (the earliest).
    await queryRunner.query(
      `DELETE FROM mindbody_webhook_messages m USING mindbody_webhook_messages o
       WHERE m.message_id = o.message_id AND (m.received_at, m.business_id) > (o.received_at, o.business_id)`,
    );
    await queryRunner.query(
      `ALTER TABLE mindbody_webhook_messages ADD CONSTRAINT mindbody_webhook_messages_message_id_key UNIQUE (message_id)`,
    );
    await queryRunner.query(`DROP TABLE mindbody_webhook_subscription`);
  }
}
