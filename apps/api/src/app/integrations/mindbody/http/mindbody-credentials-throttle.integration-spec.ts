import type TestAgent from 'supertest/lib/agent';
import { MESSAGES } from '@grove/contracts';
import {
  createTestApp,
  signupBody,
  signUpThroughLink,
  type TestApp,
} from '../../../../../test/test-app';
import {
  mindbodyStatus,
  sandboxEnv,
  sandboxLogin,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';

// Issue 11: `POST /api/mindbody/credentials` tries a staff password against Mindbody through
// Grove's API key, so it is throttled per business and per client address (default 5 per 15
// minutes). TRUST_PROXY=1 lets each request name its client address in X-Forwarded-For.
/**
 * A second site of the sandbox (activated). A Mindbody site belongs to one business (issue 31):
 * the neighbour connects the main site, so the gym that connects once its window is over
 * connects a site of its own.
 */
const OTHER_SITE = '-97';

describe('Mindbody credential throttle (integration, defaults: 5 per business and per address per 15 minutes)', () => {
  let sandbox: RunningSandbox;
  let t: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({
      port: 0,
      clientCount: 10,
      sites: [{ siteId: OTHER_SITE, clientCount: 10, activated: true }],
    });
    env = {
      ...sandboxEnv(sandbox),
      TRUST_PROXY: '1',
      // The harness raises this limit for the other tests; this file checks the default.
      THROTTLE_MINDBODY_CREDENTIALS_LIMIT: '5',
    };
    t = await createTestApp(env);
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  const owner = async (): Promise<TestAgent> => (await t.signUp()).agent;
  /** One credentials check of `agent`'s business from `address`, for `siteId` (the main site unless given). */
  const attempt = (
    agent: TestAgent,
    address: string,
    password = 'not-the-password',
    siteId = sandbox.options.siteId,
  ) =>
    agent
      .post('/api/mindbody/credentials')
      .set('X-Forwarded-For', address)
      .send({ ...sandboxLogin(sandbox, siteId), password });

  it('refuses a business its 6th check within 15 minutes, from any address, saying when to try again', async () => {
    const gym = await owner();
    for (let i = 1; i <= 5; i += 1) {
      const reply = await attempt(gym, `203.0.113.${i}`);
      expect(reply.status).toBe(400);
      expect(reply.body.message).toBe(MESSAGES.mindbodyInvalidCredentials);
    }
    const refused = await attempt(gym, '203.0.113.6', sandboxLogin(sandbox).password);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many attempts. Try again in 15 minutes.');
    // Even the right password waits: the business is not connected.
    expect((await mindbodyStatus(gym)).stage).toBe(1);
  });

  it('refuses an address its 6th check within 15 minutes, whichever business it signs in as', async () => {
    const address = '198.51.100.20';
    for (let i = 0; i < 5; i += 1) {
      expect((await attempt(await owner(), address)).status).toBe(400);
    }
    const refused = await attempt(await owner(), address, sandboxLogin(sandbox).password);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many attempts. Try again in 15 minutes.');
    // Another address is not held back by it.
    expect((await attempt(await owner(), '198.51.100.21')).status).toBe(400);
  });

  it('one business at its limit does not block another business from another address', async () => {
    const blocked = await owner();
    for (let i = 0; i < 5; i += 1) await attempt(blocked, '192.0.2.10');
    expect((await attempt(blocked, '192.0.2.11')).status).toBe(429);

    const neighbour = await owner();
    const connected = await attempt(neighbour, '192.0.2.12', sandboxLogin(sandbox).password);
    expect(connected.status).toBe(200);
    expect(connected.body.stage).toBe(2);
    expect((await mindbodyStatus(blocked)).stage).toBe(1);
  });

  it('tells the remaining wait, and lets the business try again once the window is over', async () => {
    const gym = await owner();
    const wrong = 'not-the-password';
    for (let i = 0; i < 5; i += 1) await attempt(gym, `192.0.2.${30 + i}`, wrong, OTHER_SITE);
    expect((await attempt(gym, '192.0.2.40', wrong, OTHER_SITE)).status).toBe(429);
    // Three minutes pass: the counters' windows end 3 minutes sooner.
    await t.dataSource.query(`UPDATE throttle_counters SET expire = expire - 180000`);
    const later = await attempt(gym, '192.0.2.41', wrong, OTHER_SITE);
    expect(later.status).toBe(429);
    expect(later.body.message).toBe('Too many attempts. Try again in 12 minutes.');
    // The window is over.
    await t.dataSource.query(`UPDATE throttle_counters SET expire = $1`, [Date.now() - 1]);
    const again = await attempt(gym, '192.0.2.42', sandboxLogin(sandbox).password, OTHER_SITE);
    expect(again.status).toBe(200);
    expect(again.body.stage).toBe(2);
  });

  it('counts the checks of two API instances on one database together', async () => {
    const other = await createTestApp(env, { database: t.db });
    try {
      const signedUp = await signUpThroughLink(t.agent(), t.dataSource, signupBody());
      expect(signedUp.status).toBe(201);
      const cookies = (signedUp.headers['set-cookie'] as unknown as string[]).map(
        (cookie) => cookie.split(';')[0],
      );
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const instance = i % 2 === 0 ? t : other;
        const reply = await instance
          .agent()
          .post('/api/mindbody/credentials')
          .set('Cookie', cookies.join('; '))
          .set('X-Forwarded-For', `192.0.2.${60 + i}`)
          .send({ ...sandboxLogin(sandbox), password: 'not-the-password' });
        statuses.push(reply.status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    } finally {
      await other.close();
    }
  });
});
