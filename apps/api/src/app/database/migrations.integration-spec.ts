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

  it('MindbodyPricedAt goes down and up again', async () => {
    const hasColumn = async (): Promise<boolean> =>
      (
        (await dataSource.query(
          `SELECT count(*)::int AS n FROM information_schema.columns
           WHERE table_schema = 'public' AND table_name = 'members' AND column_name = 'mindbody_priced_at'`,
        )) as { n: number }[]
      )[0]?.n === 1;
    expect(await hasColumn()).toBe(true);
    await dataSource.undoLastMigration({ transaction: 'each' });
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
    // MindbodyPricedAt comes after it: undo both.
    await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.undoLastMigration({ transaction: 'each' });
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
    // MindbodyIntegrations and MindbodyPricedAt come after it: undo all three.
    await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await present()).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await present()).toEqual(issue5);
  });

  it('ReferralLinksAndProspects goes down and up again', async () => {
    expect(await tables(dataSource)).toEqual(['prospects', 'referral_links']);
    // Later migrations first (MindbodyPricedAt, MindbodyIntegrations, ContactSupportLeads), then ReferralLinksAndProspects.
    await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await tables(dataSource)).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await tables(dataSource)).toEqual(['prospects', 'referral_links']);
  });
});
