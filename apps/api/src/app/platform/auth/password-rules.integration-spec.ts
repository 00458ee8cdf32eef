import { MESSAGES, type SessionUser } from '@grove/contracts';
import { createTestApp, signupBody, type TestApp } from '../../../../test/test-app';
import { SIGNUP_CONFIRM_SUBJECT } from './signup-emails';
import { startSmtpCatcher, type SmtpCatcher } from '@grove/testing-smtp';
import { waitFor } from '../../../../test/stub-servers';
import { hashPassword } from './auth-tokens';

/**
 * Issue 11.5: Grove's password rule (ASVS 4.0.3 V2.1) on signup, login and Account Settings, and
 * the 'password changed' email (V2.2.3) through a real SMTP server.
 */
describe('password rules (integration)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    t = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Grove <no-reply@grove.test>',
      CONTACT_RECIPIENT: 'help@grove.test',
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const users = async (email: string): Promise<number> =>
    (
      (await t.dataSource.query(
        `SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)`,
        [email],
      )) as { n: number }[]
    )[0].n;

  it.each([
    ['password', MESSAGES.passwordTooShort],
    ['eleven char', MESSAGES.passwordTooShort],
    ['password1234', MESSAGES.passwordTooCommon],
    ['Qwertyuiop123', MESSAGES.passwordTooCommon],
    ['Password2024!', MESSAGES.passwordTooCommon],
    ['x'.repeat(129), MESSAGES.passwordTooLong],
  ])(
    'signup refuses the password %p → 400 %p and creates no account',
    async (password, message) => {
      const body = signupBody({ password });
      const reply = await t.agent().post('/api/auth/signup').send(body);
      expect(reply.status).toBe(400);
      expect(reply.body.message).toBe(message);
      expect(await users(body.email)).toBe(0);
    },
  );

  it('signup accepts 12 characters of any kind, with no composition rule', async () => {
    await t
      .agent()
      .post('/api/auth/signup')
      .send(signupBody({ password: 'green valley' }))
      .expect(202);
    await t
      .agent()
      .post('/api/auth/signup')
      .send(signupBody({ password: 'ünïcödé trees 🌳' }))
      .expect(202);
  });

  it('an owner with an older 8-character password still logs in and is asked to choose a new one', async () => {
    const { body, user } = await t.signUp();
    // As stored before the 12-character rule.
    await t.dataSource.query(`UPDATE users SET password_hash = $2 WHERE id = $1`, [
      user.id,
      await hashPassword('gym12345'),
    ]);

    const agent = t.agent();
    const login = await agent
      .post('/api/auth/login')
      .send({ email: body.email, password: 'gym12345' });
    expect(login.status).toBe(200);
    expect((login.body as SessionUser).passwordChangeRequired).toBe(true);
    await agent.get('/api/account').expect(200);

    // The new password must meet the rule; the old one is refused as a new one, too.
    const weak = await agent
      .post('/api/account/password')
      .send({ currentPassword: 'gym12345', newPassword: 'password1234' });
    expect(weak.status).toBe(400);
    expect(weak.body.fieldErrors).toEqual({ newPassword: MESSAGES.passwordTooCommon });
    await agent
      .post('/api/account/password')
      .send({ currentPassword: 'gym12345', newPassword: 'squats at seven am' })
      .expect(200);

    const again = await t
      .agent()
      .post('/api/auth/login')
      .send({ email: body.email, password: 'squats at seven am' })
      .expect(200);
    expect((again.body as SessionUser).passwordChangeRequired).toBeUndefined();
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: body.email, password: 'gym12345' })
      .expect(401);
  });

  it('a password that meets the rule logs in without the request', async () => {
    const { body } = await t.signUp();
    const login = await t
      .agent()
      .post('/api/auth/login')
      .send({ email: body.email, password: body.password })
      .expect(200);
    expect(login.body).not.toHaveProperty('passwordChangeRequired');
  });

  it('a password change emails the owner through SMTP; a refused change sends nothing', async () => {
    const { agent, body } = await t.signUp({ firstName: 'Robin', businessName: 'Harbour Yoga' });
    const refused = await agent
      .post('/api/account/password')
      .send({ currentPassword: body.password, newPassword: 'iloveyou' });
    expect(refused.status).toBe(400);

    await agent
      .post('/api/account/password')
      .send({ currentPassword: body.password, newPassword: 'a whole new passphrase' })
      .expect(200);
    // Besides the sign-up link, which came first (docs/product.md#signup).
    const toOwner = () =>
      smtp.emails.filter(
        (email) =>
          JSON.stringify(email.to).includes(body.email) && email.subject !== SIGNUP_CONFIRM_SUBJECT,
      );
    const mail = await waitFor(async () => toOwner()[0]);
    expect(mail.subject).toBe('Your Grove password was changed');
    expect(mail.from?.value[0].address).toBe('no-reply@grove.test');
    expect(mail.text).toContain('Hello Robin,');
    expect(mail.text).toContain(`(${body.email}, Harbour Yoga)`);
    expect(mail.text).toContain('signed out');
    expect(mail.text).toContain('help@grove.test');
    expect(mail.text).not.toContain('a whole new passphrase');
    expect(toOwner()).toHaveLength(1);
  });
});
