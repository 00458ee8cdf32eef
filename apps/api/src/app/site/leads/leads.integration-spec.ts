import { MESSAGES } from '@grove/contracts';
import { ALTCHA_TEST_ENV, solvedCaptcha, startSiteverifyStub } from '../../../../test/captcha';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { waitFor, type HttpStub } from '../../../../test/stub-servers';

const lead = {
  fullName: 'Robin Park',
  email: 'robin@parkfitness.com.au',
  phone: '0412 345 678',
  company: 'Park Fitness',
};

const count = async (t: TestApp, table: string): Promise<number> =>
  ((await t.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`)) as { n: number }[])[0].n;

describe('landing page leads (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      ...ALTCHA_TEST_ENV,
      CONTACT_RECIPIENT: 'sales@grove.test',
      THROTTLE_CONTACT_LIMIT: '1000',
    });
  });
  afterAll(() => t.close());

  it('stores the lead with a solved captcha and emails CONTACT_RECIPIENT (outbox without SMTP)', async () => {
    const reply = await t
      .agent()
      .post('/api/leads')
      .send({ ...lead, company: '  Park Fitness ', captcha: await solvedCaptcha(t) });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ message: "Thanks! We'll be in touch soon." });
    const [row] = (await t.dataSource.query(
      `SELECT id, full_name, email, phone, company FROM leads`,
    )) as Record<string, string>[];
    expect(row).toMatchObject({
      full_name: 'Robin Park',
      email: lead.email,
      phone: lead.phone,
      company: 'Park Fitness',
    });
    const email = await waitFor(async () => {
      const rows = (await t.dataSource.query(
        `SELECT "to", reply_to, subject, text FROM outbox_emails`,
      )) as Record<string, string>[];
      return rows[0];
    });
    expect(email.to).toBe('sales@grove.test');
    expect(email.reply_to).toBe(`Robin Park <${lead.email}>`);
    expect(email.subject).toContain('Robin Park');
    for (const value of [lead.email, lead.phone, 'Park Fitness'])
      expect(email.text).toContain(value);
    await waitFor(async () => {
      const [state] = (await t.dataSource.query(`SELECT delivery FROM leads WHERE id = $1`, [
        row.id,
      ])) as { delivery: string }[];
      return state.delivery === 'outboxed';
    });
  });

  it('refuses a lead without a valid captcha (missing, junk, forged, reused): nothing stored, no email', async () => {
    const used = await solvedCaptcha(t);
    await t
      .agent()
      .post('/api/leads')
      .send({ ...lead, email: 'first.use@parkfitness.com.au', captcha: used })
      .expect(201);
    await waitFor(async () => (await count(t, 'outbox_emails')) === 2);
    const leadsBefore = await count(t, 'leads');
    const payload = JSON.parse(Buffer.from(await solvedCaptcha(t), 'base64').toString('utf8')) as {
      challenge: { signature: string };
    };
    const forged = Buffer.from(
      JSON.stringify({
        ...payload,
        challenge: { ...payload.challenge, signature: 'ab'.repeat(32) },
      }),
    ).toString('base64');
    for (const captcha of [undefined, '', 'not base64 json', forged, used]) {
      const reply = await t
        .agent()
        .post('/api/leads')
        .send({ ...lead, email: 'spoofed@victim.example', captcha });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        statusCode: 400,
        message: MESSAGES.contactFailed,
        fieldErrors: { captcha: MESSAGES.captchaRequired },
      });
    }
    expect(await count(t, 'leads')).toBe(leadsBefore);
    // The mail queue is asynchronous: give a wrongly queued email time to show up before counting.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await count(t, 'outbox_emails')).toBe(2);
  });

  it.each([
    [{ fullName: 'R2D2' }, 'fullName', MESSAGES.invalidName],
    [{ email: 'robin@' }, 'email', MESSAGES.invalidEmail],
    [{ phone: '12' }, 'phone', MESSAGES.invalidPhone],
    // Without a country the number is read as Australian (issue 25).
    [{ phone: '(415) 555-0134' }, 'phone', MESSAGES.invalidPhone],
    [{ country: 'US', phone: '0412 345 678' }, 'phone', MESSAGES.invalidPhone],
    [{ country: 'Narnia' }, 'country', MESSAGES.countryInvalid],
    [{ country: 42 }, 'country', MESSAGES.countryInvalid],
    [{ company: '   ' }, 'company', MESSAGES.companyRequired],
    [{ company: 'c'.repeat(201) }, 'company', MESSAGES.companyTooLong],
  ])('refuses %o with its message and stores nothing', async (change, field, message) => {
    const before = await count(t, 'leads');
    const reply = await t
      .agent()
      .post('/api/leads')
      .send({ ...lead, ...change, captcha: await solvedCaptcha(t) });
    expect(reply.status).toBe(400);
    expect(reply.body.fieldErrors).toEqual({ [field]: message });
    expect(await count(t, 'leads')).toBe(before);
  });

  it("reads the phone for the visitor's country: a US number from the United States (issue 25)", async () => {
    await t
      .agent()
      .post('/api/leads')
      .send({
        ...lead,
        fullName: 'Anne-Marie Dubois',
        email: 'anne-marie@harbouryoga.example',
        country: 'US',
        phone: '(415) 555-0134',
        captcha: await solvedCaptcha(t),
      })
      .expect(201);
    const email = await waitFor(async () => {
      const rows = (await t.dataSource.query(
        `SELECT text FROM outbox_emails WHERE subject LIKE '%Anne-Marie Dubois%'`,
      )) as { text: string }[];
      return rows[0];
    });
    expect(email.text).toContain('Phone: (415) 555-0134 (+1 415 555 0134)');
  });
});

describe('landing page leads with Turnstile (integration)', () => {
  let t: TestApp;
  let siteverify: HttpStub;
  beforeAll(async () => {
    siteverify = await startSiteverifyStub('turnstile-secret');
    t = await createTestApp({
      TURNSTILE_SITE_KEY: 'turnstile-site-key',
      TURNSTILE_SECRET_KEY: 'turnstile-secret',
      TURNSTILE_VERIFY_URL: `${siteverify.url}/turnstile/v0/siteverify`,
    });
  });
  afterAll(async () => {
    await t.close();
    await siteverify.close();
  });

  it('accepts a token siteverify confirms and refuses one it rejects', async () => {
    await t
      .agent()
      .post('/api/leads')
      .send({ ...lead, captcha: 'human-token' })
      .expect(201);
    const sent = new URLSearchParams(siteverify.requests[siteverify.requests.length - 1].body);
    expect(sent.get('secret')).toBe('turnstile-secret');
    expect(sent.get('response')).toBe('human-token');
    const refused = await t
      .agent()
      .post('/api/leads')
      .send({ ...lead, email: 'bot@x.com', captcha: 'bot-token' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(MESSAGES.contactFailed);
    expect(await count(t, 'leads')).toBe(1);
  });
});
