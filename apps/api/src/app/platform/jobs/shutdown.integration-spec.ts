import { format } from 'node:util';
import { Client } from 'pg';
import {
  createTestApp,
  signupBody,
  signUpThroughLink,
  type TestApp,
} from '../../../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../../../test/test-database';
import {
  expectedImport,
  mindbodyStatus,
  sandboxEnv,
  sandboxLogin,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../test/mindbody-sandbox';
import { DATABASE_DRAIN_TIMEOUT_MS } from '../graceful-shutdown';
import { JOBS_SCHEMA } from './jobs-schema';

jest.setTimeout(180_000);

/**
 * A second site of the sandbox (activated). A Mindbody site belongs to one business (issue 31) and
 * this file's businesses share one database, so the second import test connects a site of its own.
 */
const OTHER_SITE = '-97';

/** Clients of the sandbox: 10 pages of 200. */
const CLIENTS = 2_000;

/** What pg, TypeORM and pg-boss report when the database closes under running work. */
const SHUTDOWN_NOISE =
  /connection terminated|statement failed|administrator command|cannot use a pool after calling end|driver not connected/i;

/** Log lines of the apps `createTestApp(WARN, { logLines })` boots (failed statements are warnings). */
const WARN = { LOG_LEVEL: 'warn' };

/**
 * Closes `app` and returns what was written to the console and to `logLines` (the app's log)
 * meanwhile and in the `settleMs` after (a handler that outlived the pools fails later).
 */
async function closeAndListen(
  app: TestApp,
  logLines: string[],
  settleMs = 500,
): Promise<{ noise: string[]; closeMs: number }> {
  const lines: string[] = [];
  const logged = logLines.length;
  const spies = (['log', 'info', 'warn', 'error'] as const).map((method) =>
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(format(...args));
    }),
  );
  const started = Date.now();
  let closeMs: number;
  try {
    await app.app.close();
    closeMs = Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, settleMs));
  } finally {
    spies.forEach((spy) => spy.mockRestore());
  }
  lines.push(...logLines.slice(logged));
  return { noise: lines.filter((line) => SHUTDOWN_NOISE.test(line)), closeMs };
}

describe('Shutting the API down while work runs (integration)', () => {
  let sandbox: RunningSandbox;
  let db: TestDatabase;
  let admin: Client;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({
      port: 0,
      clientCount: CLIENTS,
      sites: [{ siteId: OTHER_SITE, clientCount: 200, activated: true }],
    });
    db = await createTestDatabase();
    admin = new Client({ connectionString: db.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await db.drop();
    await sandbox.close();
  });

  const integration = async (businessId: string) =>
    (
      await admin.query<{
        process_state: string | null;
        stage: number;
        progress_done: number | null;
      }>(
        `SELECT process_state, stage, progress_done FROM mindbody_integrations WHERE business_id = $1`,
        [businessId],
      )
    ).rows[0];
  const jobStates = async (businessId: string): Promise<string[]> =>
    (
      await admin.query<{ state: string }>(
        `SELECT state FROM ${JOBS_SCHEMA}.job WHERE name = 'mindbody' AND singleton_key = $1 ORDER BY created_on`,
        [`${businessId}:import`],
      )
    ).rows.map((row) => row.state);
  const memberCount = async (businessId: string): Promise<number> =>
    (
      await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM members WHERE business_id = $1`,
        [businessId],
      )
    ).rows[0].n;

  /**
   * An API on the shared database with a signed-up owner whose Mindbody credentials are checked
   * (stage 2) for `siteId` (the sandbox's main site unless given).
   */
  const connectedApp = async (siteId = sandbox.options.siteId) => {
    const logLines: string[] = [];
    const app = await createTestApp(
      { ...sandboxEnv(sandbox), ...WARN },
      { database: db, logLines },
    );
    const signed = await app.signUp();
    await signed.agent
      .post('/api/mindbody/credentials')
      .send(sandboxLogin(sandbox, siteId))
      .expect(200);
    return {
      app,
      agent: signed.agent,
      businessId: signed.user.business.id,
      body: signed.body,
      logLines,
    };
  };

  /** Signs `body`'s owner in on `app` (a new instance on the same database). */
  const signIn = async (app: TestApp, body: { email: string; password: string }) => {
    const agent = app.agent();
    await agent
      .post('/api/auth/login')
      .send({ email: body.email, password: body.password })
      .expect(200);
    return agent;
  };

  it('closing the app mid-import stops it at a page, leaves "failed <time>" (stage 2), and a re-run completes', async () => {
    const first = await connectedApp();
    sandbox.control.clearFaults();
    sandbox.control.addFault({ path: '/client/clients', latencyMs: 300 });
    await first.agent.post('/api/mindbody/import').expect(202);
    for (
      let i = 0;
      i < 200 && ((await integration(first.businessId)).progress_done ?? 0) === 0;
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect((await integration(first.businessId)).progress_done).toBeGreaterThan(0);

    const { noise, closeMs } = await closeAndListen(first.app, first.logLines);
    // Stopped at the next page (300 ms apart), not after the remaining pages (~2 s).
    expect(closeMs).toBeLessThan(2_000);
    expect(noise).toEqual([]);

    const left = await integration(first.businessId);
    expect(left.process_state).toMatch(/^failed \d{4}-\d\d-\d\dT[\d:.]+Z$/);
    expect(left.stage).toBe(2);
    expect(left.progress_done).toBeLessThan(CLIENTS);
    // The job ended (not left 'active' for pg-boss to expire an hour later).
    expect(await jobStates(first.businessId)).toEqual(['completed']);

    sandbox.control.clearFaults();
    const second = await createTestApp(sandboxEnv(sandbox), { database: db });
    try {
      const agent = await signIn(second, first.body);
      expect((await mindbodyStatus(agent)).processState).toMatch(/^failed /);
      await agent.post('/api/mindbody/import').expect(202);
      const done = await settled(agent);
      expect(done.processState).toMatch(/^completed /);
      expect(done.stage).toBe(3);
      expect(await memberCount(first.businessId)).toBe(
        expectedImport(sandbox.control.clients()).members.length,
      );
    } finally {
      await second.close();
    }
  });

  it('a job still waiting for the business lock goes back to the queue and runs on the next start', async () => {
    const first = await connectedApp(OTHER_SITE);
    sandbox.control.clearFaults();
    // Another holder of the business's Mindbody lock (as a job on another instance would be).
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(hashtext($1))`, [`mindbody:${first.businessId}`]);
      await first.agent.post('/api/mindbody/import').expect(202);
      for (let i = 0; i < 200 && !(await jobStates(first.businessId)).includes('active'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(await jobStates(first.businessId)).toEqual(['active']);

      expect((await closeAndListen(first.app, first.logLines)).noise).toEqual([]);
      // Nothing was imported; the import is queued again and still shown as running.
      expect(await jobStates(first.businessId)).toEqual(['completed', 'created']);
      expect((await integration(first.businessId)).process_state).toBe('running');
      expect(await memberCount(first.businessId)).toBe(0);
    } finally {
      await holder.end();
    }

    const second = await createTestApp(sandboxEnv(sandbox), { database: db });
    try {
      const agent = await signIn(second, first.body);
      const done = await settled(agent);
      expect(done.processState).toMatch(/^completed /);
      expect(done.stage).toBe(3);
    } finally {
      await second.close();
    }
  });

  it('with SHUTDOWN_DRAIN_MS, a stopping API answers 503 on its liveness check but still serves requests, then closes', async () => {
    const t = await createTestApp(
      { ...sandboxEnv(sandbox), ...WARN, SHUTDOWN_DRAIN_MS: '1500' },
      { database: db },
    );
    await t.app.listen(0, '127.0.0.1');
    const base = await t.app.getUrl();
    expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
    const closing = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Draining: the proxy's check fails, while a request that still arrives is served in full.
    const live = await fetch(`${base}/api/health/live`, { headers: { connection: 'close' } });
    expect(live.status).toBe(503);
    expect(await live.json()).toMatchObject({ message: 'Shutting down' });
    const members = await fetch(`${base}/api/health`, { headers: { connection: 'close' } });
    expect(members.status).toBe(200);
    await closing;
    // Closed after the drain: nothing listens any more.
    await expect(fetch(`${base}/api/health/live`)).rejects.toThrow();
  });

  it('closing the app while abandoned requests still run lets their queries finish first', async () => {
    const logLines: string[] = [];
    const t = await createTestApp({ ...sandboxEnv(sandbox), ...WARN }, { database: db, logLines });
    const signup = await signUpThroughLink(t.agent(), t.dataSource, signupBody());
    expect(signup.status).toBe(201);
    const cookie = ([] as string[])
      .concat(signup.headers['set-cookie'] ?? [])
      .map((line) => line.split(';')[0])
      .join('; ');
    await t.app.listen(0, '127.0.0.1');
    const base = await t.app.getUrl();
    const paths = ['/api/health', '/api/auth/me', '/api/members?page=1&pageSize=50'];
    const abandon = new AbortController();
    const requests = Array.from({ length: 300 }, (_, i) =>
      fetch(`${base}${paths[i % paths.length]}`, {
        headers: { cookie },
        signal: abandon.signal,
      }).catch(() => null),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The clients go away (as autocannon's do when a benchmark ends); their handlers keep running.
    abandon.abort();
    await Promise.all(requests);

    const { noise, closeMs } = await closeAndListen(t, logLines);
    expect(noise).toEqual([]);
    // The queries ended on their own (the pools were not closed at the drain's deadline).
    expect(closeMs).toBeLessThan(DATABASE_DRAIN_TIMEOUT_MS);
  });
});
