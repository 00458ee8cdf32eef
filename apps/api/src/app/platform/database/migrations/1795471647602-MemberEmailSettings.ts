import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which event emails a business sends its members (issue 15 part 2; Account Settings → 'Emails
 * to members'): one column per email on `businesses`, each on by default.
 */
export class MemberEmailSettings1795471647602 implements MigrationInterface {
  name = 'MemberEmailSettings1795471647602';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE businesses
        ADD COLUMN member_email_friend_joined boolean NOT NULL DEFAULT true,
        ADD COLUMN member_email_branch_counting boolean NOT NULL DEFAULT true,
        ADD COLUMN member_email_branch_ended boolean NOT NULL DEFAULT true,
        ADD COLUMN member_email_welcome boolean NOT NULL DEFAULT true`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE businesses
        DROP COLUMN member_email_welcome,
        DROP COLUMN member_email_branch_ended,
        DROP COLUMN member_email_branch_counting,
        DROP COLUMN member_email_friend_joined`);
  }
}
