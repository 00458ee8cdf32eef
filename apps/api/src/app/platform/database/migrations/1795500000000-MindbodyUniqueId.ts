import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `members.mindbody_unique_id` and `prospects.mindbody_unique_id` (integer, null until the next
 * import or sync reads the client): Mindbody's `Client.UniqueId`, which the business cannot change,
 * becomes the key of a managed row. `mindbody_client_id` stays the client's current `Id` (the one
 * every Public API call takes), which the business can change (a barcode, `NewId`): an import or
 * sync that sees a known UniqueId under another Id moves the row to the new Id instead of adding a
 * member (docs/architecture.md#mindbody). One UniqueId per business (plain unique indexes: NULLs
 * are distinct).
 */
export class MindbodyUniqueId1795500000000 implements MigrationInterface {
  name = 'MindbodyUniqueId1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE members ADD COLUMN mindbody_unique_id integer NULL`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX members_business_mindbody_unique_key ON members (business_id, mindbody_unique_id)`,
    );
    await queryRunner.query(`ALTER TABLE prospects ADD COLUMN mindbody_unique_id integer NULL`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX prospects_business_mindbody_unique_key ON prospects (business_id, mindbody_unique_id)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX prospects_business_mindbody_unique_key`);
    await queryRunner.query(`ALTER TABLE prospects DROP COLUMN mindbody_unique_id`);
    await queryRunner.query(`DROP INDEX members_business_mindbody_unique_key`);
    await queryRunner.query(`ALTER TABLE members DROP COLUMN mindbody_unique_id`);
  }
}
