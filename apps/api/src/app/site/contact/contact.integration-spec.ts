import type { Challenge } from 'altcha-lib';
import { MESSAGES, type CaptchaConfig, type ContactRequest } from '@grove/contracts';
import {
  ALTCHA_TEST_ENV as ALTCHA_ENV,
  solvedCaptcha,
  startSiteverifyStub,
} from '../../../../test/captcha';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { MailService } from '../../platform/mail/mail.service';
import { startSmtpCatcher, type SmtpCatcher } from '@grove/testing-smtp';
import { waitFor, type HttpStub } from '../../../../test/stub-servers';

const form = (
  overrides: Partial<ContactRequest> = {},
): Omit<ContactRequest, 'captcha'> & Partial<ContactRequest> => ({
  firstName: 'Jo',
  lastName: 'Citizen',
  email: 'jo@example.com',
  phoneNumber: '0412 345 678',
  website: 'https://jo-gym.com.au',
  message: 'Hello <b>team</b><script>alert("x")</script>, "quotes" & Zoë\nline two',
  ...overrides,
});
const SANITIZED = 'Hello team, "quotes" & Zoë\nline two';

const count = async (t: TestApp, table: string): Promise<number> =>
  ((await t.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`)) as { n: number }[])[0].n;

describe('contact form with altcha (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...ALTCHA_ENV, THROTTLE_CONTACT_LIMIT: '1000' });
  });
  afterAll(() => t.close());

  it('tells the page to show altcha and where its challenge is', async () => {
    const reply = await t.agent().get('/api/captcha').expect(200);
    expect(reply.body as CaptchaConfig).toEqual({
      provider: 'altcha',
      challengeUrl: '/api/captcha/challenge',
    });
    const challenge = (await t.agent().get('/api/captcha/challenge').expect(200)).body as Challenge;
    expect(challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
    expect(challenge.parameters.expiresAt).toBeGreaterThan(Date.now() / 1000 + 60);
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts a solved captcha: 201, the message stored sanitized, and an email in the outbox', async () => {
    const reply = await t
      .agent()
      .post('/api/contact')
      .send({ ...form(), captcha: await solvedCaptcha(t) });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ message: MESSAGES.contactSuccess });
    const [stored] = (await t.dataSource.query(
      `SELECT id, first_name, last_name, email, phone, website, message, client_ip FROM contact_messages WHERE email = 'jo@example.com'`,
    )) as Record<string, string>[];
    expect(stored).toMatchObject({
      first_name: 'Jo',
      last_name: 'Citizen',
      phone: '0412 345 678',
      website: 'https://jo-gym.com.au',
      message: SANITIZED,
    });
    expect(stored.client_ip).toBeTruthy();
    const email = await waitFor(async () => {
      const rows = (await t.dataSource.query(
        `SELECT "to", reply_to, subject, text FROM outbox_emails`,
      )) as Record<string, string>[];
      return rows[0];
    });
    expect(email.to).toBe('hello@grove.local');
    expect(email.reply_to).toBe('Jo Citizen <jo@example.com>');
    expect(email.subject).toContain('Jo Citizen');
    expect(email.text).toContain(SANITIZED);
    expect(email.text).not.toContain('<script>');
    for (const field of ['jo@example.com', '0412 345 678', 'https://jo-gym.com.au'])
      expect(email.text).toContain(field);
    const delivery = await waitFor(async () => {
      const [row] = (await t.dataSource.query(
        `SELECT delivery FROM contact_messages WHERE id = $1`,
        [stored.id],
      )) as {
        delivery: string;
      }[];
      return row.delivery === 'outboxed' && row.delivery;
    });
    expect(delivery).toBe('outboxed');
  });

  it('accepts any valid phone number, mobile or not, for the chosen country or in international format (docs/product.md#country)', async () => {
    for (const [index, sent] of [
      { country: 'US', phoneNumber: '(415) 555-0134' },
      { phoneNumber: '02 9876 5432' },
      { country: 'AU', phoneNumber: '+1 415 555 2671' },
    ].entries()) {
      const email = `phone${index}@example.com`;
      await t
        .agent()
        .post('/api/contact')
        .send({ ...form({ email, ...sent }), captcha: await solvedCaptcha(t) })
        .expect(201);
      const [stored] = (await t.dataSource.query(
        `SELECT phone FROM contact_messages WHERE email = $1`,
        [email],
      )) as { phone: string }[];
      expect(stored.phone).toBe(sent.phoneNumber);
    }
    const mail = await waitFor(async () => {
      const rows = (await t.dataSource.query(
        `SELECT text FROM outbox_emails WHERE text LIKE '%phone0@example.com%'`,
      )) as { text: string }[];
      return rows[0];
    });
    expect(mail.text).toContain('Phone: (415) 555-0134 (+1 415 555 0134)');
  });

  it('refuses a missing captcha with the SPEC message and stores nothing', async () => {
    const before = await count(t, 'contact_messages');
    const reply = await t
      .agent()
      .post('/api/contact')
      .send(form({ email: 'nocaptcha@example.com' }));
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(MESSAGES.contactFailed);
    expect(await count(t, 'contact_messages')).toBe(before);
  });

  it('refuses a tampered solution, a forged one and the widget test payload', async () => {
    const before = await count(t, 'contact_messages');
    const payload = JSON.parse(Buffer.from(await solvedCaptcha(t), 'base64').toString('utf8')) as {
      challenge: Challenge;
      solution: { counter: number; derivedKey: string };
    };
    const variants = [
      { ...payload, solution: { ...payload.solution, counter: payload.solution.counter + 1 } },
      {
        ...payload,
        challenge: {
          ...payload.challenge,
          parameters: { ...payload.challenge.parameters, cost: 2 },
        },
      },
      { ...payload, challenge: { ...payload.challenge, signature: 'ab'.repeat(32) } },
      { challenge: null, solution: null, test: true },
    ];
    for (const variant of variants) {
      const captcha = Buffer.from(JSON.stringify(variant)).toString('base64');
      const reply = await t
        .agent()
        .post('/api/contact')
        .send({ ...form(), captcha });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toBe(MESSAGES.contactFailed);
    }
    const junk = await t
      .agent()
      .post('/api/contact')
      .send({ ...form(), captcha: 'not base64 json' });
    expect(junk.status).toBe(400);
    expect(await count(t, 'contact_messages')).toBe(before);
  });

  it('accepts a solution once: the same solution again is refused', async () => {
    const captcha = await solvedCaptcha(t);
    await t
      .agent()
      .post('/api/contact')
      .send({ ...form({ email: 'once@example.com' }), captcha })
      .expect(201);
    const again = await t
      .agent()
      .post('/api/contact')
      .send({ ...form({ email: 'twice@example.com' }), captcha });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(MESSAGES.contactFailed);
    const [{ n }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM contact_messages WHERE email = 'twice@example.com'`,
    )) as {
      n: number;
    }[];
    expect(n).toBe(0);
  });

  it.each([
    ['firstName', { firstName: 'R2D2' }, MESSAGES.invalidName],
    ['firstName', { firstName: '' }, MESSAGES.invalidName],
    ['lastName', { lastName: 'a'.repeat(101) }, MESSAGES.invalidName],
    ['email', { email: 'jo@' }, MESSAGES.invalidEmail],
    ['phoneNumber', { phoneNumber: '(415) 555-0134' }, MESSAGES.invalidPhone],
    ['phoneNumber', { phoneNumber: '0412 345' }, MESSAGES.invalidPhone],
    ['phoneNumber', { country: 'US', phoneNumber: '0412 345 678' }, MESSAGES.invalidPhone],
    ['country', { country: 'XX' }, MESSAGES.countryInvalid],
    ['website', { website: 'not a url' }, MESSAGES.invalidUrl],
    ['message', { message: '' }, MESSAGES.messageRequired],
    ['message', { message: 'm'.repeat(501) }, MESSAGES.messageTooLong],
    ['message', { message: '<script>only markup</script>' }, MESSAGES.messageRequired],
  ] as const)(
    'refuses an invalid %s with its SPEC message and stores nothing (%o)',
    async (field, change, text) => {
      const before = await count(t, 'contact_messages');
      const reply = await t
        .agent()
        .post('/api/contact')
        .send({ ...form(change), captcha: await solvedCaptcha(t) });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toBe(text);
      expect(reply.body.fieldErrors).toEqual({ [field]: text });
      expect(await count(t, 'contact_messages')).toBe(before);
    },
  );

  it('accepts a 500-character message', async () => {
    await t
      .agent()
      .post('/api/contact')
      .send({
        ...form({ email: 'long@example.com', message: 'm'.repeat(500) }),
        captcha: await solvedCaptcha(t),
      })
      .expect(201);
  });

  it('refuses unknown fields and non-string fields like the rest of the API', async () => {
    const unknown = await t
      .agent()
      .post('/api/contact')
      .send({ ...form(), captcha: 'x', admin: true });
    expect(unknown.status).toBe(400);
    const numeric = await t
      .agent()
      .post('/api/contact')
      .send({ ...form(), phoneNumber: 412345678, captcha: 'x' });
    expect(numeric.status).toBe(400);
    expect(numeric.body.fieldErrors).toEqual({ phoneNumber: MESSAGES.invalidPhone });
  });

  it('keeps a message and its email together: when the email cannot be queued, nothing is stored and the visitor can send again', async () => {
    const before = await count(t, 'contact_messages');
    const queue = jest
      .spyOn(t.app.get(MailService), 'queue')
      .mockRejectedValueOnce(new Error('the jobs table did not answer'));
    try {
      const failed = await t
        .agent()
        .post('/api/contact')
        .send({ ...form({ email: 'siobhan@example.ie' }), captcha: await solvedCaptcha(t) });
      expect(failed.status).toBeGreaterThanOrEqual(500);
    } finally {
      queue.mockRestore();
    }
    expect(await count(t, 'contact_messages')).toBe(before);
    await t
      .agent()
      .post('/api/contact')
      .send({ ...form({ email: 'siobhan@example.ie' }), captcha: await solvedCaptcha(t) })
      .expect(201);
    expect(await count(t, 'contact_messages')).toBe(before + 1);
  });
});

describe('contact form over SMTP (integration)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    t = await createTestApp({
      ...ALTCHA_ENV,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Grove <no-reply@grove.test>',
      CONTACT_RECIPIENT: 'team@grove.test',
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('delivers the email to CONTACT_RECIPIENT, reply-to the visitor, with the sanitized message', async () => {
    await t
      .agent()
      .post('/api/contact')
      .send({ ...form(), captcha: await solvedCaptcha(t) })
      .expect(201);
    const mail = await waitFor(async () => smtp.emails[0]);
    const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
    expect(to?.value[0].address).toBe('team@grove.test');
    expect(mail.replyTo?.value[0].address).toBe('jo@example.com');
    expect(mail.from?.value[0].address).toBe('no-reply@grove.test');
    expect(mail.subject).toContain('Jo Citizen');
    expect(mail.text).toContain(SANITIZED);
    expect(mail.text).not.toContain('<script>');
    expect(mail.text).toContain('0412 345 678');
    await waitFor(async () => {
      const [row] = (await t.dataSource.query(`SELECT delivery FROM contact_messages`)) as {
        delivery: string;
      }[];
      return row.delivery === 'sent';
    });
    expect(await count(t, 'outbox_emails')).toBe(0);
  });
});

describe('contact form with reCAPTCHA (integration)', () => {
  let t: TestApp;
  let siteverify: HttpStub;
  beforeAll(async () => {
    siteverify = await startSiteverifyStub('recaptcha-secret');
    t = await createTestApp({
      RECAPTCHA_SITE_KEY: 'recaptcha-site-key',
      RECAPTCHA_SECRET_KEY: 'recaptcha-secret',
      RECAPTCHA_VERIFY_URL: `${siteverify.url}/recaptcha/api/siteverify`,
    });
  });
  afterAll(async () => {
    await t.close();
    await siteverify.close();
  });

  it('tells the page to show reCAPTCHA with the site key (never the secret)', async () => {
    const reply = await t.agent().get('/api/captcha').expect(200);
    expect(reply.body).toEqual({ provider: 'recaptcha', siteKey: 'recaptcha-site-key' });
  });

  it('accepts a token siteverify confirms, sending the secret and the client address', async () => {
    await t
      .agent()
      .post('/api/contact')
      .send({ ...form({ email: 'human@example.com' }), captcha: 'human-token' })
      .expect(201);
    const last = siteverify.requests[siteverify.requests.length - 1];
    expect(last.method).toBe('POST');
    expect(last.url).toBe('/recaptcha/api/siteverify');
    const sent = new URLSearchParams(last.body);
    expect(sent.get('secret')).toBe('recaptcha-secret');
    expect(sent.get('response')).toBe('human-token');
    expect(sent.get('remoteip')).toBeTruthy();
    expect(await count(t, 'contact_messages')).toBe(1);
  });

  it('refuses a token siteverify rejects, storing nothing', async () => {
    const reply = await t
      .agent()
      .post('/api/contact')
      .send({ ...form({ email: 'bot@example.com' }), captcha: 'bot-token' });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(MESSAGES.contactFailed);
    expect(await count(t, 'contact_messages')).toBe(1);
  });
});

describe('contact throttling (integration, THROTTLE_CONTACT_LIMIT default 5)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(ALTCHA_ENV);
  });
  afterAll(() => t.close());

  it('answers the 6th contact from one client within a minute with 429, without touching login', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await t
            .agent()
            .post('/api/contact')
            .send({ ...form(), captcha: await solvedCaptcha(t) })
        ).status,
      );
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect(await count(t, 'contact_messages')).toBe(5);
    // The contact throttle is its own: login and the captcha still answer.
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: 'nobody@x.com', password: 'wrong password' })
      .expect(401);
    await t.agent().get('/api/captcha').expect(200);
  });
});
