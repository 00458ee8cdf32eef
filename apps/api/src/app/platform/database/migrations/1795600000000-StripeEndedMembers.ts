import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `members.stripe_ended_at` (issue 32, docs/decisions/stripe-member-webhooks.md): when the member's
 * subscription on the business's Stripe ended (`customer.subscription.deleted`, or an import that
 * no longer lists it as active); NULL while it runs or for anyone not billed on Stripe. It is the
 * Stripe twin of `mindbody_cancelled_at` for the counting rule: a branch whose subscription ended
 * lowers no price (membership/pricing/price.sql.ts `countingBranch`), so the refresh lapses it
 * with its referrer's ledger line, as a Mindbody friend's lapse. A column, not a subquery on
 * `stripe_member_subscriptions`, because every price and status statement reads it. Filled from
 * the subscriptions that have ended already.
 */
export class StripeEndedMembers1795600000000 implements MigrationInterface {
  name = 'StripeEndedMembers1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE members ADD COLUMN stripe_ended_at timestamptz NULL`);
    await queryRunner.query(
      `UPDATE members m SET stripe_ended_at = s.ended_at
       FROM stripe_member_subscriptions s
       WHERE s.business_id = m.business_id AND s.member_id = m.id AND s.ended_at IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE members DROP COLUMN stripe_ended_at`);
  }
}
