import type TestAgent from 'supertest/lib/agent';
import {
  MEMBER_CSV_MESSAGES,
  MESSAGES,
  type MemberImportDryRun,
  type MemberImportUpload,
  type MemberRow,
  type ReferralLink,
} from '@grove/contracts';
import type { SmtpCatcher } from '@grove/testing-smtp';
import { createMailTestApp, memberEmailsSettled } from '../../../../test/member-mail';
import { waitFor } from '../../../../test/stub-servers';
import { treeBody, type TestApp } from '../../../../test/test-app';
import { jobScope } from '../../platform/database/business-scope';
import { MailService } from '../../platform/mail/mail.service';
import { MemberEmails } from '../../member/member-emails/member-emails.service';

/**
 * Address texts that mail software reads as another mailbox than the text Grove would store
 * (issue 24 part 2): a comment, lists (comma, semicolon), a group, a display name, a quoted local
 * part with a separator, a CRLF header injection.
 */
const HOSTILE = [
  '(x)zed@example.com',
  'a,eve@example.com',
  'nia@example.com, list@evil.example',
  'a;c@example.com',
  'grp:d@example.com',
  'grp:d@example.com;',
  'Zed <zed@example.com>',
  '"a,b"@example.com',
  '"zed@example.com"@evil.example',
  'carl@example.com\r\nBcc: bcc@evil.example',
];

describe('one email rule everywhere an address comes in (integration, issue 24 part 2, real SMTP server)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  let owner: TestAgent;
  let businessId: string;
  let ana: MemberRow;
  let zed: MemberRow;
  let link: ReferralLink;

  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp({
      THROTTLE_REFERRAL_LIMIT: '10000',
      THROTTLE_MEMBER_LINK_LIMIT: '10000',
    }));
    const signed = await t.signUp({ businessName: 'Peak Fitness' });
    owner = signed.agent;
    businessId = signed.user.business.id;
    ana = (
      await owner.post('/api/members').send(treeBody('Ana Ruiz', 'ana@example.com')).expect(201)
    ).body as MemberRow;
    zed = (
      await owner.post('/api/members').send(treeBody('Zed Moss', 'zed@example.com')).expect(201)
    ).body as MemberRow;
    link = (await owner.post(`/api/members/${ana.id}/referral-link`).send({}).expect(201))
      .body as ReferralLink;
    // 'Approve automatically' on: an accepted '(x)zed@…' would become a second Zed and Ana's branch.
    await owner.put('/api/settings/prospects').send({ autoApprove: true }).expect(200);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** What the business has stored: members, prospects, flagged joins (to show nothing changed). */
  const stored = async () => ({
    members: await t.dataSource.query(
      `SELECT id, email, email_key, referred_by_id, membership_price_cents FROM members
        WHERE business_id = $1 ORDER BY id`,
      [businessId],
    ),
    prospects: await t.dataSource.query(`SELECT id FROM prospects WHERE business_id = $1`, [
      businessId,
    ]),
    flags: await t.dataSource.query(`SELECT id FROM join_flags WHERE business_id = $1`, [
      businessId,
    ]),
  });
  const invalid = { statusCode: 400, message: MESSAGES.invalidEmail };

  it.each(HOSTILE)(
    'refuses %j at the join (JSON and form), the owner forms and a magic-link request: 400, nothing changes',
    async (address) => {
      const before = await stored();
      const mailsBefore = smtp.emails.length;
      const json = await t
        .agent()
        .post(`/api/referrals/${link.code}/join`)
        .send({ name: 'Zed Moss', email: address })
        .expect(400);
      expect(json.body).toEqual({ ...invalid, fieldErrors: { email: MESSAGES.invalidEmail } });
      const form = await t
        .agent()
        .post(`/referral/${link.code}`)
        .type('form')
        .send({ name: 'Zed Moss', email: address })
        .expect(400);
      expect(form.text).toContain(MESSAGES.invalidEmail);
      const created = await owner
        .post('/api/members')
        .send({ ...treeBody('Zed Moss', address), referringMemberId: ana.id })
        .expect(400);
      expect(created.body.fieldErrors).toEqual({ memberEmail: MESSAGES.invalidEmail });
      const patched = await owner
        .patch(`/api/members/${zed.id}`)
        .send({ memberEmail: address })
        .expect(400);
      expect(patched.body.fieldErrors).toEqual({ memberEmail: MESSAGES.invalidEmail });
      const branch = await owner
        .post(`/api/members/${ana.id}/branches`)
        .send(treeBody('Zed Moss', address))
        .expect(400);
      expect(branch.body.fieldErrors).toEqual({ memberEmail: MESSAGES.invalidEmail });
      await t.agent().post('/api/member/magic-link').send({ email: address }).expect(400);
      expect(await stored()).toEqual(before);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.emails.length).toBe(mailsBefore);
    },
  );

  it('the CSV import refuses each hostile address (and as a referrer) in its dry run and writes none of those rows', async () => {
    const rows = HOSTILE.map(
      (address, index) =>
        `Row ${'abcdefghijklmnop'[index]},"${address.replace(/"/g, '""')}",100,10,`,
    );
    const csv = [
      'Name,Email,Membership price,Discount,Referrer email',
      ...rows,
      'Good Row,good.row@example.com,100,10,"(x)ana@example.com"',
    ].join('\n');
    const up = (
      await owner
        .post('/api/members-csv/imports')
        .set('Content-Type', 'text/csv')
        .send(csv)
        .expect(201)
    ).body as MemberImportUpload;
    const dry = (
      await owner
        .post(`/api/members-csv/imports/${up.importId}/dry-run`)
        .send({ mapping: up.mapping })
        .expect(200)
    ).body as MemberImportDryRun;
    expect(dry.counts).toMatchObject({ add: 0, error: HOSTILE.length + 1 });
    for (const row of dry.rows.slice(0, HOSTILE.length))
      expect(row.messages).toContain(MESSAGES.invalidEmail);
    expect(dry.rows[HOSTILE.length].messages).toEqual([MEMBER_CSV_MESSAGES.referrerInvalid]);
    const before = await stored();
    await owner
      .post(`/api/members-csv/imports/${up.importId}/run`)
      .send({ mapping: up.mapping })
      .expect(202);
    await waitFor(async () => {
      const status = (await owner.get(`/api/members-csv/imports/${up.importId}`).expect(200))
        .body as { state: string };
      return status.state === 'done';
    });
    expect(await stored()).toEqual(before);
  });

  it('a stored address that fails the rule (from before it) is never emailed; nodemailer is given one mailbox, never text to parse', async () => {
    const scope = jobScope({ businessId });
    const [{ id: legacyId }] = (await t.dataSource.query(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents)
       VALUES ($1, 'Nia Legacy', 'nia@example.com, list@evil.example', 'nia@examplecom, list@evilexample', 10000, 1000)
       RETURNING id`,
      [businessId],
    )) as { id: string }[];
    const emails = t.app.get(MemberEmails);
    const before = smtp.emails.length;
    expect(await emails.send(scope, legacyId, 'magic-link', {}, 'hostile:legacy')).toBe(true);
    expect(await emails.send(scope, ana.id, 'magic-link', {}, 'hostile:ana')).toBe(true);
    await memberEmailsSettled(t);
    const statuses = (await t.dataSource.query(
      `SELECT event_key, status FROM member_emails WHERE event_key LIKE 'hostile:%' ORDER BY event_key`,
    )) as { event_key: string; status: string }[];
    expect(statuses).toEqual([
      { event_key: 'hostile:ana', status: 'sent' },
      { event_key: 'hostile:legacy', status: 'invalid_address' },
    ]);
    expect(smtp.emails.slice(before).flatMap((mail) => mail.rcptTo)).toEqual(['ana@example.com']);

    // Grove's other mail: a recipient that is not one mailbox is refused, a reply-to is dropped.
    const mail = t.app.get(MailService);
    const sent = smtp.emails.length;
    for (const to of HOSTILE)
      expect(await mail.deliver({ to, subject: 'Hello', text: 'Hello' })).toBe('refused');
    expect(
      await mail.deliver({
        to: 'ana@example.com',
        replyTo: 'carl@example.com\r\nBcc: bcc@evil.example',
        subject: 'Hello',
        text: 'Hello',
      }),
    ).toBe('sent');
    const received = smtp.emails.slice(sent);
    expect(received.map((got) => got.rcptTo)).toEqual([['ana@example.com']]);
    expect(received[0].replyTo).toBeUndefined();
    expect(JSON.stringify(received[0].headerLines)).not.toContain('evil.example');
  });
});
