import { Client } from 'pg';
import type TestAgent from 'supertest/lib/agent';
import type { MemberImportStatus, MemberImportUpload, MemberRow, Page } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { waitFor } from '../../../../test/stub-servers';
import { JobsService } from '../../platform/jobs/jobs.service';
import { MembersCsvRepository } from './members-csv.repository';
import { JOBS_SCHEMA } from '../../platform/jobs/jobs-schema';
import {
  IMPORT_FAILED_MESSAGE,
  IMPORT_STALE_SECONDS,
  MEMBERS_CSV_QUEUE,
} from './members-csv.service';

/** Two members a gym would bring: an apostrophe, accents and a hyphen, and a plain one. */
const CSV = [
  'Full name,E-mail,Membership price,Discount,Referred by (email)',
  "Zoë O'Brien-Núñez,zoe.obrien@example.com,$59.00,5,",
  'Kofi Mensah,kofi@example.com,45,5,',
].join('\r\n');

describe('a CSV import is never stuck (integration, issue 31 item 4)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedUp = await t.signUp();
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const upload = async (): Promise<MemberImportUpload> =>
    (
      await owner
        .post('/api/members-csv/imports')
        .set('Content-Type', 'text/csv')
        .send(CSV)
        .expect(201)
    ).body as MemberImportUpload;
  const status = async (importId: string): Promise<MemberImportStatus> =>
    (await owner.get(`/api/members-csv/imports/${importId}`).expect(200))
      .body as MemberImportStatus;
  const run = (up: MemberImportUpload) =>
    owner.post(`/api/members-csv/imports/${up.importId}/run`).send({ mapping: up.mapping });
  const finished = (importId: string) =>
    waitFor(async () => {
      const now = await status(importId);
      return now.state === 'done' || now.state === 'failed' ? now : null;
    });
  const memberNames = async (): Promise<string[]> =>
    (
      (await owner.get('/api/members?pageSize=100&sort=memberName').expect(200))
        .body as Page<MemberRow>
    ).items.map((member) => member.memberName);
  const clearMembers = () =>
    t.dataSource.query(`DELETE FROM members WHERE business_id = $1`, [businessId]);

  it('an import left "running" by a crash (its job gone) says it failed, writes nothing, and runs again', async () => {
    await clearMembers();
    const up = await upload();
    // What a replica killed mid-import leaves: the upload running, its job no longer running.
    await t.dataSource.query(
      `UPDATE member_imports SET state = 'running', mapping = $3::jsonb, job_id = gen_random_uuid()
        WHERE business_id = $1 AND id = $2`,
      [businessId, up.importId, JSON.stringify({ mapping: up.mapping })],
    );

    const stopped = await status(up.importId);
    expect(stopped).toMatchObject({ state: 'failed', error: IMPORT_FAILED_MESSAGE, counts: null });
    expect(await memberNames()).toEqual([]);

    await run(up).expect(202);
    expect(await finished(up.importId)).toMatchObject({ state: 'done', processedRows: 2 });
    expect(await memberNames()).toEqual(['Kofi Mensah', "Zoë O'Brien-Núñez"]);
  });

  it('a running import whose job pg-boss still holds "active" but whose heartbeat stopped (its process killed) says failed, and runs again', async () => {
    await clearMembers();
    const up = await upload();
    // What SIGKILL leaves: pg-boss keeps the job 'active' until it expires (15 minutes).
    const pending = jest.spyOn(t.app.get(JobsService), 'isPending').mockResolvedValue(true);
    const setRunning = (secondsAgo: number) =>
      t.dataSource.query(
        `UPDATE member_imports SET state = 'running', mapping = $3::jsonb, job_id = gen_random_uuid(),
           heartbeat_at = now() - make_interval(secs => $4)
          WHERE business_id = $1 AND id = $2`,
        [businessId, up.importId, JSON.stringify({ mapping: up.mapping }), secondsAgo],
      );

    // A heartbeat within the limit: still running.
    await setRunning(IMPORT_STALE_SECONDS - 5);
    expect((await status(up.importId)).state).toBe('running');

    await setRunning(IMPORT_STALE_SECONDS + 1);
    expect(await status(up.importId)).toMatchObject({
      state: 'failed',
      error: IMPORT_FAILED_MESSAGE,
      counts: null,
    });
    pending.mockRestore();

    await run(up).expect(202);
    expect(await finished(up.importId)).toMatchObject({ state: 'done', processedRows: 2 });
    expect(await memberNames()).toEqual(['Kofi Mensah', "Zoë O'Brien-Núñez"]);
  });

  it('a run reported failed while it was alive but silent writes nothing when it gets to its end', async () => {
    await clearMembers();
    const up = await upload();
    // Its heartbeats do not reach the database (as from a process stalled that long).
    jest.spyOn(t.app.get(MembersCsvRepository), 'beat').mockResolvedValue(undefined);
    const holder = new Client({ connectionString: t.db.url });
    await holder.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(hashtext('members-csv'), hashtext($1))`, [
        businessId,
      ]);
      await run(up).expect(202);
      await waitFor(async () => (await status(up.importId)).state === 'running');
      // Waiting for the lock, silent for longer than the limit: the poll reports it failed.
      await t.dataSource.query(
        `UPDATE member_imports SET heartbeat_at = now() - make_interval(secs => $3)
          WHERE business_id = $1 AND id = $2`,
        [businessId, up.importId, IMPORT_STALE_SECONDS + 1],
      );
      expect((await status(up.importId)).error).toBe(IMPORT_FAILED_MESSAGE);
    } finally {
      await holder.end();
    }
    // The run gets the lock, plans and writes, then finds itself failed and rolls back.
    await waitFor(async () => {
      const [row] = (await t.dataSource.query(
        `SELECT count(*)::int AS active FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND state = 'active'`,
        [MEMBERS_CSV_QUEUE],
      )) as { active: number }[];
      return row?.active === 0;
    });
    expect(await status(up.importId)).toMatchObject({
      state: 'failed',
      error: IMPORT_FAILED_MESSAGE,
    });
    expect(await memberNames()).toEqual([]);
  });

  it('an import waiting for another one of the business stays "running" until it ends', async () => {
    await clearMembers();
    const up = await upload();
    // Another import of the business holds its lock (as one on another replica would).
    const holder = new Client({ connectionString: t.db.url });
    await holder.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(hashtext('members-csv'), hashtext($1))`, [
        businessId,
      ]);
      await run(up).expect(202);
      await waitFor(async () => (await status(up.importId)).state === 'running');
      // Its job is active: polling never calls it failed.
      for (let poll = 0; poll < 3; poll++) {
        expect((await status(up.importId)).state).toBe('running');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await holder.end();
    }
    expect(await finished(up.importId)).toMatchObject({ state: 'done', processedRows: 2 });
    expect(await memberNames()).toEqual(['Kofi Mensah', "Zoë O'Brien-Núñez"]);
  });

  it('when queueing the job fails, the upload is not left "queued": the owner can run it again', async () => {
    await clearMembers();
    const up = await upload();
    jest
      .spyOn(t.app.get(JobsService), 'send')
      .mockRejectedValueOnce(new Error('the jobs table did not answer'));

    const refused = await run(up);
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect((await status(up.importId)).state).toBe('uploaded');
    expect(await memberNames()).toEqual([]);

    await run(up).expect(202);
    expect(await finished(up.importId)).toMatchObject({ state: 'done', processedRows: 2 });
    expect(await memberNames()).toEqual(['Kofi Mensah', "Zoë O'Brien-Núñez"]);
  });
});
