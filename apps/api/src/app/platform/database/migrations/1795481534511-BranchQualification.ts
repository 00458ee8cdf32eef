import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a branch counts (issue 15 part 3, docs/product.md#branch-qualification).
 *
 * - `businesses.branch_qualification`: the business's rule, 'approval' (the branch counts from the
 *   moment it is added: Grove's behaviour until now, the default), 'days' (after
 *   `branch_qualification_days` days as a member, 1–365) or 'first_payment' (a Mindbody friend
 *   counts from their first paid autopay or sale).
 * - `members.branch_counting_since`: when this member, as a branch (`referred_by_id` set), started
 *   lowering their referrer's price; null while the branch is pending (or the member is no branch).
 *   Existing branches count since they were added, so no price moves.
 * - `members.mindbody_first_paid_at`: the friend's first paid autopay or sale read from Mindbody.
 * - `members.mindbody_suspended_at`: set while the friend's Mindbody membership is suspended.
 *
 * A branch lowers its referrer's price only while it counts: `referred_by_id` set,
 * `branch_counting_since` set, and neither `mindbody_cancelled_at` nor `mindbody_suspended_at`
 * (`membership/pricing/price.sql.ts` is the one place that says so in SQL). The partial index serves
 * the job that starts pending branches counting.
 */
export class BranchQualification1795481534511 implements MigrationInterface {
  name = 'BranchQualification1795481534511';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses
         ADD COLUMN branch_qualification text NOT NULL DEFAULT 'approval'
           CONSTRAINT businesses_branch_qualification_rule
           CHECK (branch_qualification IN ('approval', 'days', 'first_payment')),
         ADD COLUMN branch_qualification_days smallint
           CONSTRAINT businesses_branch_qualification_days_range
           CHECK (branch_qualification_days BETWEEN 1 AND 365),
         ADD CONSTRAINT businesses_branch_qualification_days_set
           CHECK (branch_qualification <> 'days' OR branch_qualification_days IS NOT NULL)`,
    );
    await queryRunner.query(
      `ALTER TABLE members
         ADD COLUMN branch_counting_since timestamptz,
         ADD COLUMN mindbody_first_paid_at timestamptz,
         ADD COLUMN mindbody_suspended_at timestamptz`,
    );
    await queryRunner.query(
      `UPDATE members SET branch_counting_since = created_at WHERE referred_by_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX members_pending_branches_idx ON members (business_id, created_at)
         WHERE referred_by_id IS NOT NULL AND branch_counting_since IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX members_pending_branches_idx`);
    await queryRunner.query(
      `ALTER TABLE members DROP COLUMN branch_counting_since, DROP COLUMN mindbody_first_paid_at,
         DROP COLUMN mindbody_suspended_at`,
    );
    await queryRunner.query(
      `ALTER TABLE businesses DROP CONSTRAINT businesses_branch_qualification_days_set,
         DROP COLUMN branch_qualification_days, DROP COLUMN branch_qualification`,
    );
  }
}
