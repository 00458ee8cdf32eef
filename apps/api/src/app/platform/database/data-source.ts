// The driver is imported here so a bundled API always carries it (docs/architecture.md#build-and-tests).
import 'pg';
import { DataSource, MigrationExecutor, type DataSourceOptions } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions.js';
import { CloseUnansweredConnections, poolTimeoutOptions } from './pool-options';
import { PinoTypeOrmLogger } from './typeorm-logger';
import type { DatabaseTimeouts } from './database.config';

/**
 * Every entity and every migration of Grove's database, listed explicitly (a bundle cannot glob).
 * The lists belong to the root (`apps/api/src/app/database-schema.ts`), which may name every
 * area's entities; platform only runs them (docs/architecture.md#api-areas).
 */
export interface DatabaseSchema {
  readonly entities: Extract<DataSourceOptions['entities'], readonly unknown[]>;
  readonly migrations: Extract<DataSourceOptions['migrations'], readonly unknown[]>;
}

/**
 * TypeORM options for Grove's PostgreSQL: migrations only (`synchronize: false`), each migration
 * in its own transaction; log lines through `PinoTypeOrmLogger` (never a statement's parameters).
 * @param schema every entity and migration (the root's `DATABASE_SCHEMA`)
 * @param url a `postgres://` connection URL
 * @param timeouts bound every connect and statement (`poolTimeoutOptions`); left out (migrations,
 *   scripts) nothing is bounded
 */
export function dataSourceOptions(
  schema: DatabaseSchema,
  url: string,
  timeouts?: DatabaseTimeouts,
): PostgresDataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: schema.entities,
    migrations: schema.migrations,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: ['error', 'warn', 'migration'],
    logger: new PinoTypeOrmLogger(),
    ...(timeouts
      ? { extra: poolTimeoutOptions(timeouts), subscribers: [CloseUnansweredConnections] }
      : {}),
  };
}

/**
 * Key of the session-level advisory lock {@link runMigrations} holds while it migrates (one
 * bigint key; the other advisory locks use `hashtext` of their own names).
 */
export const MIGRATIONS_LOCK_KEY = 7_264_031_905;

/**
 * Runs the pending migrations on a connection of their own without statement timeout (a
 * migration may build an index on a large table), then closes it. Several API instances may
 * start at once (docker-compose.yml runs replicas): each takes the session-level advisory lock
 * {@link MIGRATIONS_LOCK_KEY} on that connection first and keeps it until its migrations are done,
 * so a second instance waits for the first and then finds nothing to run. The lock goes with the
 * connection, also when a migration fails or the process dies.
 * @param schema every entity and migration (the root's `DATABASE_SCHEMA`)
 * @param connectMs how long connecting may take (ms; 0 = no limit)
 * @throws what a migration throws (the failed migration is rolled back), or the connect error
 */
export async function runMigrations(
  schema: DatabaseSchema,
  url: string,
  connectMs = 0,
): Promise<void> {
  const dataSource = await new DataSource({
    ...dataSourceOptions(schema, url),
    connectTimeoutMS: connectMs,
  }).initialize();
  try {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.query(`SELECT pg_advisory_lock($1)`, [MIGRATIONS_LOCK_KEY]);
      try {
        const executor = new MigrationExecutor(dataSource, runner);
        executor.transaction = 'each';
        await executor.executePendingMigrations();
      } finally {
        await runner.query(`SELECT pg_advisory_unlock($1)`, [MIGRATIONS_LOCK_KEY]);
      }
    } finally {
      await runner.release();
    }
  } finally {
    await dataSource.destroy();
  }
}

/**
 * A standalone (not yet initialised) DataSource, for tests and scripts that migrate or inspect a
 * database outside Nest. Call `initialize()` and, when done, `destroy()`.
 */
export function createDataSource(schema: DatabaseSchema, url: string): DataSource {
  return new DataSource(dataSourceOptions(schema, url));
}
