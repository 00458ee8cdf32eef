import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The members search (name or email contains the text) through keys that belong to ONE business:
 * `member_search_keys(business, name, email)` is the set of the trigrams pg_trgm finds inside
 * the words of the name and the email (`show_trgm`, those without its padding blanks), each
 * hashed together with the business id into a bigint; `members_search_keys_idx` is a GIN index
 * on it. A search for "patel" looks up the three keys of ("patel", its business), whose posting
 * lists hold only that business's matches, where `members_business_search_idx` (migration
 * BusinessLedSearchIndex, dropped here) decoded the trigrams' lists of every business and
 * intersected them with the business's. The keys are a filter only: the search still checks
 * `lower(name|email) LIKE '%…%'` on every row they yield (a hash may collide, a trigram set is
 * not a substring), see `memberSearch` in members/members.repository.ts and
 * docs/decisions/business-led-list-indexes.md.
 *
 * The function names pg_trgm's schema (found here) so it resolves whatever the search_path of the
 * session that builds or uses the index; it is IMMUTABLE (show_trgm and hashtextextended are).
 */
export class MemberSearchKeys1795482825286 implements MigrationInterface {
  name = 'MemberSearchKeys1795482825286';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [trgm] = (await queryRunner.query(
      `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
       WHERE e.extname = 'pg_trgm'`,
    )) as { schema: string }[];
    const showTrgm = `"${trgm.schema.replace(/"/g, '""')}".show_trgm`;
    await queryRunner.query(
      `CREATE FUNCTION member_search_keys(business uuid, name text, email text) RETURNS bigint[]
       LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
         SELECT coalesce(array_agg(DISTINCT hashtextextended(business::text || trigram, 0)), '{}')
         FROM unnest(${showTrgm}(coalesce(name, '')) || ${showTrgm}(coalesce(email, ''))) AS trigram
         WHERE position(' ' IN trigram) = 0
       $$`,
    );
    await queryRunner.query(
      `CREATE INDEX members_search_keys_idx ON members
       USING gin (member_search_keys(business_id, name, email))`,
    );
    await queryRunner.query(`DROP INDEX members_business_search_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX members_business_search_idx ON members
       USING gin (business_id, lower(name) gin_trgm_ops, lower(email) gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP INDEX members_search_keys_idx`);
    await queryRunner.query(`DROP FUNCTION member_search_keys(uuid, text, text)`);
  }
}
