import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who joined through a member's link, kept after the owner decided (issue 25: the member
 * profile's 'Joined through their link' lists everyone, waiting, approved or removed). A prospect
 * row is deleted when the owner approves or removes it; `prospect_outcomes` keeps, in the same
 * statement, what the profile shows of it: the friend's name and email as they joined, when they
 * joined, the outcome ('approved': they became a member and a branch, `member_id`; 'removed') and
 * when it was decided. Owned by the business and by the referring member: removing either
 * removes its rows (a removed referrer has no profile); a removed member leaves `member_id` null.
 *
 * Backfill: approvals recorded before (lifecycle_facts 'prospect_approved') whose member and
 * referrer are still there, with the member's name and email. Removals before this migration kept
 * no name and are not listed.
 */
export class ProspectOutcomes1795571300000 implements MigrationInterface {
  name = 'ProspectOutcomes1795571300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE prospect_outcomes (
        prospect_id uuid PRIMARY KEY,
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        referring_member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        member_id uuid NULL REFERENCES members(id) ON DELETE SET NULL,
        name text NOT NULL,
        email text NULL,
        joined_at timestamptz NOT NULL,
        outcome text NOT NULL,
        decided_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT prospect_outcomes_outcome_known CHECK (outcome IN ('approved', 'removed'))
      )`);
    await queryRunner.query(
      `CREATE INDEX prospect_outcomes_referrer_idx
         ON prospect_outcomes (business_id, referring_member_id, joined_at)`,
    );
    await queryRunner.query(
      `CREATE INDEX prospect_outcomes_member_idx ON prospect_outcomes (member_id)`,
    );
    await queryRunner.query(`
      INSERT INTO prospect_outcomes
        (prospect_id, business_id, referring_member_id, member_id, name, email, joined_at, outcome, decided_at)
      SELECT f.prospect_id, f.business_id, f.referrer_id, m.id, m.name, m.email,
             coalesce(j.occurred_at, f.occurred_at), 'approved', f.occurred_at
        FROM lifecycle_facts f
        JOIN members m ON m.id = f.member_id AND m.business_id = f.business_id
        JOIN members r ON r.id = f.referrer_id AND r.business_id = f.business_id
        LEFT JOIN lifecycle_facts j ON j.business_id = f.business_id
             AND j.kind = 'prospect_joined' AND j.prospect_id = f.prospect_id
       WHERE f.kind = 'prospect_approved' AND f.prospect_id IS NOT NULL
      ON CONFLICT (prospect_id) DO NOTHING`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE prospect_outcomes`);
  }
}
