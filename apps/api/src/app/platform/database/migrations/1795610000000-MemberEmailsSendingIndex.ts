import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The hourly sweep of member emails left 'sending' by an attempt that never came back
 * (`MemberEmailsRepository.settleAbandoned`, docs/decisions/member-emails-at-most-once.md) finds
 * them through this partial index: at any moment only the emails being sent are in it.
 */
export class MemberEmailsSendingIndex1795610000000 implements MigrationInterface {
  name = 'MemberEmailsSendingIndex1795610000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX member_emails_sending ON member_emails (delivered_at) WHERE status = 'sending'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX member_emails_sending`);
  }
}
