import type TestAgent from 'supertest/lib/agent';
import { parse } from 'csv-parse/sync';
import {
  CSV_IMPORT_EXTRA_CELLS,
  CSV_IMPORT_MAX_BYTES,
  MEMBER_CSV_MESSAGES,
  type MemberImportUpload,
} from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';

const HEADER = 'Full name,E-mail,Membership price,Discount';

/**
 * Issue 31, item 1: no CSV one owner sends may cost Grove more than its size, and uploads are
 * limited per business. The API runs in this process, so its heap is this process's.
 */
describe('members CSV limits (integration)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_CSV_UPLOAD_LIMIT: '2' });
  });
  afterAll(() => t.close());

  const send = (agent: TestAgent, csv: string) =>
    agent.post('/api/members-csv/imports').set('Content-Type', 'text/csv').send(csv);

  it('refuses a row of five million empty cells with its line, keeps the heap small and goes on answering', async () => {
    const { agent, user } = await t.signUp();
    const csv = `${HEADER}\n${','.repeat(5_000_000)}\n${'x\n'.repeat(9_990)}`;
    expect(Buffer.byteLength(csv)).toBeLessThan(CSV_IMPORT_MAX_BYTES);
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    const reply = await send(agent, csv).expect(400);
    expect(reply.body.message).toBe(MEMBER_CSV_MESSAGES.rowTooWide(2, 4));
    // The request body and its decoded text (5 MB each) and this test's own string: the row, had
    // it been built and padded into the failed-rows file, was hundreds of MB (the API died).
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(48 * 1024 * 1024);
    // Nothing was stored, and the API answers the next request.
    expect(
      await t.dataSource.query(
        `SELECT count(*)::int AS n FROM member_imports WHERE business_id = $1`,
        [user.business.id],
      ),
    ).toEqual([{ n: 0 }]);
    await agent.get('/api/members').expect(200);
  });

  it('refuses a header of millions of columns before parsing it', async () => {
    const { agent } = await t.signUp();
    const reply = await send(agent, `${'c,'.repeat(2_600_000)}\nx\n`).expect(400);
    expect(reply.body.message).toBe(MEMBER_CSV_MESSAGES.tooManyColumns);
  });

  it('writes failed rows no wider than the header, whatever a row carried past it', async () => {
    const { agent } = await t.signUp();
    const extra = ','.repeat(CSV_IMPORT_EXTRA_CELLS);
    const up = (await send(agent, `${HEADER}\nAva Rossi,not-an-email,59,10${extra}\n`).expect(201))
      .body as MemberImportUpload;
    await agent
      .post(`/api/members-csv/imports/${up.importId}/dry-run`)
      .send({ mapping: up.mapping })
      .expect(200);
    const reply = await agent
      .get(`/api/members-csv/imports/${up.importId}/failed-rows`)
      .buffer(true)
      .expect(200);
    const rows = parse(reply.text, { bom: true }) as string[][];
    expect(rows.map((row) => row.length)).toEqual([6, 6]);
    expect(rows[1]?.slice(0, 5)).toEqual(['Ava Rossi', 'not-an-email', '59', '10', '2']);
  });

  it('takes THROTTLE_CSV_UPLOAD_LIMIT uploads per business an hour, then 429; another business is not held back', async () => {
    const first = await t.signUp();
    const other = await t.signUp();
    const csv = `${HEADER}\nAva Rossi,ava@example.com,59,10\n`;
    await send(first.agent, csv).expect(201);
    await send(first.agent, csv).expect(201);
    const refused = await send(first.agent, csv).expect(429);
    expect(refused.body.message).toBe('Too many attempts. Try again in 60 minutes.');
    // Same client address, another business: its own count.
    await send(other.agent, csv).expect(201);
  });
});
