import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `members.mindbody_next_charge_cents` and `members.mindbody_next_charge_at` (null until read):
 * what Mindbody will charge a managed member next and when — the `ChargeAmount`s (tax and every
 * product of the contract included) of the contract's next `UpcomingAutopayEvents` date, as Grove
 * last read them (also right after each of its autopay writes). The Branches screen and the member
 * profile show it ('Mindbody will charge $X on 1 Dec', issue 22).
 */
export class MindbodyNextCharge1795500000003 implements MigrationInterface {
  name = 'MindbodyNextCharge1795500000003';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE members ADD COLUMN mindbody_next_charge_cents integer NULL,
         ADD COLUMN mindbody_next_charge_at timestamptz NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE members DROP COLUMN mindbody_next_charge_at, DROP COLUMN mindbody_next_charge_cents`,
    );
  }
}
