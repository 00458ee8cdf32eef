import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions.js';
import { dataSourceOptions, runMigrations, type DatabaseSchema } from './data-source';
import type { PoolTimeoutOptions } from './pool-options';
import { PreparedReads } from './prepared-query';

/**
 * PostgreSQL through TypeORM: migrations run at boot, unbounded, on a connection of their own
 * (`synchronize` stays off); then the API's pool opens with DATABASE_CONNECT_TIMEOUT_MS and
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
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(schema, config.databaseUrl, config.databaseTimeouts),
            retryAttempts: 3,
            retryDelay: 1000,
          }),
          // Retried with the options above when PostgreSQL is not up yet.
          dataSourceFactory: async (options) => {
            const { url, extra } = options as PostgresDataSourceOptions & {
              extra: PoolTimeoutOptions;
            };
            await runMigrations(schema, url ?? '', extra.connectionTimeoutMillis);
            return new DataSource(options as PostgresDataSourceOptions);
          },
        }),
      ],
      providers: [PreparedReads],
      exports: [PreparedReads],
    };
  }
}
