import { Client } from 'pg';
import request from 'supertest';
import type { MemberRow, SessionUser } from '@grove/contracts';
import { buildApi, startApiProcess, type ApiProcess } from '../../../../test/api-process';
import { startHaproxy, INSTANCE_HEADER, type RunningHaproxy } from '../../../../test/haproxy';
import {
  expectedImport,
  requests,
  sandboxEnv,
  sandboxLogin,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../test/mindbody-sandbox';
import { signupBody, signUpThroughLink } from '../../../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../../../test/test-database';
import { ACTIVE_SESSION_TRUST_MS } from '../auth/sessions.service';

jest.setTimeout(300_000);

/** Sandbox clients: 5 pages of 200. */
const CLIENTS = 1_000;
const PAGES = CLIENTS / 200;

// Issue 12: several API instances are one Grove. Two API processes (`node dist/apps/api/main.js`,
// built first) on ONE database, each on its own port, behind a real HAProxy (round robin,
// X-Forwarded-For, TRUST_PROXY=1): nothing is shared but the database.
describe('two API processes behind HAProxy (integration)', () => {
  let sandbox: RunningSandbox;
  let db: TestDatabase;
  let sql: Client;
  const instances: ApiProcess[] = [];
  let proxy: RunningHaproxy;

  beforeAll(async () => {
    buildApi();
    sandbox = await startMindbodySandbox({ port: 0, clientCount: CLIENTS });
    db = await createTestDatabase();
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    const env = {
      ...sandboxEnv(sandbox),
      DATABASE_URL: db.url,
      TRUST_PROXY: '1',
      THROTTLE_LOGIN_LIMIT: '5',
    };
    // One after the other (each takes a free port as it starts); each is stopped after the tests
    // even when the next one fails to start.
    for (let i = 0; i < 2; i += 1) instances.push(await startApiProcess(env));
    proxy = await startHaproxy([
      { name: 'a', port: instances[0].port },
      { name: 'b', port: instances[1].port },
    ]);
  });
  afterAll(async () => {
    await proxy?.close();
    await Promise.all(instances.map((instance) => instance.stop()));
    await sql?.end();
    await db?.drop();
    await sandbox?.close();
  });

  /** A browser talking to Grove through the proxy only. */
  const browser = () => request.agent(proxy.url);
  const instanceOf = (reply: request.Response): string => String(reply.headers[INSTANCE_HEADER]);

  it('refuses the 6th wrong login in a minute although the attempts alternate between the instances', async () => {
    const replies: request.Response[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      replies.push(
        await request(proxy.url)
          .post('/api/auth/login')
          .send({ email: 'who@x.com', password: 'wrong password' }),
      );
    }
    expect(replies.map((reply) => reply.status)).toEqual([401, 401, 401, 401, 401, 429]);
    const instances = replies.map(instanceOf);
    expect(new Set(instances)).toEqual(new Set(['a', 'b']));
    // Round robin: each attempt went to the other instance than the one before.
    instances.slice(1).forEach((instance, i) => expect(instance).not.toBe(instances[i]));
  });

  it('a logout through one instance is refused by the other within 2 s', async () => {
    const signedUp = await signUpThroughLink(request(proxy.url), sql, signupBody());
    expect(signedUp.status).toBe(201);
    // The browser's cookies (access and refresh), as a logout sends them.
    const cookies = (signedUp.headers['set-cookie'] as unknown as string[]).map(
      (cookie) => cookie.split(';')[0],
    );
    const access = cookies.find((cookie) => cookie.startsWith('grove_access=')) ?? '';
    const me = () =>
      request(proxy.url).get('/api/auth/me').set(INSTANCE_HEADER, 'b').set('Cookie', access);
    // Instance b confirms the session (and now trusts it for a moment).
    const before = await me().expect(200);
    expect(instanceOf(before)).toBe('b');

    const out = await request(proxy.url)
      .post('/api/auth/logout')
      .set(INSTANCE_HEADER, 'a')
      .set('Cookie', cookies.join('; '))
      .expect(204);
    expect(instanceOf(out)).toBe('a');
    const loggedOutAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - loggedOutAt < 10_000) {
      status = (await me()).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(401);
    // b trusts a confirmed session for ACTIVE_SESSION_TRUST_MS (2 s); allow for the poll step and
    // the request itself.
    expect(Date.now() - loggedOutAt).toBeLessThan(ACTIVE_SESSION_TRUST_MS + 750);
  });

  it('one Mindbody import with both instances running imports each client once', async () => {
    const owner = browser();
    const { business } = (await signUpThroughLink(owner, sql, signupBody())).body as SessionUser;
    await owner.post('/api/mindbody/credentials').send(sandboxLogin(sandbox)).expect(200);
    const before = requests(sandbox, '/client/clients');
    // Asked on both instances at once (round robin): one import runs.
    const started = await Promise.all([1, 2, 3, 4].map(() => owner.post('/api/mindbody/import')));
    expect(started.map((reply) => reply.status)).toEqual([202, 202, 202, 202]);
    expect(new Set(started.map(instanceOf))).toEqual(new Set(['a', 'b']));
    const done = await settled(owner);
    expect(done.processState).toMatch(/^completed /);
    expect(requests(sandbox, '/client/clients') - before).toBe(PAGES);
    const expected = expectedImport(sandbox.control.clients()).members;
    const { rows } = await sql.query<{ members: number; clients: number }>(
      `SELECT count(*)::int AS members, count(DISTINCT mindbody_client_id)::int AS clients
       FROM members WHERE business_id = $1`,
      [business.id],
    );
    const [row] = rows;
    expect(row).toEqual({ members: expected.length, clients: expected.length });
  });

  it('an owner signs up, adds a tree and a branch through the proxy, served by both instances', async () => {
    const owner = browser();
    const replies: request.Response[] = [];
    replies.push(await signUpThroughLink(owner, sql, signupBody()));
    expect(replies[0]?.status).toBe(201);
    const tree = (name: string, email: string) => ({
      memberName: name,
      memberEmail: email,
      membershipPriceCents: 10_000,
      discountCents: 1500,
    });
    const added = await owner
      .post('/api/members')
      .send(tree('Proxy Root', 'proxy.root@x.com'))
      .expect(201);
    replies.push(added);
    const root = added.body as MemberRow;
    replies.push(
      await owner
        .post(`/api/members/${root.id}/branches`)
        .send(tree('Proxy Branch', 'proxy.branch@x.com'))
        .expect(201),
    );
    const reloaded = await owner.get(`/api/members/${root.id}`).expect(200);
    replies.push(reloaded);
    expect(reloaded.body).toMatchObject({
      memberName: 'Proxy Root',
      branches: 1,
      newPriceCents: 8_500,
    });
    expect(new Set(replies.map(instanceOf))).toEqual(new Set(['a', 'b']));
  });
});
