import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `members_branch_counting` as migration BranchesOfMindbodyMembers left it. */
const BEFORE = `CREATE OR REPLACE FUNCTION members_branch_counting() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         NEW.branch_lapsed_at := NULL;
         IF NEW.referred_by_id IS NULL THEN
           NEW.branch_counting_since := NULL;
         ELSIF NEW.mindbody_client_id IS NULL AND EXISTS (
             SELECT 1 FROM members r WHERE r.id = NEW.referred_by_id AND r.mindbody_client_id IS NOT NULL) THEN
           NEW.branch_counting_since := NULL;
         ELSIF TG_OP = 'UPDATE' OR NEW.branch_counting_since IS NULL THEN
           NEW.branch_counting_since := (SELECT branch_counting_start(b.branch_qualification,
               b.branch_qualification_days, NEW.created_at, NEW.mindbody_client_id IS NOT NULL,
               NEW.mindbody_first_paid_at, now())
             FROM businesses b WHERE b.id = NEW.business_id);
         END IF;
         RETURN NEW;
       END $$`;

/**
 * Webhooks from a gym's own Stripe account (issue 32, docs/stripe.md#member-billing,
 * docs/decisions/stripe-member-webhooks.md):
 *
 * - `stripe_member_integrations.webhook_secret_sealed`: the signing secret (`whsec_…`) of the
 *   endpoint the owner added in their Stripe Dashboard, sealed AES-256-GCM like the key;
 *   `webhook_token`: the random path segment of that endpoint's URL (which business's secret
 *   verifies a delivery); `automatic_sync`: the owner, confirming a sync, let Grove write the bills
 *   the gym's webhooks change under the discounts confirmed (cleared when the discounts change);
 *   `pending_bills_since`: a webhook changed bills Grove holds for the owner's review.
 * - `stripe_member_events`: every event id received per business (a replay is recorded once).
 * - The first payment rule reaches Stripe friends: `stripe_billed_branch` (the member, or its
 *   referrer, is billed on the business's Stripe) makes a branch managed for
 *   `branch_counting_start`, and `stripe_first_paid_at` (its subscription's first paid invoice)
 *   is its first payment; the trigger `members_branch_counting` passes both.
 */
export class StripeMemberWebhooks1795580000000 implements MigrationInterface {
  name = 'StripeMemberWebhooks1795580000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE stripe_member_integrations
        ADD COLUMN webhook_secret_sealed text NULL,
        ADD COLUMN webhook_token text NULL UNIQUE,
        ADD COLUMN automatic_sync boolean NOT NULL DEFAULT false,
        ADD COLUMN pending_bills_since timestamptz NULL`);
    await queryRunner.query(`
      CREATE TABLE stripe_member_events (
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        event_id text NOT NULL,
        type text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (business_id, event_id)
      )`);
    await queryRunner.query(`
      CREATE FUNCTION stripe_billed_branch(business uuid, member uuid, referrer uuid) RETURNS boolean
      LANGUAGE sql STABLE AS $$
        SELECT EXISTS (SELECT 1 FROM stripe_member_subscriptions s
                       WHERE s.business_id = business AND s.member_id IN (member, referrer))
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION stripe_first_paid_at(business uuid, member uuid) RETURNS timestamptz
      LANGUAGE sql STABLE AS $$
        SELECT s.first_paid_at FROM stripe_member_subscriptions s
        WHERE s.business_id = business AND s.member_id = member
      $$`);
    await queryRunner.query(
      BEFORE.replace(
        `NEW.mindbody_client_id IS NOT NULL,
               NEW.mindbody_first_paid_at, now())`,
        `NEW.mindbody_client_id IS NOT NULL
                 OR stripe_billed_branch(NEW.business_id, NEW.id, NEW.referred_by_id),
               COALESCE(NEW.mindbody_first_paid_at, stripe_first_paid_at(NEW.business_id, NEW.id)), now())`,
      ),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(BEFORE);
    await queryRunner.query(`DROP FUNCTION stripe_first_paid_at(uuid, uuid)`);
    await queryRunner.query(`DROP FUNCTION stripe_billed_branch(uuid, uuid, uuid)`);
    await queryRunner.query(`DROP TABLE stripe_member_events`);
    await queryRunner.query(`
      ALTER TABLE stripe_member_integrations DROP COLUMN webhook_secret_sealed,
        DROP COLUMN webhook_token, DROP COLUMN automatic_sync, DROP COLUMN pending_bills_since`);
  }
}
