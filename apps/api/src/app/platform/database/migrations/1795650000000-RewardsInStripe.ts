import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The friend's welcome offer and the referrer's one-off credit written to a gym's Stripe (issue 33
 * items 1 and 2, docs/decisions/welcome-offer.md, docs/decisions/referrer-reward.md):
 * - `welcome_offer_grants.cost_cents`: what the offer gives, recorded when it is granted (the
 *   friend's monthly price at approval, in the business's currency) and again from the Stripe
 *   subscription's price when the coupon is written; NULL for a text offer. Grants made before this
 *   migration take the friend's membership price as it is now (nothing older is kept).
 * - `welcome_offer_grants.stripe_*`: at a business whose Stripe member billing is connected, the
 *   coupon written on the friend's subscription: `stripe_state` 'pending' (approved, not written
 *   yet: no subscription found so far), 'applied' (its subscription and coupon), 'failed' (Stripe
 *   refused it: `stripe_note` says why, listed to honour).
 * - `referrer_rewards_owed.stripe_*`: a one-off credit written as a customer-balance transaction
 *   (its `cbtxn_…` id and when), once per owed reward.
 */
export class RewardsInStripe1795650000000 implements MigrationInterface {
  name = 'RewardsInStripe1795650000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE welcome_offer_grants
         ADD COLUMN cost_cents integer NULL CHECK (cost_cents >= 0),
         ADD COLUMN stripe_state text NULL CHECK (stripe_state IN ('pending', 'applied', 'failed')),
         ADD COLUMN stripe_subscription_id text NULL,
         ADD COLUMN stripe_coupon_id text NULL,
         ADD COLUMN stripe_note text NULL,
         ADD COLUMN stripe_applied_at timestamptz NULL`,
    );
    await queryRunner.query(
      `UPDATE welcome_offer_grants g SET cost_cents = CASE g.offer->>'kind'
          WHEN 'amount' THEN least((g.offer->>'amountCents')::integer, m.membership_price_cents) * (g.offer->>'months')::integer
          WHEN 'percent' THEN round(m.membership_price_cents * (g.offer->>'percent')::numeric / 100)::integer * (g.offer->>'months')::integer
          WHEN 'free' THEN m.membership_price_cents * (g.offer->>'months')::integer
        END
         FROM members m WHERE m.id = g.member_id`,
    );
    await queryRunner.query(
      `CREATE INDEX welcome_offer_grants_stripe_pending_idx ON welcome_offer_grants (business_id)
         WHERE stripe_state = 'pending'`,
    );
    await queryRunner.query(
      `ALTER TABLE referrer_rewards_owed
         ADD COLUMN stripe_balance_transaction_id text NULL,
         ADD COLUMN stripe_credited_at timestamptz NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE referrer_rewards_owed
         DROP COLUMN stripe_balance_transaction_id, DROP COLUMN stripe_credited_at`,
    );
    await queryRunner.query(`DROP INDEX welcome_offer_grants_stripe_pending_idx`);
    await queryRunner.query(
      `ALTER TABLE welcome_offer_grants DROP COLUMN cost_cents, DROP COLUMN stripe_state,
         DROP COLUMN stripe_subscription_id, DROP COLUMN stripe_coupon_id, DROP COLUMN stripe_note,
         DROP COLUMN stripe_applied_at`,
    );
  }
}
