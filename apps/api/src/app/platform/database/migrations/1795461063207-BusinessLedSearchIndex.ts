import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The members search (name or email contains the text, `lower(…) LIKE '%…%'`) through ONE trigram
 * index that leads with the business: `members_business_search_idx`, a GIN index on
 * (business_id, lower(name) gin_trgm_ops, lower(email) gin_trgm_ops). It replaces the two
 * trigram indexes of InitialSchema, which indexed every business's members together, so a search
 * fetched the matches of all businesses; led by the business, the index yields only the
 * business's own (docs/decisions/business-led-list-indexes.md). One index instead of two also
 * leaves the import one index fewer to write.
 *
 * A GIN index on a uuid column needs the `btree_gin` extension (PostgreSQL contrib, like pg_trgm;
 * trusted, so a database owner may create it).
 */
export class BusinessLedSearchIndex1795461063207 implements MigrationInterface {
  name = 'BusinessLedSearchIndex1795461063207';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    await queryRunner.query(
      `CREATE INDEX members_business_search_idx ON members
       USING gin (business_id, lower(name) gin_trgm_ops, lower(email) gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP INDEX members_name_trgm_idx`);
    await queryRunner.query(`DROP INDEX members_email_trgm_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX members_name_trgm_idx ON members USING gin (lower(name) gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX members_email_trgm_idx ON members USING gin (lower(email) gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP INDEX members_business_search_idx`);
    // btree_gin is left installed: other schemas in the database may use it.
  }
}
