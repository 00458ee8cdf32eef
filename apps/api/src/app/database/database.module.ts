import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions.js';
import { dataSourceOptions, runMigrations } from './data-source';
import { DemoSeeder } from './demo-seed';
import type { PoolTimeoutOptions } from './pool-options';
import { PreparedReads } from './prepared-query';

/**
 * PostgreSQL through TypeORM: migrations run at boot, unbounded, on a connection of their own
 * (`synchronize` stays off); then the API's pool opens with DATABASE_CONNECT_TIMEOUT_MS and
 * DATABASE_STATEMENT_TIMEOUT_MS. Optional demo seed. Global: every module may inject
 * `PreparedReads` for its hot read paths.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.databaseUrl, config.databaseTimeouts),
        retryAttempts: 3,
        retryDelay: 1000,
      }),
      // Retried with the options above when PostgreSQL is not up yet.
      dataSourceFactory: async (options) => {
        const { url, extra } = options as PostgresDataSourceOptions & { extra: PoolTimeoutOptions };
        await runMigrations(url ?? '', extra.connectionTimeoutMillis);
        return new DataSource(options as PostgresDataSourceOptions);
      },
    }),
  ],
  providers: [DemoSeeder, PreparedReads],
  exports: [PreparedReads],
})
export class DatabaseModule {}
