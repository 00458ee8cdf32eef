import type { MigrationInterface, QueryRunner } from 'typeorm';
import { isValidEmail } from '@grove/contracts';

/** The tables whose stored addresses the check reads, with what a row is called in the report. */
const CHECKED = [
  { table: 'members', what: 'member' },
  { table: 'prospects', what: 'prospective member' },
  { table: 'users', what: 'owner' },
] as const;

/** What the check found: per table, the ids (never the addresses) of rows failing the rule. */
export type EmailAddressReport = Record<(typeof CHECKED)[number]['table'], string[]>;

/**
 * One email address rule (issue 24 part 2): an address is one plain mailbox (`isValidEmail` in
 * contracts, RFC 5321/5322: no comments, lists, groups, display names, quoted strings, CR/LF).
 * Addresses stored before the rule may fail it; mail software would deliver them to another
 * mailbox than the one stored. This migration:
 *
 * - lets `member_emails.status` be 'invalid_address': a member email not sent because the
 *   member's stored address fails the rule (`MemberEmails.deliver` checks it at every delivery,
 *   so such a member is never emailed until the owner corrects the address; `MailService`
 *   refuses any other email to such an address);
 * - checks every stored address of members, prospects and owners against the rule and reports
 *   the rows that fail it (one 'warn' line per table with the row ids, never the addresses:
 *   no personal data in logs), so the operator can have them corrected;
 * - marks the member emails still queued for those members 'invalid_address' (not sent);
 * - adds `mindbody_integrations.invalid_emails`: how many clients of the last completed Mindbody
 *   import or sync had an email that is not one plain mailbox (stored with no email; the run's
 *   summary counts them, issue 24 part 3).
 *
 * Unlike the frozen SQL of other migrations, the check imports today's rule: it is a report and
 * a refusal to send, no data is rewritten, and a later, stricter rule should report more.
 * `down()` drops the column and restores the old status set; the rows it marked become
 * 'no_member' (not sent either).
 */
export class EmailAddressRule1795560000000 implements MigrationInterface {
  name = 'EmailAddressRule1795560000000';

  /** The report of the last `up()` (for tests and scripts; the log has it too). */
  static lastReport: EmailAddressReport | null = null;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE member_emails DROP CONSTRAINT member_emails_status_known,
         ADD CONSTRAINT member_emails_status_known CHECK (status IN (
           'queued', 'sent', 'outboxed', 'unsubscribed', 'no_member', 'invalid_address'))`,
    );
    await queryRunner.query(
      `ALTER TABLE mindbody_integrations ADD COLUMN invalid_emails integer NULL`,
    );
    const report = {} as EmailAddressReport;
    for (const { table, what } of CHECKED) {
      const rows = (await queryRunner.query(
        `SELECT id, email FROM ${table} WHERE email <> '' ORDER BY id`,
      )) as { id: string; email: string }[];
      report[table] = rows.filter((row) => !isValidEmail(row.email)).map((row) => row.id);
      if (report[table].length > 0)
        queryRunner.connection.logger.log(
          'warn',
          `EmailAddressRule: ${report[table].length} ${what} row(s) of ${table} have an email address that is not one plain mailbox and will not be emailed until it is corrected: ${report[table].join(', ')}`,
        );
    }
    if (report.members.length > 0)
      await queryRunner.query(
        `UPDATE member_emails SET status = 'invalid_address', delivered_at = now()
          WHERE status = 'queued' AND member_id = ANY($1::uuid[])`,
        [report.members],
      );
    EmailAddressRule1795560000000.lastReport = report;
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE mindbody_integrations DROP COLUMN invalid_emails`);
    await queryRunner.query(
      `UPDATE member_emails SET status = 'no_member' WHERE status = 'invalid_address'`,
    );
    await queryRunner.query(
      `ALTER TABLE member_emails DROP CONSTRAINT member_emails_status_known,
         ADD CONSTRAINT member_emails_status_known CHECK (status IN (
           'queued', 'sent', 'outboxed', 'unsubscribed', 'no_member'))`,
    );
  }
}
