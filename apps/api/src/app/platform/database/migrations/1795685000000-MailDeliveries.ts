import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31: Grove's own emails (the `mail.send` queue: password changed, email verification,
 * contact and lead messages, Stripe and Mindbody notices; and the reset links of the
 * `password-reset.email` queue) reach the SMTP server at most once, as member emails do
 * (docs/decisions/member-emails-at-most-once.md, docs/decisions/grove-emails-at-most-once.md).
 * `mail_deliveries` holds one row per delivery, keyed by its pg-boss job's id (a retry of the job
 * keeps the id): 'sending' is claimed, committed, just before SMTP; then 'sent', 'outboxed',
 * 'refused' (the recipient is not one plain mailbox) or 'uncertain' (an attempt began the SMTP
 * conversation and never recorded how it ended: never sent again). `claimed_at` is when the
 * attempt began; the hourly sweep settles rows 'sending' for an hour through the partial index.
 * No business column: Grove's own mail has none (as `outbox_emails`), and the row holds no
 * personal data (the email itself stays in the job).
 */
export class MailDeliveries1795685000000 implements MigrationInterface {
  name = 'MailDeliveries1795685000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE mail_deliveries (
         job_id uuid PRIMARY KEY,
         status text NOT NULL DEFAULT 'sending'
           CHECK (status IN ('sending', 'sent', 'outboxed', 'refused', 'uncertain')),
         claimed_at timestamptz NOT NULL DEFAULT now(),
         settled_at timestamptz
       )`,
    );
    await queryRunner.query(
      `CREATE INDEX mail_deliveries_sending ON mail_deliveries (claimed_at) WHERE status = 'sending'`,
    );
    await queryRunner.query(
      `CREATE INDEX mail_deliveries_claimed_at ON mail_deliveries (claimed_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE mail_deliveries`);
  }
}
