import { IsOptional, IsString, MinLength } from 'class-validator';
import { EnvInt, EnvUrl } from '../common/config/env-section';

/** The database environment variables. */
export class DatabaseEnv {
  /** `postgres://user:pass@host:port/db` (required). */
  @IsString()
  @MinLength(1)
  DATABASE_URL!: string;

  /**
   * `postgres://owner:pass@host:port/db`: the role that owns the tables and runs the migrations
   * (and, at each start, grants DATABASE_URL's role what the API needs and nothing more:
   * `app-role.ts`). Unset: DATABASE_URL's role does both (`npm start`, the tests).
   */
  @EnvUrl(['postgres', 'postgresql'])
  @IsOptional()
  DATABASE_MIGRATION_URL?: string;

  /**
   * Milliseconds to open a database connection (TCP + startup) or to wait for a free pooled one;
   * past it the request answers 503. Applies to every pool (TypeORM, prepared reads, pg-boss).
   */
  @EnvInt(100, 600_000)
  DATABASE_CONNECT_TIMEOUT_MS = 5000;

  /**
   * Milliseconds one statement may run: PostgreSQL cancels it past this (`statement_timeout`), and
   * a server that does not answer at all is given up 1 s later (the driver's `query_timeout`); the
   * request answers 503. Migrations are not bounded.
   */
  @EnvInt(100, 3_600_000)
  DATABASE_STATEMENT_TIMEOUT_MS = 10_000;
}

/** How long the API waits on PostgreSQL (milliseconds); see `databasePoolOptions`. */
export interface DatabaseTimeouts {
  /** Opening a connection, or waiting for a free one in a pool. */
  connectMs: number;
  /** One statement (`statement_timeout`; the client gives up `STATEMENT_GRACE_MS` later). */
  statementMs: number;
}

/** `AppConfig.databaseUrl` and `AppConfig.databaseTimeouts` from the validated variables. */
export function readDatabaseConfig(vars: DatabaseEnv): {
  databaseUrl: string;
  /** DATABASE_MIGRATION_URL, or null when DATABASE_URL's role migrates too. */
  databaseMigrationUrl: string | null;
  /** DATABASE_CONNECT_TIMEOUT_MS and DATABASE_STATEMENT_TIMEOUT_MS. */
  databaseTimeouts: DatabaseTimeouts;
} {
  return {
    databaseUrl: vars.DATABASE_URL,
    databaseMigrationUrl: vars.DATABASE_MIGRATION_URL ?? null,
    databaseTimeouts: {
      connectMs: vars.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: vars.DATABASE_STATEMENT_TIMEOUT_MS,
    },
  };
}
