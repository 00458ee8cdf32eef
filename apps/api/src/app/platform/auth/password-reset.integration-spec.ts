import { createHash } from 'node:crypto';
import type TestAgent from 'supertest/lib/agent';
import { MESSAGES, type SessionUser } from '@grove/contracts';
import { recipient, type ParsedMail, type SmtpCatcher } from '@grove/testing-smtp';
import { createMailTestApp } from '../../../../test/member-mail';
import { waitFor } from '../../../../test/stub-servers';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { MailService } from '../mail/mail.service';

/**
 * Forgot password (issue 25, Build 3; docs/product.md#forgot-password) on PostgreSQL, through a
 * real SMTP server: the same reply for any address, a single-use 30-minute link stored hashed,
 * the signup password rule, every other session ended, at most 3 links an hour per owner.
 */
describe('forgot password (integration)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp({
      CONTACT_RECIPIENT: 'help@grove.test',
      THROTTLE_PASSWORD_RESET_LIMIT: '1000',
    }));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const RESET_SUBJECT = 'Choose a new Grove password';
  const emailsTo = (address: string, subject = RESET_SUBJECT): ParsedMail[] =>
    smtp.emails.filter(
      (mail) =>
        recipient(mail)?.toLowerCase() === address.toLowerCase() && mail.subject === subject,
    );
  const tokenOf = (mail: ParsedMail): string => {
    const match = /\/reset-password#token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    if (!match) throw new Error(`no reset link in: ${mail.text}`);
    return match[1];
  };
  /** Asks for a link for `email` and waits for email number `nth` (1-based) to it. */
  const askAndReceive = async (email: string, nth = emailsTo(email).length + 1) => {
    await t.agent().post('/api/auth/password-reset').send({ email }).expect(202);
    const mail = await waitFor(async () => emailsTo(email)[nth - 1]);
    return tokenOf(mail);
  };
  const confirm = (agent: TestAgent, token: string, password: string) =>
    agent.post('/api/auth/password-reset/confirm').send({ token, password });
  const tokenRows = async (email: string) =>
    (await t.dataSource.query(
      `SELECT p.token_hash, p.used_at, p.expires_at - p.created_at AS ttl
         FROM password_reset_tokens p JOIN users u ON u.id = p.user_id
        WHERE lower(u.email) = lower($1) ORDER BY p.created_at`,
      [email],
    )) as { token_hash: string; used_at: Date | null; ttl: { minutes?: number } }[];
  const jobsSettled = () =>
    waitFor(async () => {
      const [{ n }] = (await t.dataSource.query(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'password-reset.email' AND state IN ('created', 'retry', 'active')`,
      )) as { n: number }[];
      return n === 0;
    });

  it('answers a known and an unknown address alike (202, same body); only the owner is emailed, a link stored as its SHA-256 for 30 minutes', async () => {
    const { body } = await t.signUp({ firstName: 'Siobhán', businessName: 'Harbour Yoga' });
    const known = await t
      .agent()
      .post('/api/auth/password-reset')
      .send({ email: body.email.toUpperCase() })
      .expect(202);
    const unknown = await t
      .agent()
      .post('/api/auth/password-reset')
      .send({ email: 'nobody.here@example.com' })
      .expect(202);
    expect(known.body).toEqual({ message: MESSAGES.passwordResetSent });
    expect(unknown.body).toEqual(known.body);
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());

    const mail = await waitFor(async () => emailsTo(body.email)[0]);
    expect(mail.from?.value[0].address).toBe('no-reply@grove.test');
    expect(mail.text).toContain('Hello Siobhán,');
    expect(mail.text).toContain(`(${body.email}, Harbour Yoga)`);
    expect(mail.text).toContain('https://grove.example.com/reset-password#token=');
    expect(mail.text).toContain('within 30 minutes');
    const token = tokenOf(mail);
    const rows = await tokenRows(body.email);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(rows[0].ttl.minutes).toBe(30);
    expect(JSON.stringify(rows)).not.toContain(token);
    // Nor is the plain token kept in the job that sent it.
    const jobs = (await t.dataSource.query(
      `SELECT data::text AS data FROM pgboss.job WHERE name = 'password-reset.email'`,
    )) as { data: string }[];
    expect(jobs.map((job) => job.data).join()).not.toContain(token);

    await jobsSettled();
    expect(smtp.emails.filter((m) => recipient(m) === 'nobody.here@example.com')).toEqual([]);
  });

  it('a password changed in Account Settings ends the reset links sent before it, and says so by email (issue 34 item 2)', async () => {
    const { agent, body } = await t.signUp({ firstName: "Zoë O'Brien-Núñez" });
    const token = await askAndReceive(body.email);
    await agent
      .post('/api/account/password')
      .send({ currentPassword: body.password, newPassword: 'a whole new passphrase' })
      .expect(200);
    const changed = await waitFor(
      async () => emailsTo(body.email, 'Your Grove password was changed')[0],
    );
    expect(changed.text).toContain("Hello Zoë O'Brien-Núñez,");

    // The link sent before the change cannot set another password.
    const refused = await confirm(t.agent(), token, 'a password from the old link').expect(400);
    expect(refused.body.message).toBe(MESSAGES.passwordResetLinkInvalid);
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: body.email, password: 'a whole new passphrase' })
      .expect(200);
    // A link asked for after the change works.
    const fresh = await askAndReceive(body.email);
    await confirm(t.agent(), fresh, 'the newest passphrase').expect(200);
  });

  it('a reset whose "password changed" email cannot be queued changes nothing: the old password, the sessions and the link still work', async () => {
    const { agent, body } = await t.signUp({ firstName: 'Kofi' });
    const token = await askAndReceive(body.email);
    const queue = jest
      .spyOn(t.app.get(MailService), 'queue')
      .mockRejectedValueOnce(new Error('the jobs table did not answer'));
    try {
      const failed = await confirm(t.agent(), token, 'a brand new passphrase');
      expect(failed.status).toBeGreaterThanOrEqual(500);
    } finally {
      queue.mockRestore();
    }
    await agent.get('/api/auth/me').expect(200);
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: body.email, password: body.password })
      .expect(200);
    await confirm(t.agent(), token, 'a brand new passphrase').expect(200);
    await waitFor(async () => emailsTo(body.email, 'Your Grove password was changed')[0]);
  });

  it('refuses a malformed address with 400 and queues nothing', async () => {
    const reply = await t
      .agent()
      .post('/api/auth/password-reset')
      .send({ email: 'not-an-address' })
      .expect(400);
    expect(reply.body).toEqual({
      statusCode: 400,
      message: MESSAGES.invalidEmail,
      fieldErrors: { email: MESSAGES.invalidEmail },
    });
  });

  it('sets the new password under the signup rule, signs in, ends every other session, works once and says so by email', async () => {
    const { agent: first, body } = await t.signUp({ firstName: 'Robin' });
    const second = t.agent();
    await second
      .post('/api/auth/login')
      .send({ email: body.email, password: body.password })
      .expect(200);
    const token = await askAndReceive(body.email);

    // A password against the rule: 400, nothing changes (the link still works, no one signed out).
    for (const [password, message] of [
      ['too short', MESSAGES.passwordTooShort],
      ['password1234', MESSAGES.passwordTooCommon],
    ]) {
      const refused = await confirm(t.agent(), token, password).expect(400);
      expect(refused.body).toEqual({
        statusCode: 400,
        message,
        fieldErrors: { password: message },
      });
    }
    await first.get('/api/auth/me').expect(200);
    expect((await tokenRows(body.email))[0].used_at).toBeNull();

    const browser = t.agent();
    const reset = await confirm(browser, token, 'a brand new passphrase').expect(200);
    expect((reset.body as SessionUser).email).toBe(body.email);
    expect(reset.headers['set-cookie']).toEqual(
      expect.arrayContaining([expect.stringMatching(/^grove_access=/)]),
    );
    await browser.get('/api/auth/me').expect(200);
    // Every session from before is gone: both browsers, access and refresh.
    await first.get('/api/auth/me').expect(401);
    await second.get('/api/auth/me').expect(401);
    await second.post('/api/auth/refresh').expect(401);
    // The old password no longer works; the new one does.
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: body.email, password: body.password })
      .expect(401);
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: body.email, password: 'a brand new passphrase' })
      .expect(200);
    // Single use.
    const again = await confirm(t.agent(), token, 'another new passphrase').expect(400);
    expect(again.body).toEqual({ statusCode: 400, message: MESSAGES.passwordResetLinkInvalid });
    const changed = await waitFor(
      async () => emailsTo(body.email, 'Your Grove password was changed')[0],
    );
    expect(changed.text).toContain('Hello Robin,');
    expect(changed.text).not.toContain('a brand new passphrase');
  });

  it('refuses an expired link, an unknown token and an older link once a newer one was used, changing nothing', async () => {
    const { agent, body } = await t.signUp();
    const older = await askAndReceive(body.email, 1);
    const newer = await askAndReceive(body.email, 2);
    await t.dataSource.query(
      `UPDATE password_reset_tokens SET expires_at = now() - interval '1 second'
        WHERE token_hash = $1`,
      [createHash('sha256').update(newer).digest('hex')],
    );
    for (const token of [newer, 'A'.repeat(43), '']) {
      const reply = await confirm(t.agent(), token, 'a brand new passphrase').expect(400);
      expect(reply.body.message).toBe(MESSAGES.passwordResetLinkInvalid);
    }
    await agent.get('/api/auth/me').expect(200);

    const third = await askAndReceive(body.email, 3);
    await confirm(t.agent(), third, 'a brand new passphrase').expect(200);
    const reply = await confirm(t.agent(), older, 'yet another passphrase').expect(400);
    expect(reply.body.message).toBe(MESSAGES.passwordResetLinkInvalid);
  });

  it('emails one owner at most 3 links an hour; the 4th and 5th ask answer the same and send nothing', async () => {
    const { body } = await t.signUp();
    for (let ask = 0; ask < 5; ask += 1) {
      const reply = await t
        .agent()
        .post('/api/auth/password-reset')
        .send({ email: body.email })
        .expect(202);
      expect(reply.body).toEqual({ message: MESSAGES.passwordResetSent });
    }
    await waitFor(async () => emailsTo(body.email).length === 3);
    await jobsSettled();
    expect(emailsTo(body.email)).toHaveLength(3);
    expect(await tokenRows(body.email)).toHaveLength(3);
  });

  it("tenant isolation: one business's link changes only its owner; another business's owner, password and sessions are untouched", async () => {
    const a = await t.signUp({ businessName: 'Gym A' });
    const b = await t.signUp({ businessName: 'Gym B' });
    const token = await askAndReceive(a.body.email);
    // Sent from B's signed-in browser, the link still resets A only (the token is the credential).
    const reply = await confirm(b.agent, token, 'a brand new passphrase').expect(200);
    expect((reply.body as SessionUser).business.name).toBe('Gym A');
    expect((reply.body as SessionUser).id).toBe(a.user.id);
    await a.agent.get('/api/auth/me').expect(401);
    const other = await t
      .agent()
      .post('/api/auth/login')
      .send({ email: b.body.email, password: b.body.password })
      .expect(200);
    expect((other.body as SessionUser).business.name).toBe('Gym B');
    const sessionsOfB = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NOT NULL`,
      [b.user.id],
    )) as { n: number }[];
    expect(sessionsOfB[0].n).toBe(0);
    expect(emailsTo(b.body.email)).toEqual([]);
  });
});

describe('password reset and login throttles (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_PASSWORD_RESET_LIMIT: '3', THROTTLE_LOGIN_LIMIT: '3' });
  });
  afterAll(() => t.close());

  it('answers the 4th reset ask or use within a minute from one client with 429, known address or not', async () => {
    const statuses: number[] = [];
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      statuses.push((await t.agent().post('/api/auth/password-reset').send({ email })).status);
    }
    statuses.push(
      (
        await t
          .agent()
          .post('/api/auth/password-reset/confirm')
          .send({ token: 'x', password: 'a brand new passphrase' })
      ).status,
    );
    expect(statuses).toEqual([202, 202, 202, 429]);
  });

  it('counts failed logins only: 6 successful logins pass, then 3 failures, and the 4th attempt (even right) is 429', async () => {
    const { body } = await t.signUp();
    const login = (password: string) =>
      t.agent().post('/api/auth/login').send({ email: body.email, password });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1)
      statuses.push((await login(body.password)).status);
    for (let attempt = 0; attempt < 3; attempt += 1)
      statuses.push((await login('wrong password')).status);
    statuses.push((await login(body.password)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 401, 401, 401, 429]);
  });
});

describe('failed logins per account (integration, issue 34, ASVS 2.2.1)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  beforeAll(async () => {
    // Behind a trusted proxy, each guess from an address of its own: the per-address limit never
    // trips, the per-account one does.
    ({ t, smtp } = await createMailTestApp({
      TRUST_PROXY: '1',
      THROTTLE_LOGIN_LIMIT: '5',
      THROTTLE_ACCOUNT_LOGIN_LIMIT: '10',
    }));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const PAUSED_SUBJECT = 'Signing in to Grove is paused: choose a new password';
  const login = (email: string, password: string, address: string) =>
    t.agent().post('/api/auth/login').set('X-Forwarded-For', address).send({ email, password });

  it('10 wrong passwords from 10 addresses pause the account: the right one is refused too, the owner gets one link, and using it lifts the pause', async () => {
    const { body } = await t.signUp({ firstName: 'Siobhán' });
    const other = await t.signUp();
    const statuses: number[] = [];
    for (let guess = 1; guess <= 10; guess += 1)
      statuses.push((await login(body.email, `wrong guess ${guess}`, `203.0.113.${guess}`)).status);
    expect(statuses).toEqual(Array(10).fill(401));
    // The 11th attempt, from a new address and with the right password (any case): paused.
    const paused = await login(body.email.toUpperCase(), body.password, '198.51.100.7');
    expect(paused.status).toBe(429);
    expect((paused.body as { message: string }).message).toBe(
      'Too many attempts. Try again in 15 minutes.',
    );
    expect((await login(body.email, body.password, '198.51.100.8')).status).toBe(429);
    // Another account signs in as before; an email of no account answers alike when paused.
    expect((await login(other.body.email, other.body.password, '198.51.100.9')).status).toBe(200);
    for (let guess = 1; guess <= 11; guess += 1)
      await login('nobody.here@example.com', 'wrong', `192.0.2.${guess}`);
    expect((await login('nobody.here@example.com', 'wrong', '192.0.2.99')).status).toBe(429);

    // The owner is told once, with a reset link; nobody else is emailed.
    const told = await waitFor(async () =>
      smtp.emails.find((mail) => mail.subject === PAUSED_SUBJECT),
    );
    expect(recipient(told)).toBe(body.email);
    expect(told.text).toContain('Hello Siobhán,');
    expect(smtp.emails.filter((mail) => mail.subject === PAUSED_SUBJECT)).toHaveLength(1);
    const token = /\/reset-password#token=([A-Za-z0-9_-]+)/.exec(told.text ?? '')?.[1] ?? '';
    const newPassword = 'a brand new passphrase';
    await t
      .agent()
      .post('/api/auth/password-reset/confirm')
      .send({ token, password: newPassword })
      .expect(200);
    expect((await login(body.email, newPassword, '198.51.100.10')).status).toBe(200);
  });

  it('signing in successfully gives the attempt back: an owner who signs in all day is never paused', async () => {
    const { body } = await t.signUp();
    for (let round = 0; round < 12; round += 1)
      expect((await login(body.email, body.password, `203.0.113.${100 + round}`)).status).toBe(200);
    for (let guess = 0; guess < 9; guess += 1)
      await login(body.email, 'wrong', `203.0.113.${200 + guess}`);
    expect((await login(body.email, body.password, '203.0.113.250')).status).toBe(200);
  });
});
