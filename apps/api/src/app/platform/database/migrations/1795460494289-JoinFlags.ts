import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Flagged referral joins (issue 11: public endpoints reveal nothing about members). The public
 * join answers every friend alike; an attempt Grove will not queue as a prospective member (the
 * email belongs to a member of that business, or is the referrer's own) is kept here for the
 * owner instead, with its reasons, until the owner dismisses it.
 *
 * - One open flag per business and email key (`join_flags_open_key`, the same key prospects are
 *   unique on): a repeat attempt adds its reasons to the open flag's `reasons` (a set, sorted),
 *   counts it in `attempts` and moves `last_attempt_at`. Later fraud signals (disposable email,
 *   same phone, burst of joins) add their own reason codes to the same row; no schema change.
 * - Dismissing sets `dismissed_at` (kept as history); the next attempt opens a new flag.
 * - The flag goes with its business and with the referring member (like prospects).
 * - `prospects.join_attempts` counts a queued friend's repeats the same way, so a repeat join
 *   writes one row whether the email is a stranger's or a member's (no timing difference).
 */
export class JoinFlags1795460494289 implements MigrationInterface {
  name = 'JoinFlags1795460494289';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE join_flags (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        referring_member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        name text NOT NULL,
        email text NOT NULL,
        email_key text NOT NULL,
        reasons text[] NOT NULL,
        attempts integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_attempt_at timestamptz NOT NULL DEFAULT now(),
        dismissed_at timestamptz NULL,
        CONSTRAINT join_flags_reasons_present CHECK (cardinality(reasons) > 0),
        CONSTRAINT join_flags_attempts_positive CHECK (attempts > 0)
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX join_flags_open_key ON join_flags (business_id, email_key) WHERE dismissed_at IS NULL`,
    );
    // The owner's list: open flags of one business, oldest first.
    await queryRunner.query(
      `CREATE INDEX join_flags_business_open_idx ON join_flags (business_id, created_at, id) WHERE dismissed_at IS NULL`,
    );
    // ON DELETE CASCADE from members.
    await queryRunner.query(
      `CREATE INDEX join_flags_referring_member_idx ON join_flags (referring_member_id)`,
    );
    await queryRunner.query(
      `ALTER TABLE prospects ADD COLUMN join_attempts integer NOT NULL DEFAULT 1
         CONSTRAINT prospects_join_attempts_positive CHECK (join_attempts > 0)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE prospects DROP COLUMN join_attempts`);
    await queryRunner.query(`DROP TABLE join_flags`);
  }
}
