import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `businesses.member_search_version`: a number that changes whenever what the members search
 * reads of a business changes: a member added or removed, or a member's name, email, date added
 * or business changed. The API's in-memory search index (`MemberSearchIndex`) is built with the
 * version it saw and checks it in the same statement that reads each result page, so an index
 * another API instance built before a write is never used after it
 * (docs/decisions/members-search-in-memory.md).
 *
 * Statement-level triggers with transition tables, as the member counter (`business-counter.ts`):
 * a batch bumps each business once. An UPDATE bumps only businesses whose members' searched
 * columns really changed (a price, a branch starting to count or a Mindbody sync that renames
 * nobody leave it, and take no lock on the business row). `down()` drops them and the column.
 */
export class MemberSearchVersion1795492664065 implements MigrationInterface {
  name = 'MemberSearchVersion1795492664065';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses ADD COLUMN member_search_version bigint NOT NULL DEFAULT 0`,
    );
    const bump = (name: string, changed: string) => `
      CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE businesses b SET member_search_version = b.member_search_version + 1
        WHERE b.id IN (${changed});
        RETURN NULL;
      END $$`;
    await queryRunner.query(
      bump('members_search_version_inserted', 'SELECT business_id FROM inserted'),
    );
    await queryRunner.query(
      bump('members_search_version_deleted', 'SELECT business_id FROM deleted'),
    );
    await queryRunner.query(
      bump(
        'members_search_version_updated',
        `SELECT o.business_id FROM old_rows o JOIN new_rows n ON n.id = o.id
         WHERE n.name IS DISTINCT FROM o.name OR n.email IS DISTINCT FROM o.email
            OR n.created_at IS DISTINCT FROM o.created_at OR n.business_id <> o.business_id
         UNION SELECT n.business_id FROM old_rows o JOIN new_rows n ON n.id = o.id
         WHERE n.business_id <> o.business_id`,
      ),
    );
    await queryRunner.query(
      `CREATE TRIGGER members_search_version_after_insert AFTER INSERT ON members
       REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION members_search_version_inserted()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER members_search_version_after_delete AFTER DELETE ON members
       REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION members_search_version_deleted()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER members_search_version_after_update AFTER UPDATE ON members
       REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION members_search_version_updated()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER members_search_version_after_update ON members`);
    await queryRunner.query(`DROP TRIGGER members_search_version_after_delete ON members`);
    await queryRunner.query(`DROP TRIGGER members_search_version_after_insert ON members`);
    await queryRunner.query(`DROP FUNCTION members_search_version_updated()`);
    await queryRunner.query(`DROP FUNCTION members_search_version_deleted()`);
    await queryRunner.query(`DROP FUNCTION members_search_version_inserted()`);
    await queryRunner.query(`ALTER TABLE businesses DROP COLUMN member_search_version`);
  }
}
