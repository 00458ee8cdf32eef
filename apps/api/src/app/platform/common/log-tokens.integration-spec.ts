import type { MemberRow, ReferralLink } from '@grove/contracts';
import { startSmtpCatcher, type SmtpCatcher } from '@grove/testing-smtp';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';
import { waitFor } from '../../../../test/stub-servers';

/**
 * Issue 24 part 5: the request log (pino-http's `url` and `params`, at LOG_LEVEL info and below)
 * and every other log line carry no token: not the unsubscribe token (in the path of
 * `/api/member-emails/unsubscribe/<token>…` and of its page), not a magic link's token (in
 * request bodies and, should one come so, a query), not a referral code.
 */
describe('log lines carry no tokens (integration, issue 24 part 5, real SMTP server)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  const logLines: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    t = await createTestApp(
      {
        LOG_LEVEL: 'debug',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Grove <no-reply@grove.test>',
        PUBLIC_ORIGIN: 'https://grove.example.com',
        THROTTLE_DISABLED: 'true',
      },
      { logLines },
    );
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('unsubscribe, magic-link and join requests log their paths with the token segment redacted', async () => {
    const { agent: owner } = await t.signUp({ businessName: 'Peak Fitness' });
    const ana = (
      await owner.post('/api/members').send(treeBody('Ana Ruiz', 'ana@example.com')).expect(201)
    ).body as MemberRow;
    const link = (await owner.post(`/api/members/${ana.id}/referral-link`).send({}).expect(201))
      .body as ReferralLink;
    // The join page and its API, by code.
    await t.agent().get(`/referral/${link.code}`).expect(200);
    await t.agent().get(`/api/referrals/${link.code}`).expect(200);
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: 'Cleo Park', email: 'cleo@example.com' })
      .expect(201);
    // "Your referral link": a magic link and the unsubscribe token, in a real email.
    await owner.post(`/api/members/${ana.id}/referral-link/email`).expect(202);
    const mail = await waitFor(async () =>
      smtp.emails.find((got) => got.subject === 'Your referral link for Peak Fitness'),
    );
    const magic = /\/member#token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
    const unsubscribe = /\/api\/member-emails\/unsubscribe\/([A-Za-z0-9_-]{43})/.exec(
      mail.text ?? '',
    )?.[1];
    if (!magic || !unsubscribe) throw new Error(`no tokens in: ${mail.text}`);

    const before = logLines.length;
    await t.agent().get(`/api/member-emails/unsubscribe/${unsubscribe}`).expect(302);
    await t.agent().get(`/api/member-emails/unsubscribe/${unsubscribe}/status`).expect(200);
    await t.agent().get(`/member/unsubscribe/${unsubscribe}`);
    await t
      .agent()
      .post(`/api/member-emails/unsubscribe/${unsubscribe}`)
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    await t.agent().get(`/member?token=${magic}`);
    await t.agent().post('/api/member/session').send({ token: magic }).expect(204);
    await t.agent().post('/member/landing').send({ token: magic });
    // A malformed token (400 with the DTO's message): the refused body is not logged either.
    const refused = await t
      .agent()
      .post('/api/member/session')
      .send({ token: `${magic}x` });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    // A request that fails carries its URL into the exception filter's own line too.
    await t.agent().get(`/api/member-emails/unsubscribe/${unsubscribe}x/status`).expect(404);

    const lines = logLines.slice(before).join('\n');
    // The requests were logged (at info), with the token segment redacted…
    expect(lines).toContain('/api/member-emails/unsubscribe/[redacted]/status');
    expect(lines).toContain('"splat":["member-emails","unsubscribe","[redacted]"');
    expect(lines).toContain('"location":"/member/unsubscribe/[redacted]"');
    expect(lines).toContain('/member?token=[redacted]');
    // …and no line of the whole run holds a token or the referral code.
    const all = logLines.join('\n');
    expect(all).toContain('/referral/[redacted]');
    expect(all).toContain('/api/referrals/[redacted]/join');
    for (const secret of [unsubscribe, magic, link.code])
      expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
  });
});
