import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `members.mindbody_priced_at` (timestamptz, null = not yet): when Grove first read a Mindbody
 * member's price from its contract. The import stores members before their prices (a contract
 * read per client, done by the follow-up 'prices' job, docs/architecture.md#mindbody), so until then the Branches
 * screen shows "price not known yet" instead of a misleading $0.00. Managed members whose autopay
 * is already known count as priced.
 */
export class MindbodyPricedAt1764201600000 implements MigrationInterface {
  name = 'MindbodyPricedAt1764201600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE members ADD COLUMN mindbody_priced_at timestamptz NULL`);
    await queryRunner.query(
      `UPDATE members SET mindbody_priced_at = now()
       WHERE mindbody_client_id IS NOT NULL AND mindbody_autopay_cents IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE members DROP COLUMN mindbody_priced_at`);
  }
}
