import { format } from 'node:util';
import {
  createTestApp,
  signupBody,
  signupLinkToken,
  type TestApp,
} from '../../../../test/test-app';
import { startHttpStub, waitFor, type HttpStub } from '../../../../test/stub-servers';

jest.setTimeout(60_000);

/**
 * Everything a visitor or owner types that is personal data or a secret; none of it may appear in
 * a log line (OWASP ASVS 4.0.3 V7.1.1, V7.1.2).
 */
const OWNER = signupBody({ email: 'pii.owner@logcheck.example', password: 'owner-secret-pass-1' });
const SECRETS = {
  ownerEmail: OWNER.email,
  ownerPassword: OWNER.password,
  wrongPassword: 'wrong-guess-pass-2',
  rivalPassword: 'rival-secret-pass-3',
  memberEmail: 'pii.member@logcheck.example',
  joinEmail: 'pii.friend@logcheck.example',
  contactEmail: 'pii.visitor@logcheck.example',
  leadEmail: 'pii.lead@logcheck.example',
  invalidEmail: 'pii.invalid@logcheck',
  rivalEmail: 'pii.rival@logcheck.example',
} as const;

describe('log lines carry no emails or passwords (integration)', () => {
  let t: TestApp;
  let siteverify: HttpStub;
  const logLines: string[] = [];
  const consoleLines: string[] = [];
  let spies: jest.SpyInstance[];

  beforeAll(async () => {
    siteverify = await startHttpStub(() => ({ status: 200, body: { success: true } }));
    // Anything written to the console (TypeORM's own logger printed failed statements there).
    spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      jest
        .spyOn(console, method)
        .mockImplementation((...args: unknown[]) => void consoleLines.push(format(...args))),
    );
    t = await createTestApp(
      {
        LOG_LEVEL: 'debug',
        THROTTLE_DISABLED: 'true',
        RECAPTCHA_SITE_KEY: 'site-key',
        RECAPTCHA_SECRET_KEY: 'secret-key',
        RECAPTCHA_VERIFY_URL: siteverify.url,
      },
      { logLines },
    );
  });
  afterAll(async () => {
    await t.close();
    await siteverify.close();
    spies.forEach((spy) => spy.mockRestore());
  });

  it('signing up, a wrong password, forms, joins, search, a unique violation and a 400 log none of what was typed', async () => {
    const { agent } = await t.signUp(OWNER);
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: OWNER.email, password: SECRETS.wrongPassword })
      .expect(401);
    const login = await t
      .agent()
      .post('/api/auth/login')
      .send({ email: OWNER.email, password: OWNER.password })
      .expect(200);
    // The session cookies' values (access JWT, refresh token): secrets too.
    const tokens = ([] as string[])
      .concat(login.headers['set-cookie'] ?? [])
      .map((cookie) => cookie.split(';')[0].split('=').slice(1).join('='))
      .filter((value) => value.length > 16);
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    // Bad input (400) carrying an email and a password.
    await t
      .agent()
      .post('/api/auth/signup')
      .send(signupBody({ email: SECRETS.invalidEmail, password: SECRETS.rivalPassword }))
      .expect(400);

    // Concurrent signups with one new email: each replaces the address's pending sign-up (on its
    // unique index), and the link of the last to commit (signupLinkToken) makes the account.
    const rival = signupBody({ email: SECRETS.rivalEmail, password: SECRETS.rivalPassword });
    const rivals = await Promise.all(
      Array.from({ length: 6 }, () => t.agent().post('/api/auth/signup').send(rival)),
    );
    expect(rivals.map((reply) => reply.status)).toEqual([202, 202, 202, 202, 202, 202]);
    const token = await signupLinkToken(t.dataSource, SECRETS.rivalEmail);
    await t.agent().post('/api/auth/signup/confirm').send({ token }).expect(201);
    // The same for a member's email within one business.
    const member = {
      memberName: 'Pat Lee',
      memberEmail: SECRETS.memberEmail,
      membershipPriceCents: 10_000,
      discountCents: 1000,
    };
    const created = await Promise.all(
      Array.from({ length: 6 }, () => agent.post('/api/members').send(member)),
    );
    expect(created.map((reply) => reply.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const memberId = (created.find((reply) => reply.status === 201)?.body as { id: string }).id;
    // However the races above were scheduled (a slow machine can serialise them so the 'already
    // taken' checks catch every loser), one statement certainly meets the unique index with an
    // email among its parameters, through the app's own connection and logger.
    await expect(
      t.dataSource.query(
        `INSERT INTO users (business_id, email, first_name, last_name, password_hash)
         SELECT business_id, $1, first_name, last_name, password_hash FROM users WHERE lower(email) = lower($1)`,
        [SECRETS.rivalEmail],
      ),
    ).rejects.toMatchObject({ code: '23505' });

    await agent
      .get(`/api/members?page=1&pageSize=20&search=${encodeURIComponent(SECRETS.memberEmail)}`)
      .expect(200);
    const link = (await agent.post(`/api/members/${memberId}/referral-link`).expect(201)).body as {
      code: string;
    };
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: 'Sam Friend', email: SECRETS.joinEmail })
      .expect(201);

    await t
      .agent()
      .post('/api/contact')
      .send({
        firstName: 'Jo',
        lastName: 'Visitor',
        email: SECRETS.contactEmail,
        phoneNumber: '0412 345 678',
        website: 'https://jo-gym.com.au',
        message: `Please call me back, my email is ${SECRETS.contactEmail}`,
        captcha: 'human-token',
      })
      .expect(201);
    await t
      .agent()
      .post('/api/leads')
      .send({
        fullName: 'Robin Park',
        email: SECRETS.leadEmail,
        phone: '0412 345 678',
        company: 'Park Fitness',
        captcha: 'human-token',
      })
      .expect(201);
    // The contact and lead emails go out in background jobs (outbox without SMTP), which log too.
    await waitFor(async () => {
      const [row] = (await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox_emails`)) as {
        n: number;
      }[];
      return row.n >= 2;
    });

    const text = [...logLines, ...consoleLines].join('\n');
    // The capture saw the requests, and the failed statements of the unique violations.
    expect(
      logLines.filter((line) => line.includes('"url":"/api/auth/login"')).length,
    ).toBeGreaterThanOrEqual(2);
    expect(
      logLines.some((line) => line.includes('statement failed') && line.includes('"code":"23505"')),
    ).toBe(true);
    expect(logLines.some((line) => line.includes('kept in outbox_emails'))).toBe(true);
    const found = Object.entries(SECRETS)
      .filter(([, secret]) => text.toLowerCase().includes(secret.toLowerCase()))
      .map(([name]) => name);
    const leaking = text.split('\n').filter((line) => /pii\./i.test(line));
    const tokensFound = tokens.filter((token) => text.includes(token)).length;
    expect({ found, leaking, tokensFound }).toEqual({ found: [], leaking: [], tokensFound: 0 });
    // Headers are logged, with the secret ones redacted.
    expect(text).toContain('"cookie":"[redacted]"');
    expect(text).toContain('"set-cookie":"[redacted]"');
  });
});
