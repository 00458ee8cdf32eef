import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createTestApp, treeBody } from '../../../../test/test-app';
import { grantAppRole } from './app-role';
import { createTestDatabase, TEST_DB_ENV, type TestDatabase } from '../../../../test/test-database';

jest.setTimeout(120_000);

/** `url` signing in as `user` with `password` instead. */
function as(url: string, user: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = user;
  parsed.password = password;
  return parsed.toString();
}

/** The error PostgreSQL answers `sql` with on `url`, or null when it ran. */
async function refusal(url: string, sql: string): Promise<string | null> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end();
  }
}

/**
 * Issue 31 item 6: with DATABASE_MIGRATION_URL set, the API connects as a role that owns nothing
 * it does not need. An injected statement on its connection cannot run a program on the server,
 * create, alter or drop a table, or make itself more; Grove works as before, jobs included.
 */
describe('the API role (integration)', () => {
  const roles: string[] = [];
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    const admin = new Client({ connectionString: process.env[TEST_DB_ENV.adminUrl] });
    await admin.connect();
    try {
      for (const db of databases) await db.drop();
      for (const role of roles) await admin.query(`DROP ROLE IF EXISTS "${role}"`);
    } finally {
      await admin.end();
    }
  });

  for (const empty of [false, true]) {
    it(`${empty ? 'on a new database' : 'on a database migrated before (pg-boss installed by the owner)'}: Grove works as the API role, which cannot run programs, change the schema or raise itself`, async () => {
      const db = await createTestDatabase({ empty });
      databases.push(db);
      const role = `grove_api_${randomBytes(4).toString('hex')}`;
      roles.push(role);
      const password = randomBytes(12).toString('base64url');
      const appUrl = as(db.url, role, password);
      if (!empty) {
        // Two replicas starting at once: both grant, neither fails on the other's CREATE ROLE.
        await Promise.all([grantAppRole(db.url, appUrl), grantAppRole(db.url, appUrl)]);
      }
      const t = await createTestApp(
        { DATABASE_URL: appUrl, DATABASE_MIGRATION_URL: db.url },
        { database: db },
      );
      try {
        const [{ user }] = (await t.dataSource.query(`SELECT current_user AS user`)) as [
          { user: string },
        ];
        expect(user).toBe(role);
        // An owner's day: sign up, add a tree, a branch (jobs queued and run on pg-boss).
        const { agent } = await t.signUp({ firstName: 'Siobhán', lastName: "O'Connor-Lévesque" });
        const tree = await agent
          .post('/api/members')
          .send(treeBody("Zoë D'Arcy", 'zoe.darcy@example.com'))
          .expect(201);
        const branch = await agent
          .post(`/api/members/${tree.body.id}/branches`)
          .send(treeBody('Élodie Brûlé', 'elodie@example.com'))
          .expect(201);
        const list = await agent.get('/api/members').expect(200);
        expect(list.body.items.map((row: { memberName: string }) => row.memberName)).toEqual(
          expect.arrayContaining(["Zoë D'Arcy", 'Élodie Brûlé']),
        );
        // Erasure reaches the audit log through the owner's function (no UPDATE of its own).
        await agent.post(`/api/members/${branch.body.id}/erase`).expect(204);
        const log = await agent.get(`/api/audit-log?memberId=${branch.body.id}`).expect(200);
        expect(log.body.items.length).toBeGreaterThan(0);
        expect(JSON.stringify(log.body)).not.toMatch(/Élodie|elodie/);
        const [{ queues }] = (await t.dataSource.query(
          `SELECT count(*)::int AS queues FROM pgboss.queue`,
        )) as [{ queues: number }];
        expect(queues).toBeGreaterThan(0);
      } finally {
        await t.close();
      }
      // What an injected statement on the API's connection would try.
      expect(await refusal(appUrl, `COPY (SELECT 1) TO PROGRAM 'true'`)).toMatch(
        /permission denied|must be superuser/,
      );
      expect(await refusal(appUrl, `SELECT pg_read_file('/etc/passwd')`)).toMatch(
        /permission denied/,
      );
      expect(await refusal(appUrl, `CREATE TABLE stolen (x text)`)).toMatch(/permission denied/);
      expect(await refusal(appUrl, `DROP TABLE members`)).toMatch(/must be owner/);
      expect(await refusal(appUrl, `ALTER TABLE members ADD COLUMN x text`)).toMatch(
        /must be owner/,
      );
      expect(await refusal(appUrl, `ALTER ROLE ${role} SUPERUSER`)).toMatch(/permission denied/);
      expect(await refusal(appUrl, `CREATE ROLE intruder LOGIN`)).toMatch(/permission denied/);
      // It reads and writes Grove's rows, as the API must.
      expect(await refusal(appUrl, `SELECT count(*) FROM members`)).toBeNull();
      // The audit log is append-only for it (issue 34 item 2): it read the owner's day's entries,
      // and may neither change nor delete one, even with the trigger gone.
      expect(await refusal(appUrl, `SELECT count(*) FROM audit_log`)).toBeNull();
      expect(await refusal(appUrl, `UPDATE audit_log SET kind = 'member.removed'`)).toMatch(
        /permission denied/,
      );
      expect(await refusal(appUrl, `DELETE FROM audit_log`)).toMatch(/permission denied/);
      expect(await refusal(appUrl, `TRUNCATE audit_log`)).toMatch(/permission denied/);
      expect(await refusal(appUrl, `ALTER TABLE audit_log DISABLE TRIGGER ALL`)).toMatch(
        /must be owner/,
      );
    });
  }
});
