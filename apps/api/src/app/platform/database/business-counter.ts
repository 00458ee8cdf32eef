import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The SQL of a trigger-kept per-business row counter: `businesses.<column>` stays equal to the
 * number of rows of `table` (which has a `business_id`) for each business, so a list's total costs
 * one row read instead of counting the business's rows. Statement-level triggers with transition
 * tables: a batch insert or delete (a Mindbody import page, rows removed through a foreign key's
 * cascade) updates each business's counter once, not once per row. Names: functions
 * `<table>_count_inserted|deleted()`, triggers `<table>_count_after_insert|delete`.
 * Migrations run these statements (`BusinessMemberCount`, `BusinessProspectCount`): a change here
 * changes what those migrations did, so add a new function instead of editing this one.
 * @param table the counted table, e.g. `members`
 * @param column the counter column of `businesses`, e.g. `member_count`
 * @returns `up`: add the column (0), set it from the rows already there, create the functions and
 *   triggers; `down`: drop them all, in reverse
 */
export function businessCounterSql(
  table: string,
  column: string,
): { up: string[]; down: string[] } {
  const step = (event: 'inserted' | 'deleted', sign: '+' | '-') => `
    CREATE FUNCTION ${table}_count_${event}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE businesses b SET ${column} = b.${column} ${sign} c.n
      FROM (SELECT business_id, count(*)::int AS n FROM ${event} GROUP BY business_id) c
      WHERE b.id = c.business_id;
      RETURN NULL;
    END $$`;
  return {
    up: [
      `ALTER TABLE businesses ADD COLUMN ${column} integer NOT NULL DEFAULT 0`,
      `UPDATE businesses b SET ${column} = c.n
       FROM (SELECT business_id, count(*)::int AS n FROM ${table} GROUP BY business_id) c
       WHERE c.business_id = b.id`,
      step('inserted', '+'),
      step('deleted', '-'),
      `CREATE TRIGGER ${table}_count_after_insert AFTER INSERT ON ${table}
       REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ${table}_count_inserted()`,
      `CREATE TRIGGER ${table}_count_after_delete AFTER DELETE ON ${table}
       REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION ${table}_count_deleted()`,
    ],
    down: [
      `DROP TRIGGER ${table}_count_after_delete ON ${table}`,
      `DROP TRIGGER ${table}_count_after_insert ON ${table}`,
      `DROP FUNCTION ${table}_count_deleted()`,
      `DROP FUNCTION ${table}_count_inserted()`,
      `ALTER TABLE businesses DROP COLUMN ${column}`,
    ],
  };
}

/**
 * A migration that adds one {@link businessCounterSql} counter: a subclass names itself
 * (`name`, TypeORM's `<Name><timestamp>`), the counted `table` and the `businesses` `column`.
 */
export abstract class BusinessCounterMigration implements MigrationInterface {
  abstract readonly name: string;
  protected abstract readonly table: string;
  protected abstract readonly column: string;

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of businessCounterSql(this.table, this.column).up)
      await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of businessCounterSql(this.table, this.column).down)
      await queryRunner.query(statement);
  }
}
