import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keeps `businesses.member_count` equal to the business's number of members, so the trees table's
 * total costs one row read instead of counting 10,000 rows on every page. Statement-level
 * triggers with transition tables: a batch insert (e.g. a Mindbody import page) updates the
 * counter once per business, not once per row.
 */
export class BusinessMemberCount1763769600000 implements MigrationInterface {
  name = 'BusinessMemberCount1763769600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses ADD COLUMN member_count integer NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(`
      UPDATE businesses b SET member_count = c.n
      FROM (SELECT business_id, count(*)::int AS n FROM members GROUP BY business_id) c
      WHERE c.business_id = b.id`);
    await queryRunner.query(`
      CREATE FUNCTION members_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE businesses b SET member_count = b.member_count + n.added
        FROM (SELECT business_id, count(*)::int AS added FROM inserted GROUP BY business_id) n
        WHERE b.id = n.business_id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION members_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE businesses b SET member_count = b.member_count - d.removed
        FROM (SELECT business_id, count(*)::int AS removed FROM deleted GROUP BY business_id) d
        WHERE b.id = d.business_id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER members_count_after_insert AFTER INSERT ON members
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION members_count_inserted()`);
    await queryRunner.query(`
      CREATE TRIGGER members_count_after_delete AFTER DELETE ON members
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION members_count_deleted()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER members_count_after_delete ON members`);
    await queryRunner.query(`DROP TRIGGER members_count_after_insert ON members`);
    await queryRunner.query(`DROP FUNCTION members_count_deleted()`);
    await queryRunner.query(`DROP FUNCTION members_count_inserted()`);
    await queryRunner.query(`ALTER TABLE businesses DROP COLUMN member_count`);
  }
}
