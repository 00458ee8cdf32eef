import type TestAgent from 'supertest/lib/agent';
import type { MemberRow, ReferralLink } from '@grove/contracts';
import { startSmtpCatcher, type CaughtMail, type SmtpCatcher } from '@grove/testing-smtp';
import { memberEmailsSettled } from '../../../../test/member-mail';
import { waitFor } from '../../../../test/stub-servers';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';

/** PUBLIC_ORIGIN's default outside production (PORT 3000): no PUBLIC_ORIGIN is configured here. */
const ORIGIN = 'http://localhost:3000';
const EVIL = 'evil.example';

/**
 * The links a share link carries: the URLs inside the message a WhatsApp (`https://wa.me/?text=`),
 * text (`sms:?&body=`) or email (`mailto:?…&body=`) share link opens with (issue 33 item 3); any
 * other link as it is.
 */
function carried(url: string): string[] {
  const message = /^(?:https:\/\/wa\.me\/\?text=|sms:\?&body=|mailto:\?.*?&body=)(.*)$/.exec(
    url,
  )?.[1];
  if (message === undefined) return [url];
  return [...decodeURIComponent(message).matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
}

/**
 * Every link of an email: the HTML part's hrefs, the text part's URLs and List-Unsubscribe's, a
 * share link read as the links its message carries.
 */
function linksOf(mail: CaughtMail): string[] {
  const hrefs = [...(mail.html || '').matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
  const texts = [...(mail.text ?? '').matchAll(/https?:\/\/[^\s\]]+/g)].map((match) => match[0]);
  const unsubscribe = mail.headerLines
    .filter((line) => line.key === 'list-unsubscribe')
    .flatMap((line) => [...line.line.matchAll(/<([^>]+)>/g)].map((match) => match[1]));
  return [...hrefs, ...texts, ...unsubscribe].flatMap((url) => carried(url.replace(/&amp;/g, '&')));
}

describe('links in emails are built from PUBLIC_ORIGIN (here its default), never the request (integration, issue 24 part 1, real SMTP server)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  let owner: TestAgent;
  let ana: MemberRow;
  let link: ReferralLink;

  beforeAll(async () => {
    // As under `npm start` before issue 24: no PUBLIC_ORIGIN set, and every request names evil.example.
    smtp = await startSmtpCatcher();
    t = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Grove <no-reply@grove.test>',
      THROTTLE_MEMBER_LINK_LIMIT: '1000',
    });
    owner = (await t.signUp({ businessName: 'Peak Fitness' })).agent;
    ana = (
      await owner.post('/api/members').send(treeBody('Ana Ruiz', 'ana@example.com')).expect(201)
    ).body as MemberRow;
    link = (
      await owner
        .post(`/api/members/${ana.id}/referral-link`)
        .set('Host', EVIL)
        .send({})
        .expect(201)
    ).body as ReferralLink;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** The emails that arrive after `from`, once `count` have. */
  const arrivals = (from: number, count: number): Promise<CaughtMail[]> =>
    waitFor(async () => (smtp.emails.length >= from + count ? smtp.emails.slice(from) : null));

  it('a magic link asked for with a forged Host (JSON and the no-JS form) points at PUBLIC_ORIGIN, and goes only to the member', async () => {
    expect(link.url).toBe(`${ORIGIN}/referral/${link.code}`);
    const before = smtp.emails.length;
    await t
      .agent()
      .post('/api/member/magic-link')
      .set('Host', EVIL)
      .send({ email: 'ana@example.com' })
      .expect(202);
    await t
      .agent()
      .post('/member')
      .set('Host', EVIL)
      .set('Origin', `http://${EVIL}`)
      .set('X-Forwarded-Host', EVIL)
      .type('form')
      .send({ email: 'ana@example.com' })
      .expect(200);
    const mails = await arrivals(before, 2);
    await memberEmailsSettled(t);
    expect(smtp.emails.slice(before)).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.rcptTo).toEqual(['ana@example.com']);
      expect(mail.text).toMatch(
        new RegExp(`${ORIGIN.replace(/\./g, '\\.')}/member#token=[A-Za-z0-9_-]{43}`),
      );
      expect(linksOf(mail).length).toBeGreaterThan(0);
      for (const url of linksOf(mail)) expect(url.startsWith(`${ORIGIN}/`)).toBe(true);
      expect(JSON.stringify(mail.headerLines) + mail.html + mail.text).not.toContain(EVIL);
    }
  });

  it('"Your referral link" sent from a request with a forged Host: referral link, magic link and unsubscribe on PUBLIC_ORIGIN', async () => {
    const before = smtp.emails.length;
    await owner.post(`/api/members/${ana.id}/referral-link/email`).set('Host', EVIL).expect(202);
    const [mail] = await arrivals(before, 1);
    expect(mail.rcptTo).toEqual(['ana@example.com']);
    const links = linksOf(mail);
    expect(links).toEqual(
      expect.arrayContaining([
        `${ORIGIN}/referral/${link.code}`,
        expect.stringMatching(/^http:\/\/localhost:3000\/member#token=/),
        expect.stringMatching(/^http:\/\/localhost:3000\/api\/member-emails\/unsubscribe\//),
      ]),
    );
    for (const url of links) expect(url.startsWith(`${ORIGIN}/`)).toBe(true);
    expect(JSON.stringify(mail.headerLines) + mail.html + mail.text).not.toContain(EVIL);
  });

  it('the welcome of an approved friend and the members export: PUBLIC_ORIGIN whatever the Host', async () => {
    const before = smtp.emails.length;
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: 'Cleo Park', email: 'cleo@example.com' })
      .expect(201);
    const prospect = await waitFor(async () => {
      const rows = (await t.dataSource.query(`SELECT id FROM prospects WHERE email = $1`, [
        'cleo@example.com',
      ])) as { id: string }[];
      return rows[0];
    });
    await owner
      .post(`/api/prospects/${prospect.id}/approve`)
      .set('Host', EVIL)
      .send(treeBody('Cleo Park', 'cleo@example.com'))
      .expect(201);
    const mails = await waitFor(async () => {
      const got = smtp.emails.slice(before);
      return got.some((mail) => mail.rcptTo.includes('cleo@example.com')) ? got : null;
    });
    for (const mail of mails) {
      for (const url of linksOf(mail)) expect(url.startsWith(`${ORIGIN}/`)).toBe(true);
      expect(mail.html + (mail.text ?? '')).not.toContain(EVIL);
    }
    const csv = await owner.get('/api/members-csv/export').set('Host', EVIL).expect(200);
    expect(csv.text).toContain(`${ORIGIN}/referral/${link.code}`);
    expect(csv.text).not.toContain(EVIL);
  });
});
