import type { MigrationInterface, QueryRunner } from 'typeorm';

const STATUSES_BEFORE = `'queued', 'held', 'sent', 'outboxed', 'unsubscribed', 'no_member', 'invalid_address'`;

/**
 * A member email is delivered at most once to the SMTP server (issue 31, docs/decisions/member-emails-at-most-once.md):
 * - 'sending': claimed by its delivery job in a committed statement just before SMTP; an attempt
 *   that failed where the server cannot have accepted it (refused, unreachable) puts it back to
 *   'queued' for the job's retry;
 * - 'uncertain': a retry found it still 'sending' (the attempt before died, or could not record
 *   the outcome, after the SMTP conversation began): it is not sent again.
 *
 * `down()` makes 'sending' rows 'queued' again and 'uncertain' rows 'sent'.
 */
export class MemberEmailSending1795607000000 implements MigrationInterface {
  name = 'MemberEmailSending1795607000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE member_emails DROP CONSTRAINT member_emails_status_known,
         ADD CONSTRAINT member_emails_status_known CHECK (status IN (
           ${STATUSES_BEFORE}, 'sending', 'uncertain'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE member_emails SET status = 'queued' WHERE status = 'sending'`);
    await queryRunner.query(`UPDATE member_emails SET status = 'sent' WHERE status = 'uncertain'`);
    await queryRunner.query(
      `ALTER TABLE member_emails DROP CONSTRAINT member_emails_status_known,
         ADD CONSTRAINT member_emails_status_known CHECK (status IN (${STATUSES_BEFORE}))`,
    );
  }
}
