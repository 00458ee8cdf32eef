import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A gym's Stripe account as its member billing (issue 32, docs/stripe.md#member-billing,
 * docs/decisions/stripe-member-billing.md):
 *
 * - `stripe_member_integrations`: one row per business that connected a restricted key (sealed
 *   AES-256-GCM like Mindbody's secrets), the referral discounts (cents; null until saved) and the
 *   last import and sync.
 * - `stripe_member_subscriptions`: the gym's active subscriptions Grove imported, one per member:
 *   its price (the items' amounts, cents) and currency, the gym's own discounts Grove keeps, and
 *   the discount Grove wrote (its cents, coupon and `di_` id; 0 = none). A subscription belongs to
 *   one business (unique id: a Stripe account belongs to one business).
 * - `stripe_member_coupons`: the `amount_off`, `duration: forever` coupon Grove made per amount and
 *   currency in a business's account (one per amount, reused by every member with that discount).
 */
export class StripeMemberBilling1795575000000 implements MigrationInterface {
  name = 'StripeMemberBilling1795575000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE stripe_member_integrations (
        business_id uuid PRIMARY KEY REFERENCES businesses(id) ON DELETE CASCADE,
        api_key_sealed text NOT NULL,
        key_last4 text NOT NULL,
        livemode boolean NOT NULL,
        discount_on_referral_cents integer NULL CHECK (discount_on_referral_cents >= 1),
        discount_for_referee_cents integer NOT NULL DEFAULT 0 CHECK (discount_for_referee_cents >= 0),
        imported_at timestamptz NULL,
        last_sync_at timestamptz NULL,
        last_sync_bills_written integer NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE stripe_member_subscriptions (
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        stripe_subscription_id text NOT NULL UNIQUE,
        stripe_customer_id text NOT NULL,
        currency text NOT NULL,
        price_cents integer NOT NULL CHECK (price_cents >= 0),
        other_discount_ids text[] NOT NULL DEFAULT '{}',
        grove_discount_cents integer NOT NULL DEFAULT 0 CHECK (grove_discount_cents >= 0),
        grove_coupon_id text NULL,
        grove_discount_id text NULL,
        first_paid_at timestamptz NULL,
        ended_at timestamptz NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (business_id, member_id),
        CHECK (grove_discount_cents <= price_cents)
      )`);
    await queryRunner.query(`
      CREATE INDEX stripe_member_subscriptions_customer
        ON stripe_member_subscriptions (business_id, stripe_customer_id)`);
    await queryRunner.query(`
      CREATE TABLE stripe_member_coupons (
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        currency text NOT NULL,
        amount_off_cents integer NOT NULL CHECK (amount_off_cents >= 1),
        coupon_id text NOT NULL,
        PRIMARY KEY (business_id, currency, amount_off_cents)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE stripe_member_coupons`);
    await queryRunner.query(`DROP TABLE stripe_member_subscriptions`);
    await queryRunner.query(`DROP TABLE stripe_member_integrations`);
  }
}
