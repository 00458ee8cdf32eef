import { MESSAGES, SESSION_HINT_COOKIE, SIGNUP_CONFIRM_MESSAGES } from '@grove/contracts';
import { queuedSignupLink } from '@grove/testing-smtp';
import { waitFor } from '../../../../test/stub-servers';
import {
  createTestApp,
  signupBody,
  signupLinkToken,
  TEST_APP_ENV,
  type TestApp,
} from '../../../../test/test-app';
import { ACTIVE_SESSION_TRUST_MS } from './sessions.service';
import { SIGNUP_CONFIRM_SUBJECT, SIGNUP_TAKEN_SUBJECT } from './signup-emails';

const cookieHeader = (headers: Record<string, unknown>): string[] => {
  const value = headers['set-cookie'];
  return Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [];
};
const refreshCookieOf = (headers: Record<string, unknown>): string => {
  const cookie = cookieHeader(headers).find((line) => line.startsWith('grove_refresh='));
  if (!cookie) throw new Error('no refresh cookie');
  return cookie.split(';')[0];
};

describe('auth (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** How many owners/staff and businesses exist. */
  const accountCounts = async () => {
    const [row] = (await t.dataSource.query(
      `SELECT (SELECT count(*)::int FROM users) AS users,
              (SELECT count(*)::int FROM businesses) AS businesses`,
    )) as { users: number; businesses: number }[];
    return row;
  };
  /** Live pending sign-ups of an address (any case). */
  const pendingFor = async (email: string) => {
    const [row] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM pending_signups
        WHERE lower(email) = lower($1) AND used_at IS NULL`,
      [email],
    )) as { n: number }[];
    return row?.n;
  };
  /** The emails Grove queued to an address (exactly as written), oldest first; `data`: the whole job's data. */
  const emailsTo = async (email: string) =>
    (await t.dataSource.query(
      `SELECT data->>'subject' AS subject, data->>'text' AS text, data::text AS data FROM pgboss.job
        WHERE name = 'mail.send' AND data->>'to' = $1 ORDER BY created_on`,
      [email],
    )) as { subject: string; text: string; data: string }[];

  describe('signup', () => {
    it('a new and a taken address get the same 202, body and (no) cookies; the taken one is told someone tried, and nothing changes (issue 31 item 6)', async () => {
      const owner = await t.signUp();
      const before = await accountCounts();
      const newAddress = signupBody({ email: 'Siobhan.OBrien@example.ie' });
      const fresh = await t.agent().post('/api/auth/signup').send(newAddress);
      const taken = await t
        .agent()
        .post('/api/auth/signup')
        .send({ ...signupBody(), email: owner.body.email.toUpperCase() });
      expect([taken.status, taken.text]).toEqual([fresh.status, fresh.text]);
      expect(fresh.status).toBe(202);
      expect(fresh.body).toEqual({ status: 'check-email' });
      expect(cookieHeader(fresh.headers)).toEqual([]);
      expect(cookieHeader(taken.headers)).toEqual([]);
      // Neither made an account; only the new address has a pending sign-up.
      expect(await accountCounts()).toEqual(before);
      expect(await pendingFor(owner.body.email)).toBe(0);
      expect(await pendingFor(newAddress.email)).toBe(1);
      // One email each: the link to the new address, 'someone tried' to the taken one.
      const tried = await emailsTo(owner.body.email.toUpperCase());
      expect(tried.map((mail) => mail.subject)).toEqual([SIGNUP_TAKEN_SUBJECT]);
      expect(tried[0]?.text).toContain('http://localhost:3000/login');
      expect(tried[0]?.text).toContain('http://localhost:3000/forgot-password');
      expect(tried[0]?.text).not.toMatch(/token=/);
      const link = await emailsTo(newAddress.email);
      expect(link.map((mail) => mail.subject)).toEqual([SIGNUP_CONFIRM_SUBJECT]);
      // The link is in the queued job only sealed under JWT_SECRET: pg-boss keeps finished jobs for
      // days, and a read of its tables alone yields no link (docs/decisions/signup-by-email.md).
      const queued = await queuedSignupLink(
        t.dataSource,
        newAddress.email,
        TEST_APP_ENV.JWT_SECRET,
      );
      expect(queued.link).toMatch(
        /^http:\/\/localhost:3000\/signup\/confirm#token=[A-Za-z0-9_-]{43}$/,
      );
      expect(link[0]?.data).not.toContain(queued.token);
      expect(link[0]?.data).not.toMatch(/signup\/confirm|token=/);
      // Delivered opened (no SMTP here: into outbox_emails), with the link.
      const delivered = await waitFor(async () => {
        const rows = (await t.dataSource.query(
          `SELECT text FROM outbox_emails WHERE "to" = $1 AND subject = $2`,
          [newAddress.email, SIGNUP_CONFIRM_SUBJECT],
        )) as { text: string }[];
        return rows[0]?.text;
      });
      expect(delivered).toContain(`${queued.link}\n`);
      // The password is kept hashed only, the token as its SHA-256 only.
      const [pending] = (await t.dataSource.query(
        `SELECT password_hash, token_hash FROM pending_signups WHERE email = $1`,
        [newAddress.email],
      )) as { password_hash: string; token_hash: string }[];
      expect(pending?.password_hash).toMatch(/^\$argon2id\$/);
      expect(pending?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('the emailed link creates the business and owner once, signs in with httpOnly cookies, and `me` answers', async () => {
      const before = await accountCounts();
      const agent = t.agent();
      const body = signupBody({ email: 'Owner.One@GreenValley.com.au' });
      await agent.post('/api/auth/signup').send(body).expect(202);
      const token = await signupLinkToken(t.dataSource, body.email);
      const reply = await agent.post('/api/auth/signup/confirm').send({ token }).expect(201);
      expect(reply.body).toEqual({
        id: expect.any(String),
        email: 'Owner.One@GreenValley.com.au',
        firstName: 'Sam',
        lastName: 'Lee',
        username: 'Sam Lee',
        // The one who signs the business up is its owner (issue 34).
        role: 'owner',
        business: {
          id: expect.any(String),
          name: 'Green Valley Fitness',
          country: 'AU',
          locale: 'en-AU',
          currency: 'AUD',
          timeZone: 'Australia/Sydney',
        },
      });
      expect(await accountCounts()).toEqual({
        users: before.users + 1,
        businesses: before.businesses + 1,
      });
      const cookies = cookieHeader(reply.headers);
      const access = cookies.find((line) => line.startsWith('grove_access='));
      const refresh = cookies.find((line) => line.startsWith('grove_refresh='));
      expect(access).toMatch(/HttpOnly/i);
      expect(access).toMatch(/SameSite=Lax/i);
      expect(access).toMatch(/Path=\/;/);
      expect(refresh).toMatch(/HttpOnly/i);
      expect(refresh).toMatch(/Path=\/api\/auth/);
      // The readable hint that lets signed-out pages skip the session check carries no secret.
      const hint = cookies.find((line) =>
        new RegExp(`^${SESSION_HINT_COOKIE}=[\\w-]{8};`).test(line),
      );
      expect(hint).toMatch(/Path=\/;/);
      expect(hint).not.toMatch(/HttpOnly/i);
      const me = await agent.get('/api/auth/me').expect(200);
      expect(me.body).toEqual(reply.body);
      const [session] = (await t.dataSource.query(
        `SELECT refresh_token_hash FROM sessions WHERE user_id = $1`,
        [reply.body.id],
      )) as { refresh_token_hash: string }[];
      expect(session.refresh_token_hash).toMatch(/^[0-9a-f]{64}$/);
      const [user] = (await t.dataSource.query(`SELECT password_hash FROM users WHERE id = $1`, [
        reply.body.id,
      ])) as {
        password_hash: string;
      }[];
      expect(user.password_hash).toMatch(/^\$argon2id\$/);
      // The owner signs in with the password typed at sign-up.
      await t
        .agent()
        .post('/api/auth/login')
        .send({ email: body.email, password: body.password })
        .expect(200);
      // The link works once: a second use creates nothing.
      const again = await t.agent().post('/api/auth/signup/confirm').send({ token }).expect(400);
      expect(again.body).toEqual({ statusCode: 400, message: SIGNUP_CONFIRM_MESSAGES.linkInvalid });
      expect(cookieHeader(again.headers)).toEqual([]);
      expect((await accountCounts()).businesses).toBe(before.businesses + 1);
    });

    it('an expired link is refused and creates nothing; an unknown or malformed one too', async () => {
      const body = signupBody();
      await t.agent().post('/api/auth/signup').send(body).expect(202);
      const token = await signupLinkToken(t.dataSource, body.email);
      await t.dataSource.query(
        `UPDATE pending_signups SET expires_at = now() - interval '1 second' WHERE email = $1`,
        [body.email],
      );
      const before = await accountCounts();
      for (const sent of [{ token }, { token: 'x'.repeat(43) }, { token: 42 }, {}]) {
        const reply = await t.agent().post('/api/auth/signup/confirm').send(sent).expect(400);
        expect(reply.body.message).toBe(SIGNUP_CONFIRM_MESSAGES.linkInvalid);
      }
      expect(await accountCounts()).toEqual(before);
      await t
        .agent()
        .post('/api/auth/login')
        .send({ email: body.email, password: body.password })
        .expect(401);
    });

    it('a second sign-up for a pending address replaces the first link (its form wins)', async () => {
      const first = signupBody();
      await t.agent().post('/api/auth/signup').send(first).expect(202);
      const firstToken = await signupLinkToken(t.dataSource, first.email);
      const second = { ...first, businessName: 'Ana-Sofía Pilates' };
      await t.agent().post('/api/auth/signup').send(second).expect(202);
      const secondToken = await signupLinkToken(t.dataSource, first.email);
      expect(secondToken).not.toBe(firstToken);
      expect(await pendingFor(first.email)).toBe(1);
      const before = await accountCounts();
      await t.agent().post('/api/auth/signup/confirm').send({ token: firstToken }).expect(400);
      expect(await accountCounts()).toEqual(before);
      const reply = await t
        .agent()
        .post('/api/auth/signup/confirm')
        .send({ token: secondToken })
        .expect(201);
      expect(reply.body.business.name).toBe('Ana-Sofía Pilates');
    });

    it('a link whose address got an account meanwhile creates nothing → 409 pointing to log in', async () => {
      const body = signupBody();
      // Two sign-ups' links cannot both be live for one address; an account made through another
      // route (e.g. a staff invitation) can take it meanwhile: simulated by a row.
      await t.agent().post('/api/auth/signup').send(body).expect(202);
      const token = await signupLinkToken(t.dataSource, body.email);
      const other = await t.signUp();
      await t.dataSource.query(`UPDATE users SET email = $1 WHERE id = $2`, [
        body.email.toUpperCase(),
        other.user.id,
      ]);
      const before = await accountCounts();
      const reply = await t.agent().post('/api/auth/signup/confirm').send({ token }).expect(409);
      expect(reply.body).toEqual({
        statusCode: 409,
        message: SIGNUP_CONFIRM_MESSAGES.accountExists,
      });
      expect(await accountCounts()).toEqual(before);
    });

    it.each([
      [{ website: '' }, MESSAGES.fillAllFields],
      [{ businessName: '  ' }, MESSAGES.fillAllFields],
      [{ businessName: 'G'.repeat(201) }, MESSAGES.businessNameRequired],
      [{ firstName: 'R2D2', email: 'bad' }, 'Invalid Name'],
      [{ email: 'not-an-email', phoneNumber: '12' }, 'Invalid Email'],
      [{ phoneNumber: '12345' }, 'Invalid Phone Number'],
      [{ phoneNumber: '(415) 555-0134' }, 'Invalid Phone Number'],
      [{ country: 'US', phoneNumber: '0412 345 678' }, 'Invalid Phone Number'],
      [{ country: 'Narnia' }, MESSAGES.countryInvalid],
      [{ website: 'not a site' }, 'Invalid URL'],
      [{ password: 'short' }, MESSAGES.passwordTooShort],
    ])(
      'reports the first failing docs/product.md#validation rule for %p → 400 %p',
      async (overrides, message) => {
        const reply = await t
          .agent()
          .post('/api/auth/signup')
          .send(signupBody(overrides))
          .expect(400);
        expect(reply.body.message).toBe(message);
      },
    );

    it('a US owner signs up with (415) 555-0134 in the United States; the business keeps its country (docs/product.md#country)', async () => {
      const { agent, user } = await t.signUp({ country: 'US', phoneNumber: '(415) 555-0134' });
      const [business] = (await t.dataSource.query(
        `SELECT country, phone FROM businesses WHERE id = $1`,
        [user.business.id],
      )) as { country: string; phone: string }[];
      expect(business).toEqual({ country: 'US', phone: '(415) 555-0134' });
      expect((await agent.get('/api/account').expect(200)).body.country).toBe('US');
      // Without a country the business is Australian.
      const au = await t.signUp();
      expect((await au.agent.get('/api/account').expect(200)).body.country).toBe('AU');
    });

    it('refuses unknown fields', async () => {
      await t
        .agent()
        .post('/api/auth/signup')
        .send({ ...signupBody(), role: 'admin' })
        .expect(400);
    });
  });

  describe('login', () => {
    it('signs in with the right password (email case-insensitive) → 200 SessionUser', async () => {
      const { body } = await t.signUp();
      const agent = t.agent();
      const reply = await agent
        .post('/api/auth/login')
        .send({ email: body.email.toUpperCase(), password: body.password })
        .expect(200);
      expect(reply.body.email).toBe(body.email);
      await agent.get('/api/auth/me').expect(200);
    });

    it('answers a wrong password or unknown email with the SPEC text → 401', async () => {
      const { body } = await t.signUp();
      const wrong = await t
        .agent()
        .post('/api/auth/login')
        .send({ email: body.email, password: 'wrong password' })
        .expect(401);
      expect(wrong.body).toEqual({
        statusCode: 401,
        message: 'Password or username does not match any user',
      });
      const unknown = await t
        .agent()
        .post('/api/auth/login')
        .send({ email: 'nobody@x.com', password: 'whatever1' })
        .expect(401);
      expect(unknown.body.message).toBe('Password or username does not match any user');
      const oneEmpty = await t
        .agent()
        .post('/api/auth/login')
        .send({ email: body.email, password: '' })
        .expect(401);
      expect(oneEmpty.body.message).toBe(MESSAGES.loginFailed);
    });

    it('asks for both fields when both are empty → 400', async () => {
      for (const payload of [{ email: '', password: '' }, {}]) {
        const reply = await t.agent().post('/api/auth/login').send(payload).expect(400);
        expect(reply.body).toEqual({
          statusCode: 400,
          message: 'Please add to email and password fields',
        });
      }
    });

    it('needs a session for `me` → 401 without one', async () => {
      await t.agent().get('/api/auth/me').expect(401);
      await t.agent().get('/api/auth/me').set('Authorization', 'Bearer not.a.token').expect(401);
    });

    it('accepts the access token as a Bearer header too', async () => {
      const { body } = await t.signUp();
      const reply = await t
        .agent()
        .post('/api/auth/login')
        .send({ email: body.email, password: body.password })
        .expect(200);
      const access = cookieHeader(reply.headers).find((line) => line.startsWith('grove_access='));
      const token = access?.split(';')[0].slice('grove_access='.length) ?? '';
      await t.agent().get('/api/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
    });
  });

  describe('refresh and logout', () => {
    it('rotates the refresh token: a new one each time, and the session stays signed in', async () => {
      const { agent } = await t.signUp();
      const first = await agent.post('/api/auth/refresh').expect(200);
      const oldRefresh = refreshCookieOf(first.headers);
      const second = await agent.post('/api/auth/refresh').expect(200);
      expect(refreshCookieOf(second.headers)).not.toBe(oldRefresh);
      await agent.get('/api/auth/me').expect(200);
      // Reuse of a rotated token (grace window, then family revocation): sessions.integration-spec.ts.
    });

    it('refuses a missing or unknown refresh token → 401', async () => {
      await t.agent().post('/api/auth/refresh').expect(401);
      await t.agent().post('/api/auth/refresh').set('Cookie', 'grove_refresh=made-up').expect(401);
    });

    it('clears the auth cookies when it refuses a refresh token, so the browser stops presenting it', async () => {
      const refused = await t
        .agent()
        .post('/api/auth/refresh')
        .set('Cookie', 'grove_refresh=made-up')
        .expect(401);
      expect(refused.body).toEqual({
        statusCode: 401,
        message: 'Your session has ended. Please log in again.',
      });
      const cleared = cookieHeader(refused.headers);
      expect(cleared.some((line) => /^grove_access=;/.test(line))).toBe(true);
      expect(cleared.some((line) => /^grove_refresh=;.*Path=\/api\/auth/.test(line))).toBe(true);
      expect(cleared.some((line) => line.startsWith(`${SESSION_HINT_COOKIE}=;`))).toBe(true);
    });

    it('logout revokes the session for real and clears both cookies', async () => {
      const { agent } = await t.signUp();
      const login = await agent.post('/api/auth/refresh').expect(200);
      const refresh = refreshCookieOf(login.headers);
      const access =
        cookieHeader(login.headers)
          .find((line) => line.startsWith('grove_access='))
          ?.split(';')[0] ?? '';
      const out = await agent.post('/api/auth/logout').expect(204);
      const cleared = cookieHeader(out.headers);
      expect(cleared.some((line) => /^grove_access=;/.test(line))).toBe(true);
      expect(cleared.some((line) => /^grove_refresh=;.*Path=\/api\/auth/.test(line))).toBe(true);
      expect(cleared.some((line) => line.startsWith(`${SESSION_HINT_COOKIE}=;`))).toBe(true);
      // The logged-out refresh token is refused, and the old access token no longer works.
      await t.agent().post('/api/auth/refresh').set('Cookie', refresh).expect(401);
      await t.agent().get('/api/auth/me').set('Cookie', access).expect(401);
    });
  });

  describe('a second API instance on the same database', () => {
    let other: TestApp;
    beforeAll(async () => {
      other = await createTestApp({}, { database: t.db });
    });
    afterAll(() => other.close());

    it('stops accepting a session logged out on the first one within the trust window', async () => {
      const { agent } = await t.signUp();
      const login = await agent.post('/api/auth/refresh').expect(200);
      const access =
        cookieHeader(login.headers)
          .find((line) => line.startsWith('grove_access='))
          ?.split(';')[0] ?? '';
      // The second instance confirms the session (and now trusts it for a moment).
      await other.agent().get('/api/auth/me').set('Cookie', access).expect(200);

      await agent.post('/api/auth/logout').expect(204);
      const loggedOutAt = Date.now();
      await t.agent().get('/api/auth/me').set('Cookie', access).expect(401);
      let status = 200;
      while (status === 200 && Date.now() - loggedOutAt < ACTIVE_SESSION_TRUST_MS + 2_000) {
        status = (await other.agent().get('/api/auth/me').set('Cookie', access)).status;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(401);
      expect(Date.now() - loggedOutAt).toBeLessThan(ACTIVE_SESSION_TRUST_MS + 2_000);
    });
  });

  describe('expired refresh token', () => {
    it('is refused', async () => {
      const { agent, user } = await t.signUp();
      await t.dataSource.query(
        `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
        [user.id],
      );
      await agent.post('/api/auth/refresh').expect(401);
    });
  });
});

describe('auth throttling (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_LOGIN_LIMIT: '5' });
  });
  afterAll(() => t.close());

  it('answers the 6th login attempt within a minute with 429', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const reply = await t
        .agent()
        .post('/api/auth/login')
        .send({ email: 'who@x.com', password: 'wrong password' });
      statuses.push(reply.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('throttles signup the same way', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const reply = await t
        .agent()
        .post('/api/auth/signup')
        .send(signupBody({ website: '' }));
      statuses.push(reply.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });
});
