import { Client } from 'pg';
import type TestAgent from 'supertest/lib/agent';
import { autoLinksOff, createTestApp, type TestApp } from '../../../../../test/test-app';
import { MindbodyProcessor } from './mindbody-processor';
import { MindbodyRepository } from '../persistence/mindbody.repository';
import {
  expectedImport,
  mindbodyStatus,
  requests,
  sandboxEnv,
  sandboxLogin,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';

jest.setTimeout(180_000);

/** Clients of the sandbox in these tests: 7 pages of 200. */
const CLIENTS = 1_300;
const PAGES = Math.ceil(CLIENTS / 200);

describe('Mindbody import under faults and with two API instances (integration)', () => {
  let sandbox: RunningSandbox;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: CLIENTS });
    a = await createTestApp(sandboxEnv(sandbox));
    // A second API instance on the SAME database (same queue, same tables), as in production.
    b = await createTestApp(sandboxEnv(sandbox), { database: a.db });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await sandbox.close();
  });

  const memberCount = async (businessId: string): Promise<number> => {
    const [row] = (await a.dataSource.query(
      `SELECT count(*)::int AS n FROM members WHERE business_id = $1`,
      [businessId],
    )) as {
      n: number;
    }[];
    return row.n;
  };
  const expectedMembers = () => expectedImport(sandbox.control.clients()).members.length;

  /**
   * The owners connected by the running test. A Mindbody site belongs to one business (issue 31)
   * and every test here imports the sandbox's site into a business of its own, so each test's
   * business removes its integration afterwards, as an owner moving the site would.
   */
  const connected: TestAgent[] = [];
  afterEach(async () => {
    for (const owner of connected.splice(0)) await owner.delete('/api/mindbody').expect(200);
  });

  /** A signed-up owner with valid credentials (stage 2), usable on both instances (same JWT secret). */
  const connectedOwner = async (): Promise<{
    onA: TestAgent;
    onB: TestAgent;
    businessId: string;
  }> => {
    const signed = await a.signUp();
    await signed.agent.post('/api/mindbody/credentials').send(sandboxLogin(sandbox)).expect(200);
    connected.push(signed.agent);
    const onB = b.agent();
    await onB
      .post('/api/auth/login')
      .send({ email: signed.body.email, password: signed.body.password })
      .expect(200);
    return { onA: signed.agent, onB, businessId: signed.user.business.id };
  };

  it('retries a 500 and a dropped connection on page 3 and completes', async () => {
    const { onA, businessId } = await connectedOwner();
    sandbox.control.clearFaults();
    sandbox.control.addFault({ path: '/client/clients', offset: 400, status: 500, times: 1 });
    sandbox.control.addFault({ path: '/client/clients', offset: 400, drop: true, times: 1 });
    const before = requests(sandbox, '/client/clients');
    await onA.post('/api/mindbody/import').expect(202);
    const done = await settled(onA);
    expect(done.processState).toMatch(/^completed /);
    expect(done.stage).toBe(3);
    expect(done.progress).toEqual({ done: CLIENTS, total: CLIENTS });
    expect(await memberCount(businessId)).toBe(expectedMembers());
    // Every page once, page 3 twice more (the 500, the drop).
    expect(requests(sandbox, '/client/clients') - before).toBe(PAGES + 2);
  });

  it('a permanent failure ends "failed <time>"; running it again completes with no duplicates', async () => {
    const { onA, businessId } = await connectedOwner();
    sandbox.control.clearFaults();
    sandbox.control.addFault({ path: '/client/clients', offset: 600, status: 503 });
    await onA.post('/api/mindbody/import').expect(202);
    const failed = await settled(onA);
    expect(failed.processState).toMatch(/^failed \d{4}-\d\d-\d\dT[\d:.]+Z$/);
    expect(Number.isNaN(Date.parse(failed.processState?.split(' ')[1] ?? ''))).toBe(false);
    expect(failed.stage).toBe(2);
    const partial = await memberCount(businessId);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(expectedMembers());

    sandbox.control.clearFaults();
    await onA.post('/api/mindbody/import').expect(202);
    const done = await settled(onA);
    expect(done.processState).toMatch(/^completed /);
    expect(done.stage).toBe(3);
    expect(await memberCount(businessId)).toBe(expectedMembers());
  });

  /** The business's members, those without a live link, distinct codes, link facts and link audit entries. */
  const links = async (businessId: string) => {
    const [row] = (await a.dataSource.query(
      `SELECT (SELECT count(*) FROM members WHERE business_id = $1)::int AS members,
         (SELECT count(*) FROM members m WHERE m.business_id = $1 AND NOT EXISTS (
            SELECT 1 FROM referral_links l WHERE l.member_id = m.id AND l.revoked_at IS NULL))::int AS without_link,
         (SELECT count(DISTINCT code) FROM referral_links WHERE business_id = $1)::int AS codes,
         (SELECT count(*) FROM lifecycle_facts WHERE business_id = $1 AND kind = 'link_created')::int AS facts,
         (SELECT count(*) FROM audit_log WHERE business_id = $1 AND kind = 'link.created'
            AND after->>'source' = 'automatic' AND actor = 'staff')::int AS audited`,
      [businessId],
    )) as {
      members: number;
      without_link: number;
      codes: number;
      facts: number;
      audited: number;
    }[];
    return row;
  };

  it('an import that fails part-way leaves every member it wrote with its referral link, fact and audit entry: the links go with each page (issue 36)', async () => {
    const { onA, businessId } = await connectedOwner();
    sandbox.control.clearFaults();
    sandbox.control.addFault({ path: '/client/clients', offset: 600, status: 503 });
    await onA.post('/api/mindbody/import').expect(202);
    expect((await settled(onA)).processState).toMatch(/^failed /);
    sandbox.control.clearFaults();
    const written = await links(businessId);
    expect(written.members).toBeGreaterThan(0);
    expect(written).toEqual({
      members: written.members,
      without_link: 0,
      codes: written.members,
      facts: written.members,
      audited: written.members,
    });
  });

  it('with automatic links off, an import gives nobody a link', async () => {
    const { onA, businessId } = await connectedOwner();
    await autoLinksOff(onA);
    sandbox.control.clearFaults();
    await onA.post('/api/mindbody/import').expect(202);
    expect((await settled(onA)).processState).toMatch(/^completed /);
    const written = await links(businessId);
    expect(written).toEqual({
      members: expectedMembers(),
      without_link: expectedMembers(),
      codes: 0,
      facts: 0,
      audited: 0,
    });
  });

  it('two API instances never import the same business at once', async () => {
    const { onA, onB, businessId } = await connectedOwner();
    sandbox.control.clearFaults();
    // Slow pages keep the first import running while both instances are asked again and again.
    sandbox.control.addFault({ path: '/client/clients', latencyMs: 60 });
    const before = requests(sandbox, '/client/clients');
    const replies = await Promise.all([
      onA.post('/api/mindbody/import'),
      onB.post('/api/mindbody/import'),
      onA.post('/api/mindbody/import'),
      onB.post('/api/mindbody/import'),
    ]);
    expect(replies.map((reply) => reply.status)).toEqual([202, 202, 202, 202]);
    expect(replies.every((reply) => reply.body.processState === 'running')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await onB.post('/api/mindbody/import').expect(202);
    const done = await settled(onB);
    sandbox.control.clearFaults();
    expect(done.processState).toMatch(/^completed /);
    expect(requests(sandbox, '/client/clients') - before).toBe(PAGES);
    expect(await memberCount(businessId)).toBe(expectedMembers());
    expect((await mindbodyStatus(onA)).stage).toBe(3);
  });

  it('the job lock serialises imports even when both instances run one directly', async () => {
    const { onA, businessId } = await connectedOwner();
    const run = (app: TestApp) =>
      app.app.get(MindbodyProcessor).run({ businessId, kind: 'import' });
    sandbox.control.addFault({ path: '/client/clients', latencyMs: 30 });
    const progress: number[] = [];
    // One read at a time, so the readings are in the order the database saw them (reads in
    // parallel can answer out of order and look like a drop).
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const rows = (await a.dataSource.query(
          `SELECT progress_done FROM mindbody_integrations WHERE business_id = $1`,
          [businessId],
        )) as { progress_done: number | null }[];
        progress.push(rows[0]?.progress_done ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const results = await Promise.all([run(a), run(b)]);
    watching = false;
    await watcher;
    sandbox.control.clearFaults();
    expect(results.map((result) => result?.clients)).toEqual([CLIENTS, CLIENTS]);
    // Progress rose to the total, started again from zero, and rose again: one import after the other.
    const drops = progress.filter(
      (value, index) => index > 0 && value < progress[index - 1],
    ).length;
    expect(drops).toBeLessThanOrEqual(1);
    expect(await memberCount(businessId)).toBe(expectedMembers());
    expect((await mindbodyStatus(onA)).processState).toMatch(/^completed /);
  });
  /** Another session holding `businessId`'s Mindbody lock (as a job on another instance would). */
  const lockHolder = async (businessId: string) => {
    const holder = new Client({ connectionString: a.db.url });
    await holder.connect();
    const key = `mindbody:${businessId}`;
    await holder.query(`SELECT pg_advisory_lock(hashtext($1))`, [key]);
    /** Sessions of this database waiting for an advisory lock, with the statement that waits. */
    const waiters = async () =>
      (
        await holder.query<{ pid: number; query: string; query_start: Date }>(
          `SELECT pid, query, query_start FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
        )
      ).rows;
    const waiterAppears = async () => {
      for (let i = 0; i < 200 && (await waiters()).length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      return waiters();
    };
    return {
      waiters,
      waiterAppears,
      release: () => holder.query(`SELECT pg_advisory_unlock(hashtext($1))`, [key]),
      tryLock: async () =>
        (
          await holder.query<{ locked: boolean }>(
            `SELECT pg_try_advisory_lock(hashtext($1)) AS locked`,
            [key],
          )
        ).rows[0].locked,
      end: () => holder.end(),
    };
  };

  it('a job held up by the business lock waits in one blocking statement (no polling) and runs once the lock is free', async () => {
    const { businessId } = await connectedOwner();
    const holder = await lockHolder(businessId);
    try {
      const running = a.app.get(MindbodyProcessor).run({ businessId, kind: 'import' });
      const [first] = await holder.waiterAppears();
      expect(first?.query).toMatch(/pg_advisory_lock\(/);
      await new Promise((resolve) => setTimeout(resolve, 600));
      // The same statement still waits: nothing asked again in between.
      const later = await holder.waiters();
      expect(later).toHaveLength(1);
      expect(later[0].pid).toBe(first.pid);
      expect(later[0].query_start.getTime()).toBe(first.query_start.getTime());
      expect(await memberCount(businessId)).toBe(0);

      await holder.release();
      expect((await running)?.clients).toBe(CLIENTS);
      expect(await memberCount(businessId)).toBe(expectedMembers());
    } finally {
      await holder.end();
    }
  });

  it('a lock wait given up on the stopping signal leaves nothing waiting or held, and work never runs', async () => {
    const { businessId } = await connectedOwner();
    const repository = a.app.get(MindbodyRepository);
    const holder = await lockHolder(businessId);
    try {
      const stopping = new AbortController();
      const work = jest.fn(async () => 'ran');
      const waiting = repository.withBusinessLock(businessId, work, stopping.signal);
      expect(await holder.waiterAppears()).toHaveLength(1);
      stopping.abort(new Error('shutting down'));
      await expect(waiting).rejects.toThrow('shutting down');
      expect(work).not.toHaveBeenCalled();
      expect(await holder.waiters()).toEqual([]);

      // The lock was never taken by the given-up wait: once the holder lets go it is free at once.
      await holder.release();
      await expect(repository.withBusinessLock(businessId, work)).resolves.toBe('ran');
      // …and released again afterwards (the pooled connection holds nothing).
      expect(await holder.tryLock()).toBe(true);
      await holder.release();
    } finally {
      await holder.end();
    }
  });
});
