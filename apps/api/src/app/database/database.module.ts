import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../common/app-config';
import { dataSourceOptions } from './data-source';
import { DemoSeeder } from './demo-seed';
import { PreparedReads } from './prepared-query';

/**
 * PostgreSQL through TypeORM: migrations run at boot (`synchronize` stays off); optional demo seed.
 * Global: every module may inject `PreparedReads` for its hot read paths.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.databaseUrl),
        migrationsRun: true,
        retryAttempts: 3,
        retryDelay: 1000,
      }),
    }),
  ],
  providers: [DemoSeeder, PreparedReads],
  exports: [PreparedReads],
})
export class DatabaseModule {}
