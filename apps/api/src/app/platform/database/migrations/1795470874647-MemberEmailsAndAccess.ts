import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Members in the loop (issue 15): emails to members and their own page.
 *
 * - `member_emails`: one row per email event sent to a member (`template`, the template's `data`
 *   as JSON, the site `origin` its links use). `event_key` is UNIQUE per business, so one event
 *   (e.g. "friend X approved") is emailed once however often it is recorded; `status` follows
 *   delivery: queued → sent (SMTP) / outboxed (no SMTP_URL) / unsubscribed (not sent: the member
 *   opted out) / no_member (the member was removed before delivery). `member_id` is a plain
 *   column: the history stays when the member goes.
 * - `member_email_subscriptions`: one per member, made with the first email: the member's
 *   unsubscribe token (random, 256 bits; it can only unsubscribe, so it is kept as it is to be put
 *   in every email) and when they unsubscribed.
 * - `member_magic_links`: sign-in links to the member page, SHA-256 of the token only (like
 *   refresh tokens), single use (`used_at`), expiring (`expires_at`).
 * - `member_sessions`: a member page session (its own cookie, never an owner's), SHA-256 of the
 *   token, expiring, revocable.
 * - `members (email_key)` index: a member asking for a new link is found by email across businesses.
 * - `outbox_emails`: the HTML part, the sender's display name and the extra headers (List-Unsubscribe)
 *   of emails kept there without SMTP_URL.
 */
/**
 * A table of hashed member tokens (magic links, sessions): one member of one business each,
 * expiring, and ended early by `endedColumn` (used, revoked).
 */
function memberTokenTable(name: string, endedColumn: string): string {
  return `
      CREATE TABLE ${name} (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        ${endedColumn} timestamptz NULL
      )`;
}

export class MemberEmailsAndAccess1795470874647 implements MigrationInterface {
  name = 'MemberEmailsAndAccess1795470874647';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE member_emails (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        member_id uuid NOT NULL,
        template text NOT NULL,
        data jsonb NOT NULL,
        origin text NOT NULL,
        event_key text NOT NULL,
        status text NOT NULL DEFAULT 'queued',
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz NULL,
        CONSTRAINT member_emails_status_known CHECK (status IN (
          'queued', 'sent', 'outboxed', 'unsubscribed', 'no_member')),
        CONSTRAINT member_emails_event_key UNIQUE (business_id, event_key)
      )`);
    await queryRunner.query(
      `CREATE INDEX member_emails_member_idx ON member_emails (business_id, member_id, template, created_at)`,
    );
    await queryRunner.query(`
      CREATE TABLE member_email_subscriptions (
        member_id uuid PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        unsubscribe_token text NOT NULL UNIQUE,
        unsubscribed_at timestamptz NULL
      )`);
    await queryRunner.query(memberTokenTable('member_magic_links', 'used_at'));
    await queryRunner.query(memberTokenTable('member_sessions', 'revoked_at'));
    await queryRunner.query(`CREATE INDEX members_email_key_idx ON members (email_key)`);
    await queryRunner.query(`
      ALTER TABLE outbox_emails
        ADD COLUMN html text NULL,
        ADD COLUMN from_name text NULL,
        ADD COLUMN headers jsonb NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE outbox_emails DROP COLUMN headers, DROP COLUMN from_name, DROP COLUMN html`);
    await queryRunner.query(`DROP INDEX members_email_key_idx`);
    await queryRunner.query(`DROP TABLE member_sessions`);
    await queryRunner.query(`DROP TABLE member_magic_links`);
    await queryRunner.query(`DROP TABLE member_email_subscriptions`);
    await queryRunner.query(`DROP TABLE member_emails`);
  }
}
