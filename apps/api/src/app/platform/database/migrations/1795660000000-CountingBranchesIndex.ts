import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 36: the members list sorted by branch count, and every filtered list (a filter set, or a
 * sort by price or status), counts each tree's counting branches (`countingBranch`, price.sql.ts)
 * over the whole business in one aggregate. Without an index on that rule the aggregate read
 * every heap page holding one of the business's members (4,445 pages for 10,000 members in the
 * `bench:scale` seed, whose businesses' rows are interleaved). This partial index holds exactly
 * the counting branches, by business and referrer, so the aggregate is an index-only scan (34
 * pages there). Its predicate is `countingBranch`'s text, which the planner must find implied by
 * the statement's WHERE (docs/decisions/list-pages-against-their-own-sql.md, section 4).
 */
export class CountingBranchesIndex1795660000000 implements MigrationInterface {
  name = 'CountingBranchesIndex1795660000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX members_counting_branches_idx ON members (business_id, referred_by_id)
       WHERE referred_by_id IS NOT NULL AND branch_counting_since IS NOT NULL
         AND mindbody_cancelled_at IS NULL AND mindbody_suspended_at IS NULL
         AND stripe_ended_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX members_counting_branches_idx`);
  }
}
