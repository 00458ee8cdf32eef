import { Client } from 'pg';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type { MemberImportStatus, MemberImportUpload } from '@grove/contracts';
import { buildApi, startApiProcess, type ApiProcess } from '../../../../test/api-process';
import { waitFor } from '../../../../test/stub-servers';
import { signupBody, signUpThroughLink } from '../../../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../../../test/test-database';
import { IMPORT_FAILED_MESSAGE, IMPORT_STALE_SECONDS } from './members-csv.service';

jest.setTimeout(300_000);

/** The largest upload Grove takes (docs/product.md#members-csv). */
const ROWS = 10_000;

/** People a gym would bring: accents, apostrophes, hyphens, one-word and long names. */
const PEOPLE = [
  ["Siobhán O'Brien", 'siobhan.obrien'],
  ["Zoë D'Arcy-Nguyễn", 'zoe.darcy'],
  ['Ana-Sofía Pérez', 'ana.sofia'],
  ['Kofi Mensah', 'kofi.mensah'],
  ['Łukasz Wójcik', 'lukasz.wojcik'],
  ['Aroha Te Whata', 'aroha.tewhata'],
] as const;

const person = (row: number) => PEOPLE[row % PEOPLE.length] as (typeof PEOPLE)[number];
const email = (row: number) => `${person(row)[1]}.${row}@example.ie`;

/** ROWS members, each with its own email; one in 100 names the member before it as referrer. */
function csvFile(): string {
  const lines = ['Full name,Email,Membership price,Discount,Referred by (email)'];
  for (let row = 0; row < ROWS; row += 1) {
    const referrer = row % 100 === 1 ? email(row - 1) : '';
    lines.push(`"${person(row)[0]}",${email(row)},$${49 + (row % 30)}.00,5,${referrer}`);
  }
  return lines.join('\r\n');
}

// Issue 31 item 4, the SIGKILL drill: the API process is killed in the middle of a 10,000-row
// import (no shutdown hook runs; pg-boss keeps its job 'active' until it expires, 15 minutes).
// A new process reports it failed once its heartbeat is stale, it wrote nothing, and the same
// upload then runs to the end once, with no member twice.
describe('a CSV import whose API process is SIGKILLed (integration, separate API processes)', () => {
  let db: TestDatabase;
  let sql: Client;
  const processes: ApiProcess[] = [];

  beforeAll(async () => {
    buildApi();
    db = await createTestDatabase();
    sql = new Client({ connectionString: db.url });
    await sql.connect();
  });
  afterAll(async () => {
    await Promise.all(processes.map((api) => api.stop()));
    await sql?.end();
    await db?.drop();
  });

  const start = async (): Promise<ApiProcess> => {
    const api = await startApiProcess({ DATABASE_URL: db.url });
    processes.push(api);
    return api;
  };
  const status = async (owner: TestAgent, importId: string): Promise<MemberImportStatus> =>
    (await owner.get(`/api/members-csv/imports/${importId}`).expect(200))
      .body as MemberImportStatus;
  const members = async (businessId: string) =>
    (
      await sql.query<{ members: number; emails: number }>(
        `SELECT count(*)::int AS members, count(DISTINCT email_key)::int AS emails
           FROM members WHERE business_id = $1`,
        [businessId],
      )
    ).rows[0];

  it('reports the import failed with nothing written, and the same upload then imports every row once', async () => {
    const first = await start();
    const owner = request.agent(`http://127.0.0.1:${first.port}`);
    const body = signupBody({ businessName: 'Café Ōtautahi Strength' });
    const signedUp = await signUpThroughLink(owner, sql, body);
    expect(signedUp.status).toBe(201);
    const businessId = (signedUp.body as { business: { id: string } }).business.id;

    const up = (
      await owner
        .post('/api/members-csv/imports')
        .set('Content-Type', 'text/csv')
        .send(csvFile())
        .expect(201)
    ).body as MemberImportUpload;
    expect(up.rowCount).toBe(ROWS);
    const run = (agent: TestAgent) =>
      agent
        .post(`/api/members-csv/imports/${up.importId}/run`)
        .send({ mapping: up.mapping })
        .expect(202);
    await run(owner);

    // Mid-import: its first 1,000 rows are written (in its open transaction).
    await waitFor(async () => (await status(owner, up.importId)).processedRows > 0, 60_000);
    await first.kill();
    expect(await members(businessId)).toEqual({ members: 0, emails: 0 });

    const second = await start();
    const again = request.agent(`http://127.0.0.1:${second.port}`);
    await again.post('/api/auth/login').send({ email: body.email, password: body.password });
    const stopped = await waitFor(
      async () => {
        const now = await status(again, up.importId);
        expect(now.state).not.toBe('done');
        return now.state === 'failed' ? now : null;
      },
      (IMPORT_STALE_SECONDS + 30) * 1000,
    );
    expect(stopped).toMatchObject({ error: IMPORT_FAILED_MESSAGE, counts: null });
    expect(await members(businessId)).toEqual({ members: 0, emails: 0 });

    await run(again);
    const done = await waitFor(async () => {
      const now = await status(again, up.importId);
      return now.state === 'done' || now.state === 'failed' ? now : null;
    }, 120_000);
    expect(done).toMatchObject({
      state: 'done',
      processedRows: ROWS,
      counts: expect.objectContaining({ add: ROWS }),
    });
    expect(await members(businessId)).toEqual({ members: ROWS, emails: ROWS });
  });
});
