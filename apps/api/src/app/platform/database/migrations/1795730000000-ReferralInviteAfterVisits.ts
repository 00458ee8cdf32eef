import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The referral invitation after a member's Nth visit (issue 33 item 5,
 * docs/product.md#referral-nudges, docs/decisions/mindbody-visits.md):
 *
 * - `businesses.nudge_invite_after_visits` (1–100, NULL: off): invite a Mindbody member after
 *   their Nth visit as Mindbody tells it; never together with `nudge_invite_after_days`. The
 *   reminder now follows either invitation.
 * - `referral_nudge_visit_checks`: when the job last asked Mindbody about a member's visits and
 *   what it counted (at most N), one row per member, so each run asks the members asked least
 *   recently and none twice a day. Rows go with the member and the business.
 */
export class ReferralInviteAfterVisits1795730000000 implements MigrationInterface {
  name = 'ReferralInviteAfterVisits1795730000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses
         ADD COLUMN nudge_invite_after_visits integer NULL
           CONSTRAINT businesses_nudge_invite_visits CHECK (nudge_invite_after_visits BETWEEN 1 AND 100),
         ADD CONSTRAINT businesses_nudge_invite_days_or_visits
           CHECK (nudge_invite_after_days IS NULL OR nudge_invite_after_visits IS NULL),
         DROP CONSTRAINT businesses_nudge_reminder_needs_invite,
         ADD CONSTRAINT businesses_nudge_reminder_needs_invite
           CHECK (nudge_reminder_after_days IS NULL OR nudge_invite_after_days IS NOT NULL
                  OR nudge_invite_after_visits IS NOT NULL)`,
    );
    await queryRunner.query(`
      CREATE TABLE referral_nudge_visit_checks (
        member_id uuid PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        checked_at timestamptz NOT NULL,
        visits integer NOT NULL CONSTRAINT referral_nudge_visit_checks_visits CHECK (visits >= 0)
      )`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE referral_nudge_visit_checks`);
    await queryRunner.query(
      `UPDATE businesses SET nudge_reminder_after_days = NULL
        WHERE nudge_invite_after_days IS NULL AND nudge_reminder_after_days IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE businesses
         DROP CONSTRAINT businesses_nudge_reminder_needs_invite,
         ADD CONSTRAINT businesses_nudge_reminder_needs_invite
           CHECK (nudge_reminder_after_days IS NULL OR nudge_invite_after_days IS NOT NULL),
         DROP CONSTRAINT businesses_nudge_invite_days_or_visits,
         DROP COLUMN nudge_invite_after_visits`,
    );
  }
}
