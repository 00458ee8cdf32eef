import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The trigger function as migration BranchCountingRule wrote it (restored by `down`). */
const BEFORE = `CREATE OR REPLACE FUNCTION members_branch_counting() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         NEW.branch_lapsed_at := NULL;
         IF NEW.referred_by_id IS NULL THEN
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
 * A friend who joined through a Mindbody member's referral link and was approved (issue 22:
 * Grove owns the referral graph) is a branch of that member at once, but counts only once their
 * own Mindbody client exists — when an import or sync matches it by email — and then under the
 * business's rule (docs/product.md#branch-qualification): until then nothing in Mindbody can be
 * billed for it. The trigger `members_branch_counting` leaves such a branch pending
 * (`branch_counting_since` NULL); `BranchQualificationService.refresh` starts it after the match.
 */
export class BranchesOfMindbodyMembers1795500000001 implements MigrationInterface {
  name = 'BranchesOfMindbodyMembers1795500000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION members_branch_counting() RETURNS trigger LANGUAGE plpgsql AS $$
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
       END $$`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(BEFORE);
  }
}
