import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Grove's own bill (issue 30, docs/product.md#billing, docs/stripe.md#grove-billing).
 *
 * `business_billing`: one row per business that has met billing, what Grove last read from
 * Stripe about its subscription (Stripe is the truth: every webhook re-reads the subscription, so
 * events arriving out of order leave the latest state) and `counting_since`, the earliest moment
 * its grace period can start. Businesses that exist when billing arrives get `now()`: their 14
 * days start at the upgrade, not at an approval years ago. A business without a row counts from
 * its creation. A Stripe customer belongs to one business (unique).
 *
 * `stripe_events`: the ids of the Stripe events received, so each is processed once however often
 * Stripe delivers it; kept 30 days (Stripe retries for 3), pruned by the retention sweep.
 */
export class GroveBilling1795571800000 implements MigrationInterface {
  name = 'GroveBilling1795571800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE business_billing (
        business_id uuid PRIMARY KEY REFERENCES businesses(id) ON DELETE CASCADE,
        counting_since timestamptz NOT NULL DEFAULT now(),
        stripe_customer_id text NULL UNIQUE,
        stripe_subscription_id text NULL,
        subscription_status text NULL,
        current_period_end timestamptz NULL,
        amount_cents integer NULL CHECK (amount_cents >= 0),
        currency text NULL,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        payment_failed_at timestamptz NULL,
        subscription_ended_at timestamptz NULL,
        synced_at timestamptz NULL
      )`);
    await queryRunner.query(
      `INSERT INTO business_billing (business_id) SELECT id FROM businesses ON CONFLICT DO NOTHING`,
    );
    await queryRunner.query(`
      CREATE TABLE stripe_events (
        id text PRIMARY KEY,
        type text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX stripe_events_received_idx ON stripe_events (received_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE stripe_events`);
    await queryRunner.query(`DROP TABLE business_billing`);
  }
}
