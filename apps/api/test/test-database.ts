import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import PgBoss from 'pg-boss';
import { runMigrations } from '../src/app/database-schema';
import { JOBS_SCHEMA } from '../src/app/platform/jobs/jobs-schema';

/** Environment variables globalSetup leaves for the test workers. */
export const TEST_DB_ENV = {
  /** URL of a maintenance database on the test server (`…/postgres`). */
  adminUrl: 'GROVE_TEST_DB_ADMIN_URL',
  /** Name of the migrated template database each test file clones. */
  template: 'GROVE_TEST_DB_TEMPLATE',
} as const;

/** A database cloned for one test file. */
export interface TestDatabase {
  url: string;
  name: string;
  /** Drops the clone `WITH (FORCE)`. */
  drop(): Promise<void>;
}

/** Replaces the database name of a postgres URL. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const url = process.env[TEST_DB_ENV.adminUrl];
  if (!url)
    throw new Error(
      `${TEST_DB_ENV.adminUrl} is not set: run the tests with jest.integration.config.cjs`,
    );
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Clones the migrated template into a fresh database (`CREATE DATABASE … TEMPLATE …`), or with
 * `{ empty: true }` creates one no migration has touched (PostgreSQL's default template).
 */
export async function createTestDatabase({ empty = false } = {}): Promise<TestDatabase> {
  const template = process.env[TEST_DB_ENV.template];
  if (!template) throw new Error(`${TEST_DB_ENV.template} is not set`);
  const name = `grove_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((client) =>
    client.query(`CREATE DATABASE "${name}"${empty ? '' : ` TEMPLATE "${template}"`}`),
  );
  const url = withDatabase(process.env[TEST_DB_ENV.adminUrl] ?? '', name);
  return {
    name,
    url,
    drop: () =>
      admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

/**
 * Migrates the database at `url` and creates pg-boss's schema in it (pg-boss would create it on
 * each test database's first start; done once in the template, every clone is ready).
 */
export async function migrateTestDatabase(url: string): Promise<void> {
  await runMigrations(url);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(PgBoss.getConstructionPlans(JOBS_SCHEMA));
  } finally {
    await client.end();
  }
}
