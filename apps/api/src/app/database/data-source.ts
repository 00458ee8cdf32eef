// The driver is imported here so a bundled API always carries it (docs/architecture.md#build-and-tests).
import 'pg';
import { DataSource, MigrationExecutor } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions.js';
import { BusinessEntity } from '../auth/business.entity';
import { SessionEntity } from '../auth/session.entity';
import { UserEntity } from '../auth/user.entity';
import { MemberEntity } from '../members/member.entity';
import { MindbodyIntegrationEntity } from '../mindbody/persistence/mindbody-integration.entity';
import { ProspectEntity } from '../prospects/prospect.entity';
import { ReferralLinkEntity } from '../referrals/referral-link.entity';
import { InitialSchema1763683200000 } from './migrations/1763683200000-InitialSchema';
import { BusinessMemberCount1763769600000 } from './migrations/1763769600000-BusinessMemberCount';
import { ReferralLinksAndProspects1763856000000 } from './migrations/1763856000000-ReferralLinksAndProspects';
import { ContactSupportLeads1764028800000 } from './migrations/1764028800000-ContactSupportLeads';
import { MindbodyIntegrations1764115200000 } from './migrations/1764115200000-MindbodyIntegrations';
import { MindbodyPricedAt1764201600000 } from './migrations/1764201600000-MindbodyPricedAt';
import { JoinFlags1795460494289 } from './migrations/1795460494289-JoinFlags';
import { ThrottleCounters1795460524976 } from './migrations/1795460524976-ThrottleCounters';
import { SessionFamilies1795460545382 } from './migrations/1795460545382-SessionFamilies';
import { BusinessLedSearchIndex1795461063207 } from './migrations/1795461063207-BusinessLedSearchIndex';
import { LifecycleFacts1795470615350 } from './migrations/1795470615350-LifecycleFacts';
import { LinksForEveryone1795470827431 } from './migrations/1795470827431-LinksForEveryone';
import { FraudSignals1795470868763 } from './migrations/1795470868763-FraudSignals';
import { MemberImports1795470869787 } from './migrations/1795470869787-MemberImports';
import { MemberEmailsAndAccess1795470874647 } from './migrations/1795470874647-MemberEmailsAndAccess';
import { AnalyticsVersionIndexes1795470887755 } from './migrations/1795470887755-AnalyticsVersionIndexes';
import { MemberEmailSettings1795471647602 } from './migrations/1795471647602-MemberEmailSettings';
import { LifecycleBackfill1795471666404 } from './migrations/1795471666404-LifecycleBackfill';
import { ProspectAutoApprove1795472904475 } from './migrations/1795472904475-ProspectAutoApprove';
import { BranchQualification1795481534511 } from './migrations/1795481534511-BranchQualification';
import { BranchCountingRule1795481825526 } from './migrations/1795481825526-BranchCountingRule';
import { ReferralEmailRuns1795482010116 } from './migrations/1795482010116-ReferralEmailRuns';
import { MemberSearchKeys1795482825286 } from './migrations/1795482825286-MemberSearchKeys';
import { BusinessProspectCount1795482902020 } from './migrations/1795482902020-BusinessProspectCount';
import { MemberSearchVersion1795492664065 } from './migrations/1795492664065-MemberSearchVersion';
import { CloseUnansweredConnections, poolTimeoutOptions } from './pool-options';
import { PinoTypeOrmLogger } from './typeorm-logger';
import type { DatabaseTimeouts } from './database.config';

/** Every entity, listed explicitly (a bundle cannot glob). */
export const ENTITIES = [
  BusinessEntity,
  UserEntity,
  SessionEntity,
  MemberEntity,
  ReferralLinkEntity,
  ProspectEntity,
  MindbodyIntegrationEntity,
];

/** Every migration in order, listed explicitly (a bundle cannot glob). */
export const MIGRATIONS = [
  InitialSchema1763683200000,
  BusinessMemberCount1763769600000,
  ReferralLinksAndProspects1763856000000,
  ContactSupportLeads1764028800000,
  MindbodyIntegrations1764115200000,
  MindbodyPricedAt1764201600000,
  JoinFlags1795460494289,
  ThrottleCounters1795460524976,
  SessionFamilies1795460545382,
  BusinessLedSearchIndex1795461063207,
  LifecycleFacts1795470615350,
  LinksForEveryone1795470827431,
  FraudSignals1795470868763,
  MemberImports1795470869787,
  MemberEmailsAndAccess1795470874647,
  AnalyticsVersionIndexes1795470887755,
  MemberEmailSettings1795471647602,
  LifecycleBackfill1795471666404,
  ProspectAutoApprove1795472904475,
  BranchQualification1795481534511,
  BranchCountingRule1795481825526,
  ReferralEmailRuns1795482010116,
  MemberSearchKeys1795482825286,
  BusinessProspectCount1795482902020,
  MemberSearchVersion1795492664065,
];

/**
 * TypeORM options for Grove's PostgreSQL: migrations only (`synchronize: false`), each migration
 * in its own transaction; log lines through `PinoTypeOrmLogger` (never a statement's parameters).
 * @param url a `postgres://` connection URL
 * @param timeouts bound every connect and statement (`poolTimeoutOptions`); left out (migrations,
 *   scripts) nothing is bounded
 */
export function dataSourceOptions(
  url: string,
  timeouts?: DatabaseTimeouts,
): PostgresDataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
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
 * @param connectMs how long connecting may take (ms; 0 = no limit)
 * @throws what a migration throws (the failed migration is rolled back), or the connect error
 */
export async function runMigrations(url: string, connectMs = 0): Promise<void> {
  const dataSource = await new DataSource({
    ...dataSourceOptions(url),
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
export function createDataSource(url: string): DataSource {
  return new DataSource(dataSourceOptions(url));
}
