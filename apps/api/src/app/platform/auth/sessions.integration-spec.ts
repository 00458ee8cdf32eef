import jwt from 'jsonwebtoken';
import type { Response } from 'supertest';
import {
  createTestApp,
  signupBody,
  signUpThroughLink,
  type TestApp,
} from '../../../../test/test-app';

/** The test app's JWT_SECRET (test/test-app.ts), to sign tokens whose claims disagree with their session. */
const JWT_SECRET = 'integration-test-secret-0123456789';

const setCookies = (reply: Response): string[] => {
  const value: unknown = reply.headers['set-cookie'];
  return Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [];
};
/** `name=value` of the cookie `name` the reply set (empty when it set none). */
const cookieOf = (reply: Response, name: string): string =>
  setCookies(reply)
    .find((line) => line.startsWith(`${name}=`))
    ?.split(';')[0] ?? '';
const accessTokenOf = (reply: Response, name = 'grove_access'): string =>
  cookieOf(reply, name).slice(name.length + 1);

/**
 * Moves every timestamp of `userId`'s sessions `seconds` into the past: to the server, that much
 * time has gone by (sign-in, last refresh, rotation and deadlines alike).
 */
async function timePasses(t: TestApp, userId: string, seconds: number): Promise<void> {
  await t.dataSource.query(
    `UPDATE sessions SET signed_in_at = signed_in_at - make_interval(secs => $2), created_at = created_at - make_interval(secs => $2),
       expires_at = expires_at - make_interval(secs => $2), revoked_at = revoked_at - make_interval(secs => $2)
     WHERE user_id = $1`,
    [userId, seconds],
  );
}

describe('sessions (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Absolute lifetime 2 h, idle timeout 1 h, grace 30 s (the default).
    t = await createTestApp({
      REFRESH_TOKEN_TTL_SECONDS: '7200',
      SESSION_IDLE_TIMEOUT_SECONDS: '3600',
    });
  });
  afterAll(() => t.close());

  describe('two tabs refreshing with the same refresh token', () => {
    it('at the same moment: both get a working access token and the session lives on', async () => {
      const { agent } = await t.signUp();
      const first = await agent.post('/api/auth/refresh').expect(200);
      const refresh = cookieOf(first, 'grove_refresh');
      const [a, b] = await Promise.all([
        t.agent().post('/api/auth/refresh').set('Cookie', refresh),
        t.agent().post('/api/auth/refresh').set('Cookie', refresh),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      // Exactly one of them rotated (set a new refresh cookie); the other answered within the grace window.
      expect(
        [cookieOf(a, 'grove_refresh'), cookieOf(b, 'grove_refresh')].filter(Boolean),
      ).toHaveLength(1);
      for (const reply of [a, b]) {
        await t
          .agent()
          .get('/api/auth/me')
          .set('Cookie', cookieOf(reply, 'grove_access'))
          .expect(200);
      }
      const rotated = cookieOf(a, 'grove_refresh') || cookieOf(b, 'grove_refresh');
      await t.agent().post('/api/auth/refresh').set('Cookie', rotated).expect(200);
    });

    it('the second within the grace window: answered with the current session, keeps the new refresh cookie, revokes nothing', async () => {
      const { agent, user } = await t.signUp();
      const old = cookieOf(await agent.post('/api/auth/refresh').expect(200), 'grove_refresh');
      // The first tab rotates…
      const rotated = await t.agent().post('/api/auth/refresh').set('Cookie', old).expect(200);
      const current = cookieOf(rotated, 'grove_refresh');
      expect(current).not.toBe('');
      await timePasses(t, user.id, 25);
      // …and the second tab arrives 25 s later with the token the first one just rotated.
      const late = await t.agent().post('/api/auth/refresh').set('Cookie', old).expect(200);
      expect(late.body).toEqual(user);
      expect(setCookies(late).some((line) => line.startsWith('grove_refresh='))).toBe(false);
      // A new hint value: tabs see that the session's cookies changed.
      expect(cookieOf(late, 'grove_signed_in')).toMatch(/^grove_signed_in=[\w-]{8}$/);
      expect(cookieOf(late, 'grove_signed_in')).not.toBe(cookieOf(rotated, 'grove_signed_in'));
      await t.agent().get('/api/auth/me').set('Cookie', cookieOf(late, 'grove_access')).expect(200);
      await t
        .agent()
        .get('/api/auth/me')
        .set('Cookie', cookieOf(rotated, 'grove_access'))
        .expect(200);
      // The refresh token the first tab got still works: nothing was revoked.
      await t.agent().post('/api/auth/refresh').set('Cookie', current).expect(200);
      const [{ live }] = (await t.dataSource.query(
        `SELECT count(*)::int AS live FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`,
        [user.id],
      )) as { live: number }[];
      expect(live).toBe(1);
    });

    it('after the grace window: reuse revokes every session of that sign-in, and only of that sign-in', async () => {
      const { agent, user, body } = await t.signUp();
      const otherDevice = t.agent();
      await otherDevice
        .post('/api/auth/login')
        .send({ email: body.email, password: body.password })
        .expect(200);
      const old = cookieOf(await agent.post('/api/auth/refresh').expect(200), 'grove_refresh');
      await agent.post('/api/auth/refresh').expect(200);
      await agent.get('/api/auth/me').expect(200);
      await timePasses(t, user.id, 31);

      const replay = await t.agent().post('/api/auth/refresh').set('Cookie', old).expect(401);
      expect(replay.body).toEqual({
        statusCode: 401,
        message: 'Your session has ended. Please log in again.',
      });
      expect(setCookies(replay).some((line) => /^grove_refresh=;/.test(line))).toBe(true);
      // The live session of that sign-in is gone: its access token and its refresh token are refused.
      await agent.get('/api/auth/me').expect(401);
      await agent.post('/api/auth/refresh').expect(401);
      // The owner's other sign-in (another device) is not that family: still signed in.
      await otherDevice.get('/api/auth/me').expect(200);
      await otherDevice.post('/api/auth/refresh').expect(200);
    });

    it('a token rotated whose sign-in was then logged out is refused even within the grace window', async () => {
      const { agent } = await t.signUp();
      const old = cookieOf(await agent.post('/api/auth/refresh').expect(200), 'grove_refresh');
      await agent.post('/api/auth/refresh').expect(200);
      await agent.post('/api/auth/logout').expect(204);
      await t.agent().post('/api/auth/refresh').set('Cookie', old).expect(401);
    });
  });

  describe('lifetime', () => {
    it('ends a sign-in at its absolute deadline: refreshing never extends it', async () => {
      const { agent, user } = await t.signUp();
      // Refreshed every 50 minutes (inside the 1 h idle timeout)…
      for (let round = 0; round < 2; round++) {
        await timePasses(t, user.id, 3000);
        await agent.post('/api/auth/refresh').expect(200);
        await agent.get('/api/auth/me').expect(200);
      }
      // …100 minutes after sign-in the latest refresh cookie ends with the sign-in, 20 minutes from now.
      const [{ seconds }] = (await t.dataSource.query(
        `SELECT extract(epoch FROM expires_at - now())::int AS seconds FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`,
        [user.id],
      )) as { seconds: number }[];
      expect(seconds).toBeGreaterThan(1190);
      expect(seconds).toBeLessThanOrEqual(1200);
      const refreshed = await agent.post('/api/auth/refresh').expect(200);
      const maxAge = Number(
        /Max-Age=(\d+)/i.exec(
          setCookies(refreshed).find((line) => line.startsWith('grove_refresh=')) ?? '',
        )?.[1],
      );
      expect(maxAge).toBeGreaterThan(1190);
      expect(maxAge).toBeLessThanOrEqual(1200);
      // 2 h after sign-in (well inside the idle timeout since the last refresh): over.
      await timePasses(t, user.id, 1201);
      await agent.get('/api/auth/me').expect(401);
      await agent.post('/api/auth/refresh').expect(401);
    });

    it('ends a sign-in left idle longer than the idle timeout', async () => {
      const { agent, user } = await t.signUp();
      await timePasses(t, user.id, 3590);
      await agent.post('/api/auth/refresh').expect(200);
      // Used 59 min 50 s after sign-in: the idle clock restarted. Another hour without a refresh
      // ends it (the new session was never checked, so no instance trusts it from memory).
      await timePasses(t, user.id, 3601);
      await agent.get('/api/auth/me').expect(401);
      await agent.post('/api/auth/refresh').expect(401);
    });
  });

  describe('an access token whose claims are not its session’s', () => {
    it('is refused with 401 when its user or its business is not the session’s, even while the session is trusted', async () => {
      const { agent, user } = await t.signUp();
      const other = await t.signUp();
      const login = await agent.post('/api/auth/refresh').expect(200);
      const token = accessTokenOf(login);
      const { sub, bid, sid } = jwt.decode(token) as { sub: string; bid: string; sid: string };
      const claims = { sub, bid, sid };
      expect(claims).toMatchObject({ sub: user.id, bid: user.business.id });
      // The genuine token: the session is confirmed, and now trusted for ACTIVE_SESSION_TRUST_MS.
      await t.agent().get('/api/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
      const sign = (payload: object) =>
        jwt.sign(payload, JWT_SECRET, { algorithm: 'HS256', expiresIn: 900 });
      const mismatches = [
        { sub: other.user.id, bid: other.user.business.id, sid: claims.sid },
        { sub: other.user.id, bid: claims.bid, sid: claims.sid },
        { sub: claims.sub, bid: other.user.business.id, sid: claims.sid },
      ];
      for (const payload of mismatches) {
        const reply = await t
          .agent()
          .get('/api/members')
          .set('Authorization', `Bearer ${sign(payload)}`)
          .expect(401);
        expect(reply.body).toEqual({ statusCode: 401, message: 'Please log in' });
      }
      // Once the trust has lapsed too (a fresh instance asks the database).
      const fresh = await createTestApp({}, { database: t.db });
      try {
        for (const payload of mismatches) {
          await fresh
            .agent()
            .get('/api/members')
            .set('Authorization', `Bearer ${sign(payload)}`)
            .expect(401);
        }
        await fresh
          .agent()
          .get('/api/members')
          .set('Authorization', `Bearer ${sign(claims)}`)
          .expect(200);
      } finally {
        await fresh.close();
      }
    });
  });

  describe('logout', () => {
    it('with only a Bearer token revokes that session', async () => {
      const { agent } = await t.signUp();
      const login = await agent.post('/api/auth/refresh').expect(200);
      const token = accessTokenOf(login);
      await t.agent().get('/api/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
      await t.agent().post('/api/auth/logout').set('Authorization', `Bearer ${token}`).expect(204);
      await t.agent().get('/api/auth/me').set('Authorization', `Bearer ${token}`).expect(401);
      // The sign-in is over on the browser that held its cookies as well.
      await agent.post('/api/auth/refresh').expect(401);
    });

    it('with a refresh cookie the tab had not yet seen rotated still ends the sign-in', async () => {
      const { agent } = await t.signUp();
      const stale = cookieOf(await agent.post('/api/auth/refresh').expect(200), 'grove_refresh');
      await agent.post('/api/auth/refresh').expect(200);
      await t.agent().post('/api/auth/logout').set('Cookie', stale).expect(204);
      await agent.get('/api/auth/me').expect(401);
      await agent.post('/api/auth/refresh').expect(401);
    });

    it('with a forged Bearer token revokes nothing', async () => {
      const { agent } = await t.signUp();
      const { sub, bid, sid } = jwt.decode(
        accessTokenOf(await agent.post('/api/auth/refresh').expect(200)),
      ) as Record<string, string>;
      const forged = jwt.sign({ sub, bid, sid }, 'not-the-secret-not-the-secret', {
        algorithm: 'HS256',
      });
      await t.agent().post('/api/auth/logout').set('Authorization', `Bearer ${forged}`).expect(204);
      await agent.get('/api/auth/me').expect(200);
    });
  });
});

describe('sessions with REFRESH_REUSE_GRACE_SECONDS=0 (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REFRESH_REUSE_GRACE_SECONDS: '0' });
  });
  afterAll(() => t.close());

  it('treats any second use of a rotated refresh token as reuse', async () => {
    const { agent } = await t.signUp();
    const old = cookieOf(await agent.post('/api/auth/refresh').expect(200), 'grove_refresh');
    await agent.post('/api/auth/refresh').expect(200);
    await t.agent().post('/api/auth/refresh').set('Cookie', old).expect(401);
    await agent.get('/api/auth/me').expect(401);
  });
});

describe('Secure cookies (COOKIE_SECURE=true) (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ COOKIE_SECURE: 'true' });
  });
  afterAll(() => t.close());

  it('carry the __Host- prefix (Secure, Path=/, no Domain) and are the only names read', async () => {
    const reply = await signUpThroughLink(t.agent(), t.dataSource, signupBody());
    expect(reply.status).toBe(201);
    const lines = setCookies(reply);
    expect(lines.map((line) => line.split('=')[0]).sort()).toEqual([
      '__Host-grove_access',
      '__Host-grove_refresh',
      '__Host-grove_signed_in',
    ]);
    for (const line of lines) {
      expect(line).toMatch(/; Secure/i);
      expect(line).toMatch(/; Path=\/(;|$)/);
      expect(line).not.toMatch(/Domain=/i);
    }
    const access = cookieOf(reply, '__Host-grove_access');
    const refresh = cookieOf(reply, '__Host-grove_refresh');
    await t.agent().get('/api/auth/me').set('Cookie', access).expect(200);
    // The same token under the plain name is not a session cookie here.
    await t
      .agent()
      .get('/api/auth/me')
      .set('Cookie', `grove_access=${accessTokenOf(reply, '__Host-grove_access')}`)
      .expect(401);
    const refreshed = await t.agent().post('/api/auth/refresh').set('Cookie', refresh).expect(200);
    expect(cookieOf(refreshed, '__Host-grove_refresh')).not.toBe('');
    const out = await t
      .agent()
      .post('/api/auth/logout')
      .set(
        'Cookie',
        `${cookieOf(refreshed, '__Host-grove_refresh')}; ${cookieOf(refreshed, '__Host-grove_access')}`,
      )
      .expect(204);
    expect(
      setCookies(out)
        .map((line) => line.split('=')[0])
        .sort(),
    ).toEqual(['__Host-grove_access', '__Host-grove_refresh', '__Host-grove_signed_in']);
    await t
      .agent()
      .get('/api/auth/me')
      .set('Cookie', cookieOf(refreshed, '__Host-grove_access'))
      .expect(401);
  });
});
