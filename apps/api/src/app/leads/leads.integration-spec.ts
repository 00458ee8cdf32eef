import { MESSAGES } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { waitFor } from '../../../test/stub-servers';

const lead = { fullName: 'Robin Park', email: 'robin@parkfitness.com.au', phone: '0412 345 678', company: 'Park Fitness' };

describe('landing page leads (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CONTACT_RECIPIENT: 'sales@grove.test', THROTTLE_CONTACT_LIMIT: '1000' });
  });
  afterAll(() => t.close());

  it('stores the lead and emails CONTACT_RECIPIENT (outbox without SMTP)', async () => {
    const reply = await t.agent().post('/api/leads').send({ ...lead, company: '  Park Fitness ' });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ message: "Thanks! We'll be in touch soon." });
    const [row] = (await t.dataSource.query(`SELECT id, full_name, email, phone, company FROM leads`)) as Record<string, string>[];
    expect(row).toMatchObject({ full_name: 'Robin Park', email: lead.email, phone: lead.phone, company: 'Park Fitness' });
    const email = await waitFor(async () => {
      const rows = (await t.dataSource.query(`SELECT "to", reply_to, subject, text FROM outbox_emails`)) as Record<string, string>[];
      return rows[0];
    });
    expect(email.to).toBe('sales@grove.test');
    expect(email.reply_to).toBe(`Robin Park <${lead.email}>`);
    expect(email.subject).toContain('Robin Park');
    for (const value of [lead.email, lead.phone, 'Park Fitness']) expect(email.text).toContain(value);
    await waitFor(async () => {
      const [state] = (await t.dataSource.query(`SELECT delivery FROM leads WHERE id = $1`, [row.id])) as { delivery: string }[];
      return state.delivery === 'outboxed';
    });
  });

  it.each([
    [{ fullName: 'R2D2' }, 'fullName', MESSAGES.invalidName],
    [{ email: 'robin@' }, 'email', MESSAGES.invalidEmail],
    [{ phone: '12' }, 'phone', MESSAGES.invalidPhone],
    [{ company: '   ' }, 'company', MESSAGES.companyRequired],
    [{ company: 'c'.repeat(201) }, 'company', MESSAGES.companyTooLong],
  ])('refuses %o with its message and stores nothing', async (change, field, message) => {
    const [{ n: before }] = (await t.dataSource.query(`SELECT count(*)::int AS n FROM leads`)) as { n: number }[];
    const reply = await t.agent().post('/api/leads').send({ ...lead, ...change });
    expect(reply.status).toBe(400);
    expect(reply.body.fieldErrors).toEqual({ [field]: message });
    const [{ n }] = (await t.dataSource.query(`SELECT count(*)::int AS n FROM leads`)) as { n: number }[];
    expect(n).toBe(before);
  });
});
