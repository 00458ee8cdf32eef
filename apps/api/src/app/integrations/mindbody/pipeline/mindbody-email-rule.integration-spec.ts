import { parse } from 'csv-parse/sync';
import type TestAgent from 'supertest/lib/agent';
import { mindbodyInvalidEmailsNote, type MemberRow, type Page } from '@grove/contracts';
import { startSmtpCatcher, type SmtpCatcher } from '@grove/testing-smtp';
import { SIGNUP_CONFIRM_SUBJECT } from '../../../platform/auth/signup-emails';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import { memberEmailsSettled } from '../../../../../test/member-mail';
import {
  mindbodyStatus,
  sandboxEnv,
  sandboxLogin,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';

jest.setTimeout(120_000);

/** Every address the hostile Mindbody emails below name: none may ever receive mail. */
const NEVER = [
  'nia@example.com',
  'list@evil.example',
  'carl@example.com',
  'bcc@evil.example',
  'd@example.com',
];

describe('data from Mindbody follows the email and name rules (integration, issue 24 part 3, sandbox, real SMTP server)', () => {
  let sandbox: RunningSandbox;
  let smtp: SmtpCatcher;
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 20 });
    sandbox.control.addClient({
      FirstName: 'Nia',
      LastName: 'Lee',
      Email: 'nia@example.com, list@evil.example',
      NormalAutoPay: 80,
    });
    sandbox.control.addClient({
      FirstName: 'Carl',
      LastName: 'Dunn',
      Email: 'carl@example.com\r\nBcc: bcc@evil.example',
      NormalAutoPay: 80,
    });
    sandbox.control.addClient({
      FirstName: '=HYPERLINK("http://evil.example/x"',
      LastName: '"Open")',
      Email: 'formula.name@example.com',
      NormalAutoPay: 80,
    });
    sandbox.control.addClient({
      FirstName: 'Dana\r\nX-Injected:',
      LastName: 'Ray\u202E',
      Email: 'dana.ray@example.com',
      NormalAutoPay: 80,
    });
    sandbox.control.addClient({
      FirstName: 'Gus',
      LastName: 'Grp',
      Email: 'grp:d@example.com;',
      IsProspect: true,
      ReferredBy: 'Nia Lee',
    });
    smtp = await startSmtpCatcher();
    t = await createTestApp({
      ...sandboxEnv(sandbox),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Grove <no-reply@grove.test>',
      THROTTLE_MEMBER_LINK_LIMIT: '1000',
    });
    const signed = await t.signUp({ businessName: 'Peak Fitness' });
    owner = signed.agent;
    businessId = signed.user.business.id;
    await owner.post('/api/mindbody/credentials').send(sandboxLogin(sandbox)).expect(200);
    await owner.post('/api/mindbody/import').expect(202);
    const done = await settled(owner);
    expect(done.processState).toMatch(/^completed /);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await sandbox.close();
  });

  const member = async (first: string): Promise<MemberRow> => {
    const page = (await owner.get('/api/members?pageSize=100').expect(200)).body as Page<MemberRow>;
    const found = page.items.find((row) => row.memberName.startsWith(first));
    if (!found) throw new Error(`no member ${first}`);
    return found;
  };

  it("stores an email that is not one mailbox as no email ('No email'), and the import's summary counts them", async () => {
    expect((await member('Nia')).memberEmail).toBe('');
    expect((await member('Carl')).memberEmail).toBe('');
    expect((await member('Dana')).memberEmail).toBe('dana.ray@example.com');
    const stored = (await t.dataSource.query(
      `SELECT email, email_key FROM members WHERE business_id = $1 AND name IN ('Nia Lee', 'Carl Dunn') ORDER BY name`,
      [businessId],
    )) as { email: string; email_key: string }[];
    expect(stored.map((row) => row.email)).toEqual(['', '']);
    expect(stored.every((row) => row.email_key.startsWith('mindbody:'))).toBe(true);
    const [prospect] = (await t.dataSource.query(
      `SELECT email FROM prospects WHERE business_id = $1 AND name = 'Gus Grp'`,
      [businessId],
    )) as { email: string }[];
    // Since issue 22 a Mindbody prospect is not imported (ReferredBy names no person), so its
    // email is neither stored nor counted.
    expect(prospect).toBeUndefined();
    const status = await mindbodyStatus(owner);
    expect(status.invalidEmails).toBe(2);
    expect(mindbodyInvalidEmailsNote(3)).toBe(
      "3 clients have an email address in Mindbody that Grove cannot send to: they show 'No email' and get no emails until it is corrected in Mindbody.",
    );
  });

  it('keeps names plain text: no line breaks or control characters', async () => {
    const names = (
      (await t.dataSource.query(
        `SELECT name FROM members WHERE business_id = $1 AND mindbody_client_id IS NOT NULL`,
        [businessId],
      )) as { name: string }[]
    ).map((row) => row.name);
    expect(names).toContain('Dana X-Injected: Ray');
    for (const name of names) expect(name).not.toMatch(/[\p{Cc}\u202A-\u202E\u2066-\u2069]/u);
  });

  it('the clients with a list and a CRLF email get no mail, whatever is asked (RCPT TO)', async () => {
    const nia = await member('Nia');
    await owner.post(`/api/members/${nia.id}/referral-link`).send({}).expect(201);
    await owner.post(`/api/members/${nia.id}/referral-link/email`).expect(202);
    for (const email of NEVER)
      await t.agent().post('/api/member/magic-link').send({ email }).expect(202);
    await memberEmailsSettled(t);
    expect(smtp.rcptTo().filter((address) => NEVER.includes(address))).toEqual([]);
    // Nothing but the owner's own sign-up link (docs/product.md#signup).
    expect(smtp.emails.map((mail) => mail.subject)).toEqual([SIGNUP_CONFIRM_SUBJECT]);
  });

  it('the members export neutralises the formula a Mindbody name carries', async () => {
    const csv = (await owner.get('/api/members-csv/export').expect(200)).text;
    const rows = parse(csv) as string[][];
    const formula = rows.find((row) => row[0]?.includes('HYPERLINK'));
    expect(formula?.[0]).toBe(`'=HYPERLINK("http://evil.example/x" "Open")`);
    for (const row of rows.slice(1))
      for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});
