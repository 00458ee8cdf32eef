import { createHash } from 'node:crypto';
import type { Pool, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/** A SQL statement with the name PostgreSQL prepares it under (one per distinct text). */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

const known = new Map<string, PreparedStatement>();

/**
 * Names `text` for `queryPrepared`: the name is derived from the text, so two different texts
 * never share a name (pg refuses that) and the same text always maps to the same one. Remembers
 * each text, so build texts only from fixed fragments (a handful of variants); user input goes in
 * the values, never in the text.
 */
export function preparedStatement(text: string): PreparedStatement {
  let statement = known.get(text);
  if (!statement) {
    statement = { name: `grove_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`, text };
    known.set(text, statement);
  }
  return statement;
}

/**
 * Runs `statement` on TypeORM's own pg pool as a NAMED prepared statement: each pooled connection
 * parses and plans it once, later calls only bind and execute. For the hot read paths (the
 * session check of every request, the members page), where TypeORM's query path and PostgreSQL's
 * per-call parse + plan were measurable (`npm run bench:members`, see the callers). Reads only:
 * writes keep going through TypeORM and its transactions.
 *
 * Pass plain text instead of a `PreparedStatement` for a statement whose best plan depends on its
 * values (e.g. a LIKE search): it then runs unnamed and is planned for these values, because after
 * five runs PostgreSQL may switch a prepared statement to one generic plan for all values.
 *
 * @param values positional parameters `$1…`
 * @returns the rows, as pg parses them (timestamptz → Date, json → parsed value)
 * @throws whatever pg throws (connection errors, SQL errors) — mapped to 500 by the global filter
 */
export async function queryPrepared<R extends QueryResultRow>(
  dataSource: DataSource,
  statement: PreparedStatement | string,
  values: readonly unknown[],
): Promise<R[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  const config =
    typeof statement === 'string'
      ? { text: statement, values: values as unknown[] }
      : { name: statement.name, text: statement.text, values: values as unknown[] };
  const result = await pool.query<R>(config);
  return result.rows;
}
