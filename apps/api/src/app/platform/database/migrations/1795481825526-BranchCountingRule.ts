import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every way a member becomes a branch follows the business's rule (docs/product.md#branch-qualification),
 * whichever code writes it (add branch, approval, automatic approval, CSV import, Mindbody import
 * and its ReferredBy linking, the demo seed):
 *
 * - function `branch_counting_start(rule, days, created_at, managed, first_paid_at, as_of)`: the one
 *   statement of the rule, the moment a branch starts counting if that moment is not after `as_of`,
 *   else NULL (pending): 'approval' → `as_of`; 'days' → `created_at + N days`; 'first_payment' → a
 *   Mindbody member's `mindbody_first_paid_at`, a member added by hand `as_of` (Grove cannot see a
 *   hand-added member's payments, so it counts at approval). `BranchQualificationService.refresh`
 *   calls it with its clock.
 * - trigger `members_branch_counting` (BEFORE INSERT of a branch, BEFORE UPDATE that changes
 *   `referred_by_id`) sets `branch_counting_since` = `branch_counting_start(…, now())`; a member
 *   that stops being a branch (`referred_by_id` cleared) gets NULL. An INSERT that names
 *   `branch_counting_since` itself keeps it.
 * - `members.branch_lapsed_at`: set by `BranchQualificationService.refresh` when a counting branch
 *   stopped counting because its Mindbody membership ended or was suspended (the 'branch_lapsed'
 *   ledger line and email are written once per lapse), cleared when it counts again; the trigger
 *   clears it too when the member is attached to another tree or detached.
 *
 * Pending branches are started by `BranchQualificationService.refresh` (the 'days' rule by its
 * hourly job).
 */
export class BranchCountingRule1795481825526 implements MigrationInterface {
  name = 'BranchCountingRule1795481825526';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE members ADD COLUMN branch_lapsed_at timestamptz`);
    await queryRunner.query(
      `CREATE FUNCTION branch_counting_start(rule text, n_days integer, created_at timestamptz,
         managed boolean, first_paid_at timestamptz, as_of timestamptz) RETURNS timestamptz
       LANGUAGE sql IMMUTABLE AS $$
         SELECT CASE WHEN since <= as_of THEN since END FROM (SELECT CASE
           WHEN rule = 'days' THEN created_at + make_interval(days => n_days)
           WHEN rule = 'first_payment' AND managed THEN first_paid_at
           ELSE as_of END AS since) s
       $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION members_branch_counting() RETURNS trigger LANGUAGE plpgsql AS $$
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
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER members_branch_counting_insert BEFORE INSERT ON members
         FOR EACH ROW WHEN (NEW.referred_by_id IS NOT NULL) EXECUTE FUNCTION members_branch_counting()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER members_branch_counting_update BEFORE UPDATE OF referred_by_id ON members
         FOR EACH ROW WHEN (NEW.referred_by_id IS DISTINCT FROM OLD.referred_by_id)
         EXECUTE FUNCTION members_branch_counting()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER members_branch_counting_update ON members`);
    await queryRunner.query(`DROP TRIGGER members_branch_counting_insert ON members`);
    await queryRunner.query(`DROP FUNCTION members_branch_counting()`);
    await queryRunner.query(
      `DROP FUNCTION branch_counting_start(text, integer, timestamptz, boolean, timestamptz, timestamptz)`,
    );
    await queryRunner.query(`ALTER TABLE members DROP COLUMN branch_lapsed_at`);
  }
}
