import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Optional auto-approval of prospects (issue 15 parts 3 and 4): a business setting, off by
 * default. When on, a friend whose join raised no fraud signal becomes a branch and a tree at once,
 * at the referrer's membership price and discount (Prospective Members, 'Approve automatically').
 */
export class ProspectAutoApprove1795472904475 implements MigrationInterface {
  name = 'ProspectAutoApprove1795472904475';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses ADD COLUMN auto_approve_prospects boolean NOT NULL DEFAULT false`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE businesses DROP COLUMN auto_approve_prospects`);
  }
}
