import { Redis } from 'ioredis';
import { startRedisServer, type RunningRedis } from '../../../../test/local-daemon';
import { createTestApp, type TestApp } from '../../../../test/test-app';

jest.setTimeout(60_000);

const wrongLogin = (t: TestApp) =>
  t.agent().post('/api/auth/login').send({ email: 'who@x.com', password: 'wrong password' });

// REDIS_URL: the throttle counters live in a real redis-server (Debian's package) instead of
// PostgreSQL; two API instances on one database use the same Redis.
describe('throttle counters in Redis (REDIS_URL, integration)', () => {
  let redis: RunningRedis;
  let a: TestApp;
  let b: TestApp;
  let inspect: Redis;

  beforeAll(async () => {
    redis = await startRedisServer();
    const env = { REDIS_URL: redis.url, THROTTLE_LOGIN_LIMIT: '5' };
    a = await createTestApp(env);
    b = await createTestApp(env, { database: a.db });
    inspect = new Redis(redis.url, { lazyConnect: true });
    await inspect.connect();
  });
  afterAll(async () => {
    inspect?.disconnect();
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  it('counts the wrong logins of two instances together, in Redis rather than PostgreSQL; right ones do not count', async () => {
    // Signed up on a (signup counts under 'auth', apart from logins).
    const { body } = await a.signUp();
    for (let attempt = 0; attempt < 6; attempt += 1)
      await (attempt % 2 === 0 ? a : b)
        .agent()
        .post('/api/auth/login')
        .send({ email: body.email, password: body.password })
        .expect(200);
    const replies = [];
    for (let attempt = 0; attempt < 6; attempt += 1)
      replies.push(await wrongLogin(attempt % 2 === 0 ? a : b));
    expect(replies.map((reply) => reply.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(replies[5].body.message).toBe('Too many attempts. Please wait a minute and try again.');
    expect(Number(replies[5].headers['retry-after-login'])).toBeGreaterThan(50);
    expect(await inspect.keys('grove-throttle:login:*')).toHaveLength(1);
    const [row] = (await a.dataSource.query(
      `SELECT count(*)::int AS n FROM throttle_counters`,
    )) as { n: number }[];
    expect(row.n).toBe(0);
  });

  it('keeps throttling, per instance, while Redis is down, and answers without errors', async () => {
    await redis.stop();
    const statuses = [];
    for (let attempt = 0; attempt < 6; attempt += 1) statuses.push((await wrongLogin(a)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});
