import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Asked at the right moment (issue 33 item 5, docs/product.md#referral-nudges,
 * docs/decisions/referral-nudges.md):
 *
 * - `businesses.nudge_invite_after_days` (7–365), `nudge_reminder_after_days` (3–90, only with
 *   the invitation) and `nudge_monthly_summary`: the owner's settings, every nudge off (NULL,
 *   false) until switched on.
 * - `referral_nudges`: one row per nudge sent, UNIQUE per member, kind and period ('once' for the
 *   invitation and the reminder, 'YYYY-MM' for a monthly summary). The job inserts the row in the
 *   transaction that queues the email, so a rerun or a second replica sends nothing twice; the
 *   per-member monthly cap counts these rows. Rows go with the member and the business.
 */
export class ReferralNudges1795586000000 implements MigrationInterface {
  name = 'ReferralNudges1795586000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses
         ADD COLUMN nudge_invite_after_days integer NULL
           CONSTRAINT businesses_nudge_invite_days CHECK (nudge_invite_after_days BETWEEN 7 AND 365),
         ADD COLUMN nudge_reminder_after_days integer NULL
           CONSTRAINT businesses_nudge_reminder_days CHECK (nudge_reminder_after_days BETWEEN 3 AND 90),
         ADD COLUMN nudge_monthly_summary boolean NOT NULL DEFAULT false,
         ADD CONSTRAINT businesses_nudge_reminder_needs_invite
           CHECK (nudge_reminder_after_days IS NULL OR nudge_invite_after_days IS NOT NULL)`,
    );
    await queryRunner.query(`
      CREATE TABLE referral_nudges (
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        kind text NOT NULL CONSTRAINT referral_nudges_kind CHECK (kind IN ('invite', 'reminder', 'summary')),
        period text NOT NULL,
        sent_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (member_id, kind, period)
      )`);
    // The cap counts one member's nudges of the month; the job reads one business's invitations.
    await queryRunner.query(
      `CREATE INDEX referral_nudges_business_kind_sent_idx ON referral_nudges (business_id, kind, sent_at)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE referral_nudges`);
    await queryRunner.query(
      `ALTER TABLE businesses DROP CONSTRAINT businesses_nudge_reminder_needs_invite,
         DROP COLUMN nudge_invite_after_days, DROP COLUMN nudge_reminder_after_days,
         DROP COLUMN nudge_monthly_summary`,
    );
  }
}
