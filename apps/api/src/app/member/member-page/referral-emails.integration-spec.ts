import type TestAgent from 'supertest/lib/agent';
import {
  MEMBER_PAGE_MESSAGES,
  type MemberRow,
  type ReferralEmailExample,
  type ReferralEmailRun,
} from '@grove/contracts';
import { runUntilDone } from '../../../../test/background-run';
import { recipient, type SmtpCatcher } from '@grove/testing-smtp';
import { createMailTestApp } from '../../../../test/member-mail';
import { waitFor } from '../../../../test/stub-servers';
import { autoLinksOff, treeBody, type TestApp } from '../../../../test/test-app';
import { JOBS_SCHEMA } from '../../platform/jobs/jobs-schema';
import { REFERRAL_EMAILS_ALL_QUEUE, REFERRAL_EMAILS_BATCH_SIZE } from './referral-emails.service';

jest.setTimeout(300_000);

/** Members with a live link: more than one batch of the run. */
const WITH_LINK = REFERRAL_EMAILS_BATCH_SIZE + 20;

/**
 * 'Email all links' (docs/product.md#referral-links) as one request that starts a background run:
 * "Your referral link" through a real SMTP server to every member with a live link, once each
 * (one emailed within the hour is skipped), with progress; a second click while it runs starts
 * nothing; another business's run reaches none of this business's members.
 */
describe("'Email all links' as a background run (integration, real SMTP server)", () => {
  let t: TestApp;
  let smtp: SmtpCatcher;

  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp());
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** Inserts `count` members of a business (as an import would), each with a live link when `linked`. */
  async function seedMembers(
    businessId: string,
    prefix: string,
    count: number,
    linked: boolean,
  ): Promise<void> {
    await t.dataSource.query(
      `WITH m AS (
         INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents)
         SELECT $1, $2 || ' ' || n, $2 || n || '@seed.example', $2 || n || '@seed.example', 5000, 500
         FROM generate_series(1, $3) AS n RETURNING id)
       INSERT INTO referral_links (business_id, member_id, code)
       SELECT $1, id, md5(random()::text) || md5(random()::text) FROM m WHERE $4`,
      [businessId, prefix, count, linked],
    );
  }

  /** Emails the SMTP server received per recipient whose address starts with `prefix`. */
  const receivedBy = (prefix: string): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const mail of smtp.emails) {
      const to = recipient(mail) ?? '';
      if (to.startsWith(prefix)) counts.set(to, (counts.get(to) ?? 0) + 1);
    }
    return counts;
  };
  const referralRows = async (businessId: string): Promise<number> =>
    (
      (await t.dataSource.query(
        `SELECT count(*)::int AS n FROM member_emails WHERE business_id = $1 AND template = 'referral-link'`,
        [businessId],
      )) as { n: number }[]
    )[0]?.n ?? 0;
  /** 'Email all links' jobs queued for a business (completed ones stay in the table for hours). */
  const runJobs = async (businessId: string): Promise<number> =>
    (
      (await t.dataSource.query(
        `SELECT count(*)::int AS n FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND data->>'businessId' = $2`,
        [REFERRAL_EMAILS_ALL_QUEUE, businessId],
      )) as { n: number }[]
    )[0]?.n ?? 0;
  const emailAll = (agent: TestAgent) =>
    agent.post('/api/referral-links/email').expect(202) as Promise<{ body: ReferralEmailRun }>;

  it("shows one example email as a real member would get it, from the send's own template; nothing sent, no token issued; tenant-isolated; 4xx for bad input", async () => {
    const { agent } = await t.signUp({ businessName: 'Café Montréal' });
    const other = await t.signUp({ businessName: 'Harbour Strength' });
    await autoLinksOff(agent);
    const example = () => agent.get('/api/referral-links/email/example');
    // No member with a link yet: nothing to show.
    const none = await example().expect(404);
    expect(none.body.message).toBe(MEMBER_PAGE_MESSAGES.referralEmailNoExample);
    const add = async (name: string, email: string, price: number): Promise<MemberRow> =>
      (
        await agent
          .post('/api/members')
          .send(treeBody(name, email, price, 1250))
          .expect(201)
      ).body as MemberRow;
    const zoe = await add('Zoë Walsh', 'zoe.walsh@x.com', 9000);
    const anne = await add('Anne-Marie Dubois', 'anne-marie@x.com', 8000);
    const noLink = await add('Aaron Able', 'aaron@x.com', 7000);
    for (const member of [zoe, anne])
      await agent.post(`/api/members/${member.id}/referral-link`).send({}).expect(201);
    const code = async (memberId: string): Promise<string> =>
      (
        (await t.dataSource.query(
          `SELECT code FROM referral_links WHERE member_id = $1 AND revoked_at IS NULL`,
          [memberId],
        )) as { code: string }[]
      )[0]?.code ?? '';
    const emailsBefore = smtp.emails.length;
    const rowsBefore = (await t.dataSource.query(
      `SELECT (SELECT count(*) FROM member_emails)::int AS emails,
              (SELECT count(*) FROM member_magic_links)::int AS links`,
    )) as { emails: number; links: number }[];

    // The first member by name with a link (Aaron has none): Anne-Marie's own email.
    const shown = (await example().expect(200)).body as ReferralEmailExample;
    expect(shown.memberId).toBe(anne.id);
    expect(shown.memberName).toBe('Anne-Marie Dubois');
    expect(shown.subject).toBe('Your referral link for Café Montréal');
    const text = shown.text.replace(/\s+/g, ' ');
    expect(text).toContain('Hi Anne-Marie,');
    expect(text).toContain('lowers your price by $12.50 a month');
    expect(text).toContain('Your price now: $80.00 a month.');
    expect(shown.html).toContain(`https://grove.example.com/referral/${await code(anne.id)}`);
    expect(shown.html).toContain('Café Montréal');
    // The member page button opens /member without a token; nobody else's data.
    expect(shown.html).toContain('href="https://grove.example.com/member"');
    expect(shown.html).not.toMatch(/#token=/);
    expect(shown.html).not.toContain('Zoë');

    // One member asked for by id.
    const forZoe = (
      await agent.get(`/api/referral-links/email/example?memberId=${zoe.id}`).expect(200)
    ).body as ReferralEmailExample;
    expect(forZoe.text).toContain('Hi Zoë,');
    expect(forZoe.html).toContain(`/referral/${await code(zoe.id)}`);

    // Nothing queued, sent or issued.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.emails.length).toBe(emailsBefore);
    expect(
      await t.dataSource.query(
        `SELECT (SELECT count(*) FROM member_emails)::int AS emails,
                (SELECT count(*) FROM member_magic_links)::int AS links`,
      ),
    ).toEqual(rowsBefore);

    // Bad input: a malformed id 400, a member without a link 404, an unknown id 404.
    expect(
      (await agent.get('/api/referral-links/email/example?memberId=not-a-uuid').expect(400)).body
        .message,
    ).toBeDefined();
    expect(
      (await agent.get(`/api/referral-links/email/example?memberId=${noLink.id}`).expect(404)).body
        .message,
    ).toBe(MEMBER_PAGE_MESSAGES.referralEmailNoLink);
    await agent
      .get('/api/referral-links/email/example?memberId=00000000-0000-4000-8000-000000000000')
      .expect(404);

    // Tenant isolation: another business cannot render this business's member, and its own
    // example shows only its own members; without a session, 401.
    const refused = await other.agent
      .get(`/api/referral-links/email/example?memberId=${anne.id}`)
      .expect(404);
    expect(JSON.stringify(refused.body)).not.toMatch(/Anne-Marie|Café/);
    const theirs = await other.agent
      .post('/api/members')
      .send(treeBody('Liam Byrne', 'liam@x.com'));
    expect(theirs.status).toBe(201);
    const own = (await other.agent.get('/api/referral-links/email/example').expect(200))
      .body as ReferralEmailExample;
    expect(own.memberName).toBe('Liam Byrne');
    expect(own.subject).toBe('Your referral link for Harbour Strength');
    expect(own.html).not.toMatch(/Anne-Marie|Café Montréal/);
    await t.agent().get('/api/referral-links/email/example').expect(401);
  });

  it('needs a session to start or watch a run', async () => {
    await t.agent().get('/api/referral-links/email').expect(401);
    await t.agent().post('/api/referral-links/email').expect(401);
    await t.agent().get('/api/referral-links/email/preview').expect(401);
  });

  it('emails every member with a link once, in the background with progress; a second click starts nothing; another business reaches none of them', async () => {
    const { agent, user } = await t.signUp({ businessName: 'Peak Fitness' });
    const other = await t.signUp({ businessName: 'Other Gym' });
    const businessId = user.business.id;
    await seedMembers(businessId, 'peak', WITH_LINK - 1, true);
    await seedMembers(businessId, 'nolink', 5, false);
    await seedMembers(other.user.business.id, 'other', 3, true);
    // Ana was emailed her link a minute ago: the run skips her.
    const ana = (await agent.post('/api/members').send(treeBody('Ana Ruiz', 'peak-ana@x.com')))
      .body as MemberRow;
    await agent.post(`/api/members/${ana.id}/referral-link`).send({}).expect(201);
    await agent.post(`/api/members/${ana.id}/referral-link/email`).expect(202);
    await waitFor(async () => receivedBy('peak-ana').get('peak-ana@x.com') === 1);

    // Before asking, the owner sees how many members it would email (issue 25); counting sends
    // nothing, and another business's members are not counted (tenant isolation).
    expect((await agent.get('/api/referral-links/email/preview').expect(200)).body).toEqual({
      members: WITH_LINK - 1,
      alreadyEmailed: 1,
    });
    expect((await other.agent.get('/api/referral-links/email/preview').expect(200)).body).toEqual({
      members: 3,
      alreadyEmailed: 0,
    });
    expect(await referralRows(businessId)).toBe(1);
    expect((await agent.get('/api/referral-links/email').expect(200)).body).toEqual({
      status: 'idle',
      total: 0,
      processed: 0,
      queued: 0,
      skipped: 0,
    });
    // Two clicks at once (a double click): one statement decides, so one run starts. (A second
    // click after the first run ended would start a new run, which skips everyone just emailed.)
    const [first, second] = await Promise.all([emailAll(agent), emailAll(agent)]);
    for (const started of [first.body, second.body]) {
      expect(started.total).toBe(WITH_LINK);
      expect(['running', 'done']).toContain(started.status);
    }
    const done = await runUntilDone<ReferralEmailRun>(agent, '/api/referral-links/email');
    expect(done).toEqual({
      status: 'done',
      total: WITH_LINK,
      processed: WITH_LINK,
      queued: WITH_LINK - 1,
      skipped: 1,
    });
    expect(await referralRows(businessId)).toBe(WITH_LINK);
    expect(await runJobs(businessId)).toBe(1);

    // Through the SMTP server: one email per member with a link, none to those without.
    const peak = await waitFor(async () => {
      const counts = receivedBy('peak');
      return counts.size === WITH_LINK ? counts : undefined;
    }, 60_000);
    expect([...peak.values()].every((n) => n === 1)).toBe(true);
    expect(receivedBy('nolink').size).toBe(0);
    const sample = smtp.emails.find((mail) => recipient(mail) === 'peak7@seed.example');
    expect(sample?.subject).toBeDefined();
    expect(sample?.from?.value[0]?.name).toBe('Peak Fitness');
    expect(sample?.text).toMatch(/https:\/\/grove\.example\.com\/referral\/[0-9a-f]{64}/);

    // Another business's run emails its own three members only.
    await emailAll(other.agent);
    expect(
      await runUntilDone<ReferralEmailRun>(other.agent, '/api/referral-links/email'),
    ).toMatchObject({ status: 'done', total: 3, queued: 3, skipped: 0 });
    await waitFor(async () => receivedBy('other').size === 3);
    expect(await referralRows(businessId)).toBe(WITH_LINK);
    expect((await agent.get('/api/referral-links/email').expect(200)).body).toEqual(done);

    expect((await agent.get('/api/referral-links/email/preview').expect(200)).body).toEqual({
      members: 0,
      alreadyEmailed: WITH_LINK,
    });
    // Again within the hour: a new run that skips everyone and sends nothing.
    await emailAll(agent);
    expect(await runUntilDone<ReferralEmailRun>(agent, '/api/referral-links/email')).toEqual({
      status: 'done',
      total: WITH_LINK,
      processed: WITH_LINK,
      queued: 0,
      skipped: WITH_LINK,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await referralRows(businessId)).toBe(WITH_LINK);
    expect([...receivedBy('peak').values()].every((n) => n === 1)).toBe(true);
  });
});
