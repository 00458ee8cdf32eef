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

/** Undoes the migrations from the newest back to and including the one named `name`. */
async function undoThrough(dataSource: DataSource, name: string): Promise<void> {
  const applied = async (): Promise<boolean> =>
    (
      (await dataSource.query(`SELECT count(*)::int AS n FROM migrations WHERE name = $1`, [
        name,
      ])) as { n: number }[]
    )[0].n > 0;
  while (await applied()) await dataSource.undoLastMigration({ transaction: 'each' });
}

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

  it('SessionFamilies gives every existing rotation chain one family and its first sign-in time, and goes down and up again', async () => {
    await undoThrough(dataSource, 'SessionFamilies1795460545382');
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Gym', 'gym.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const [user] = (await dataSource.query(
      `INSERT INTO users (business_id, email, first_name, last_name, password_hash) VALUES ($1, 'sam@gym.example.com', 'Sam', 'Lee', 'x') RETURNING id`,
      [business.id],
    )) as { id: string }[];
    // Two sign-ins: one rotated twice (a → b → c), one never rotated (d).
    const insert = async (
      label: string,
      createdAt: string,
      replacedBy: string | null,
    ): Promise<string> =>
      (
        (await dataSource.query(
          `INSERT INTO sessions (user_id, refresh_token_hash, expires_at, revoked_at, replaced_by_id, created_at)
           VALUES ($1, $2, now() + interval '1 day', CASE WHEN $3::uuid IS NULL THEN NULL ELSE now() END, $3, $4) RETURNING id`,
          [user.id, label, replacedBy, createdAt],
        )) as { id: string }[]
      )[0].id;
    const c = await insert('c', '2026-11-03T00:00:00Z', null);
    const b = await insert('b', '2026-11-02T00:00:00Z', c);
    const a = await insert('a', '2026-11-01T00:00:00Z', b);
    const d = await insert('d', '2026-11-05T00:00:00Z', null);
    await dataSource.runMigrations({ transaction: 'each' });
    const rows = (await dataSource.query(
      `SELECT id, family_id, signed_in_at FROM sessions WHERE user_id = $1 ORDER BY created_at`,
      [user.id],
    )) as { id: string; family_id: string; signed_in_at: Date }[];
    expect(rows.map((row) => [row.id, row.family_id, row.signed_in_at.toISOString()])).toEqual([
      [a, a, '2026-11-01T00:00:00.000Z'],
      [b, a, '2026-11-01T00:00:00.000Z'],
      [c, a, '2026-11-01T00:00:00.000Z'],
      [d, d, '2026-11-05T00:00:00.000Z'],
    ]);
    await undoThrough(dataSource, 'SessionFamilies1795460545382');
    const columns = (await dataSource.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'sessions' AND column_name IN ('family_id', 'signed_in_at')`,
    )) as unknown[];
    expect(columns).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
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
});
