import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Data rights and verified senders (issue 34 items 4 and 6, docs/product.md#data-rights,
 * docs/product.md#verified-senders):
 *
 * - `business_exports`: one row per export of a business's data (a ZIP of CSV files made by the
 *   `data-export.build` job): its state and progress (`done_steps` of `total_steps`, one step per
 *   file), its size in bytes, and when it stops being downloadable (`expires_at`). One export
 *   queued or running per business (the partial unique index).
 * - `business_export_chunks`: the ZIP itself, in the order it was written (`seq`), in pieces of
 *   at most 1 MiB, so neither the job nor the download ever holds the whole file; gone with its
 *   export.
 * - `erased_member_emails`: the HMAC-SHA-256 (hex) of each erased member's email key under the
 *   server's key, per business: an import or add of that address asks the owner first. The
 *   address itself is not kept.
 * - `members.erased_at`: when the member's name, email and phone were replaced.
 * - `businesses.closing_at`: when a closing business is deleted (30 days after the owner asked);
 *   NULL while the business is open.
 * - `businesses.sender_verified_at`: when an owner verified their email, so Grove may email
 *   members on the business's behalf; every business existing now counts as verified.
 * - `email_verifications`: the SHA-256 (hex) of each verification link's token, single-use,
 *   valid 24 hours.
 * - `member_emails`: status 'held' (waiting: the sender is not verified yet, or the day's cap is
 *   reached) and `held_reason`.
 */
export class DataRights1795584000000 implements MigrationInterface {
  name = 'DataRights1795584000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE business_exports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
      requested_by uuid REFERENCES users(id) ON DELETE SET NULL,
      state text NOT NULL DEFAULT 'queued'
        CONSTRAINT business_exports_state_known CHECK (state IN ('queued', 'running', 'done', 'failed')),
      done_steps integer NOT NULL DEFAULT 0,
      total_steps integer NOT NULL DEFAULT 0,
      size_bytes bigint NOT NULL DEFAULT 0,
      error text,
      job_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      expires_at timestamptz
    )`);
    await queryRunner.query(
      `CREATE INDEX business_exports_business_created ON business_exports (business_id, created_at DESC)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX business_exports_one_running ON business_exports (business_id)
        WHERE state IN ('queued', 'running')`,
    );
    await queryRunner.query(`CREATE TABLE business_export_chunks (
      export_id uuid NOT NULL REFERENCES business_exports(id) ON DELETE CASCADE,
      seq integer NOT NULL,
      data bytea NOT NULL,
      PRIMARY KEY (export_id, seq)
    )`);
    await queryRunner.query(`CREATE TABLE erased_member_emails (
      business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
      email_hash text NOT NULL,
      erased_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (business_id, email_hash)
    )`);
    await queryRunner.query(`ALTER TABLE members ADD COLUMN erased_at timestamptz`);
    await queryRunner.query(`ALTER TABLE businesses
      ADD COLUMN closing_at timestamptz,
      ADD COLUMN sender_verified_at timestamptz`);
    await queryRunner.query(`UPDATE businesses SET sender_verified_at = now()`);
    await queryRunner.query(`CREATE TABLE email_verifications (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`);
    await queryRunner.query(
      `CREATE INDEX email_verifications_user ON email_verifications (user_id)`,
    );
    await queryRunner.query(
      `ALTER TABLE member_emails DROP CONSTRAINT member_emails_status_known,
         ADD CONSTRAINT member_emails_status_known CHECK (status IN (
           'queued', 'held', 'sent', 'outboxed', 'unsubscribed', 'no_member', 'invalid_address')),
         ADD COLUMN held_reason text
           CONSTRAINT member_emails_held_reason_known CHECK (held_reason IN ('unverified_sender', 'daily_cap'))`,
    );
    await queryRunner.query(
      `CREATE INDEX member_emails_held ON member_emails (business_id, created_at) WHERE status = 'held'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE member_emails SET status = 'queued' WHERE status = 'held'`);
    await queryRunner.query(`DROP INDEX member_emails_held`);
    await queryRunner.query(
      `ALTER TABLE member_emails DROP COLUMN held_reason, DROP CONSTRAINT member_emails_status_known,
         ADD CONSTRAINT member_emails_status_known CHECK (status IN (
           'queued', 'sent', 'outboxed', 'unsubscribed', 'no_member', 'invalid_address'))`,
    );
    await queryRunner.query(`DROP TABLE email_verifications`);
    await queryRunner.query(
      `ALTER TABLE businesses DROP COLUMN closing_at, DROP COLUMN sender_verified_at`,
    );
    await queryRunner.query(`ALTER TABLE members DROP COLUMN erased_at`);
    await queryRunner.query(`DROP TABLE erased_member_emails`);
    await queryRunner.query(`DROP TABLE business_export_chunks`);
    await queryRunner.query(`DROP TABLE business_exports`);
  }
}
