import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `members_branch_counting` as migration StripeMemberWebhooks left it (the down migration). */
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
               b.branch_qualification_days, NEW.created_at, NEW.mindbody_client_id IS NOT NULL
                 OR stripe_billed_branch(NEW.business_id, NEW.id, NEW.referred_by_id),
               COALESCE(NEW.mindbody_first_paid_at, stripe_first_paid_at(NEW.business_id, NEW.id)), now())
             FROM businesses b WHERE b.id = NEW.business_id);
         END IF;
         RETURN NEW;
       END $$`;

/**
 * `members_branch_counting` reads the branch's Stripe subscription with subqueries of its own
 * statement instead of calling `stripe_billed_branch` and `stripe_first_paid_at` (issue 36,
 * docs/decisions/list-pages-against-their-own-sql.md). Same rule, same values: the branch is
 * managed when it or its referrer has a subscription on the business's Stripe, and its first
 * payment is its subscription's first paid invoice. A SQL function whose body reads a table is
 * not inlined, so PostgreSQL parsed and planned both bodies again for every branch row written
 * (an INSERT of 5,000 branches spent half of its trigger time there); the subqueries are planned
 * once with the trigger's statement and kept in PL/pgSQL's plan cache. The two functions stay
 * (the branch-qualification refresh calls them in set-based statements, where that cost is paid
 * once per statement).
 */
export class BranchCountingTriggerInline1795595000000 implements MigrationInterface {
  name = 'BranchCountingTriggerInline1795595000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      BEFORE.replace(
        `OR stripe_billed_branch(NEW.business_id, NEW.id, NEW.referred_by_id)`,
        `OR EXISTS (SELECT 1 FROM stripe_member_subscriptions s
                     WHERE s.business_id = NEW.business_id AND s.member_id IN (NEW.id, NEW.referred_by_id))`,
      ).replace(
        `stripe_first_paid_at(NEW.business_id, NEW.id)`,
        `(SELECT s.first_paid_at FROM stripe_member_subscriptions s
                          WHERE s.business_id = NEW.business_id AND s.member_id = NEW.id)`,
      ),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(BEFORE);
  }
}
