import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database';
import { createDataSource } from './data-source';

const tables = async (dataSource: DataSource): Promise<string[]> =>
  (
    (await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('referral_links', 'prospects')
     ORDER BY table_name`,
    )) as { table_name: string }[]
  ).map((row) => row.table_name);

/** Undoes the newest migrations, later ones first, down to and including the one named `name`. */
const undoThrough = async (dataSource: DataSource, name: string): Promise<void> => {
  for (;;) {
    const [last] = (await dataSource.query(
      `SELECT name FROM migrations ORDER BY id DESC LIMIT 1`,
    )) as { name: string }[];
    if (!last) throw new Error(`${name} is not applied`);
    await dataSource.undoLastMigration({ transaction: 'each' });
    if (last.name === name) return;
  }
};

describe('migrations (integration)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await createDataSource(db.url).initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await db.drop();
  });

  it('BusinessLedSearchIndex goes down and up again: one business-led trigram index, or the two global ones', async () => {
    const searchIndexes = async (): Promise<string[]> =>
      (
        (await dataSource.query(
          `SELECT indexname FROM pg_indexes WHERE tablename = 'members' AND indexdef LIKE '%gin_trgm_ops%' ORDER BY indexname`,
        )) as { indexname: string }[]
      ).map((row) => row.indexname);
    expect(await searchIndexes()).toEqual(['members_business_search_idx']);
    await undoThrough(dataSource, 'BusinessLedSearchIndex1795461063207');
    expect(await searchIndexes()).toEqual(['members_email_trgm_idx', 'members_name_trgm_idx']);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await searchIndexes()).toEqual(['members_business_search_idx']);
  });

  it('MindbodyPricedAt goes down and up again', async () => {
    const hasColumn = async (): Promise<boolean> =>
      (
        (await dataSource.query(
          `SELECT count(*)::int AS n FROM information_schema.columns
           WHERE table_schema = 'public' AND table_name = 'members' AND column_name = 'mindbody_priced_at'`,
        )) as { n: number }[]
      )[0]?.n === 1;
    expect(await hasColumn()).toBe(true);
    await undoThrough(dataSource, 'MindbodyPricedAt1764201600000');
    expect(await hasColumn()).toBe(false);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await hasColumn()).toBe(true);
  });

  it('MindbodyIntegrations goes down and up again', async () => {
    const mindbodyTables = async (): Promise<string[]> =>
      (
        (await dataSource.query(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'
           AND table_name IN ('mindbody_integrations', 'mindbody_webhook_messages') ORDER BY table_name`,
        )) as { table_name: string }[]
      ).map((row) => row.table_name);
    expect(await mindbodyTables()).toEqual(['mindbody_integrations', 'mindbody_webhook_messages']);
    await undoThrough(dataSource, 'MindbodyIntegrations1764115200000');
    expect(await mindbodyTables()).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await mindbodyTables()).toEqual(['mindbody_integrations', 'mindbody_webhook_messages']);
  });

  it('ContactSupportLeads goes down and up again', async () => {
    const issue5 = [
      'captcha_solutions',
      'contact_messages',
      'leads',
      'outbox_emails',
      'support_issues',
    ];
    const present = async (): Promise<string[]> =>
      (
        (await dataSource.query(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name = ANY($1) ORDER BY table_name`,
          [issue5],
        )) as { table_name: string }[]
      ).map((row) => row.table_name);
    expect(await present()).toEqual(issue5);
    await undoThrough(dataSource, 'ContactSupportLeads1764028800000');
    expect(await present()).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await present()).toEqual(issue5);
  });

  it('ReferralLinksAndProspects goes down and up again', async () => {
    expect(await tables(dataSource)).toEqual(['prospects', 'referral_links']);
    await undoThrough(dataSource, 'ReferralLinksAndProspects1763856000000');
    expect(await tables(dataSource)).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await tables(dataSource)).toEqual(['prospects', 'referral_links']);
  });

  it('JoinFlags goes down and up again', async () => {
    const present = async (): Promise<number> =>
      (
        (await dataSource.query(
          `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'join_flags'`,
        )) as { n: number }[]
      )[0].n;
    expect(await present()).toBe(1);
    await undoThrough(dataSource, 'JoinFlags1795460494289');
    expect(await present()).toBe(0);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await present()).toBe(1);
  });

  it('ThrottleCounters goes down and up again', async () => {
    const present = async (): Promise<boolean> =>
      (
        (await dataSource.query(
          `SELECT to_regclass('public.throttle_counters') IS NOT NULL AS present`,
        )) as {
          present: boolean;
        }[]
      )[0].present;
    expect(await present()).toBe(true);
    await undoThrough(dataSource, 'ThrottleCounters1795460524976');
    expect(await present()).toBe(false);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await present()).toBe(true);
  });
});
