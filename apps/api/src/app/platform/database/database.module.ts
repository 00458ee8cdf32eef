import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions.js';
import { dataSourceOptions, runMigrations, type DatabaseSchema } from './data-source';
import type { PoolTimeoutOptions } from './pool-options';
import { PreparedReads } from './prepared-query';
import { grantAppRole } from './app-role';

/**
 * PostgreSQL through TypeORM: migrations run at boot, unbounded, on a connection of their own
 * (`synchronize` stays off), as DATABASE_MIGRATION_URL's role when set, which then grants
 * DATABASE_URL's role what the API needs (`grantAppRole`); then the API's pool opens with DATABASE_CONNECT_TIMEOUT_MS and
 * DATABASE_STATEMENT_TIMEOUT_MS. Global: every module may inject
 * `PreparedReads` for its hot read paths.
 */
@Global()
@Module({})
export class DatabaseModule {
  /**
   * @param schema every entity and migration (the root's `DATABASE_SCHEMA`)
   * @returns the module: TypeORM's data source (migrated at boot) and `PreparedReads`
   */
  static forRoot(schema: DatabaseSchema): DynamicModule {
    // DATABASE_MIGRATION_URL, read by the options' factory for the data source's factory.
    let migrationUrl: string | null = null;
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => {
            migrationUrl = config.databaseMigrationUrl;
            return {
              ...dataSourceOptions(schema, config.databaseUrl, config.databaseTimeouts),
              retryAttempts: 3,
              retryDelay: 1000,
            };
          },
          // Retried with the options above when PostgreSQL is not up yet.
          dataSourceFactory: async (options) => {
            const { url, extra } = options as PostgresDataSourceOptions & {
              extra: PoolTimeoutOptions;
            };
            await runMigrations(schema, migrationUrl ?? url ?? '', extra.connectionTimeoutMillis);
            if (migrationUrl) await grantAppRole(migrationUrl, url ?? '');
            return new DataSource(options as PostgresDataSourceOptions);
          },
        }),
      ],
      providers: [PreparedReads],
      exports: [PreparedReads],
    };
  }
}
