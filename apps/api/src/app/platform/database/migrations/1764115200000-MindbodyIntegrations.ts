import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Mindbody integration (docs/product.md#mindbody-setup Mindbody setup, docs/product.md#entities user record's mindbodyIntegrationStage,
 * mindbodyDiscounts, mindbodyAccount; docs/product.md#mindbody-stages stage table and process state; docs/architecture.md#database, docs/architecture.md#mindbody):
 * - `mindbody_integrations`: one row per business; stage 1–4, site id and staff username, the
 *   password, staff token and webhook signature key ENCRYPTED (AES-256-GCM, see
 *   `mindbody-crypto.ts`), discounts in cents, process state text, progress, last sync time,
 *   webhook subscription id.
 * - `members`: a Mindbody client id unique per business (the import's upsert key), the client's
 *   ReferredBy text (re-linked on every sync), the autopay amount Mindbody bills as Grove last saw
 *   or wrote it (cents), and when the client's membership was cancelled (a cancelled branch stops
 *   counting).
 * - `prospects`: the Mindbody client id of a Mindbody-managed prospect, unique per business.
 * - `mindbody_webhook_messages`: processed webhook message ids (UNIQUE), so a redelivery is
 *   processed once.
 */
export class MindbodyIntegrations1764115200000 implements MigrationInterface {
  name = 'MindbodyIntegrations1764115200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE mindbody_integrations (
        business_id uuid PRIMARY KEY REFERENCES businesses(id) ON DELETE CASCADE,
        stage smallint NOT NULL DEFAULT 1 CHECK (stage BETWEEN 1 AND 4),
        site_id text NULL,
        username text NULL,
        password_enc text NULL,
        staff_token_enc text NULL,
        staff_token_expires_at timestamptz NULL,
        discount_on_referral_cents integer NULL CHECK (discount_on_referral_cents >= 1),
        discount_for_referee_cents integer NULL CHECK (discount_for_referee_cents >= 0),
        process_state text NULL,
        progress_done integer NULL,
        progress_total integer NULL,
        last_sync_at timestamptz NULL,
        webhook_subscription_id text NULL,
        webhook_signature_key_enc text NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX mindbody_integrations_site_idx ON mindbody_integrations (site_id)`,
    );
    await queryRunner.query(`
      ALTER TABLE members
        ADD COLUMN mindbody_referred_by text NULL,
        ADD COLUMN mindbody_autopay_cents integer NULL,
        ADD COLUMN mindbody_cancelled_at timestamptz NULL`);
    // Plain (not partial) unique index so `ON CONFLICT (business_id, mindbody_client_id)` can use
    // it; rows without a client id (NULL) never conflict.
    await queryRunner.query(
      `CREATE UNIQUE INDEX members_business_mindbody_client_key ON members (business_id, mindbody_client_id)`,
    );
    await queryRunner.query(`ALTER TABLE prospects ADD COLUMN mindbody_client_id text NULL`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX prospects_business_mindbody_client_key ON prospects (business_id, mindbody_client_id)`,
    );
    await queryRunner.query(`
      CREATE TABLE mindbody_webhook_messages (
        message_id text NOT NULL,
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        received_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT mindbody_webhook_messages_message_id_key UNIQUE (message_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE mindbody_webhook_messages`);
    await queryRunner.query(`DROP INDEX prospects_business_mindbody_client_key`);
    await queryRunner.query(`ALTER TABLE prospects DROP COLUMN mindbody_client_id`);
    await queryRunner.query(`DROP INDEX members_business_mindbody_client_key`);
    await queryRunner.query(`
      ALTER TABLE members
        DROP COLUMN mindbody_cancelled_at,
        DROP COLUMN mindbody_autopay_cents,
        DROP COLUMN mindbody_referred_by`);
    await queryRunner.query(`DROP TABLE mindbody_integrations`);
  }
}
