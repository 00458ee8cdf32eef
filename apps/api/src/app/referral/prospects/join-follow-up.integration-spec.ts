import type { MemberRow, Page, ProspectRow, ReferralLink } from '@grove/contracts';
import { recipient, type SmtpCatcher } from '@grove/testing-smtp';
import { createMailTestApp } from '../../../../test/member-mail';
import { waitFor } from '../../../../test/stub-servers';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';
import { JOBS_SCHEMA } from '../../platform/jobs/jobs-schema';
import { JobsService } from '../../platform/jobs/jobs.service';
import { MEMBER_EMAIL_QUEUE } from '../../member/member-emails/member-emails.service';
import { JOIN_FOLLOW_UP_QUEUE, ProspectsService } from './prospects.service';
import { jobScope } from '../../platform/database/business-scope';

jest.setTimeout(120_000);

/**
 * What a join through a referral link sets off ("{friend} joined with your link", automatic
 * approval) is durable: its `referral.joined` job is committed with the join, so an API instance
 * that dies right after the join loses nothing (another instance sends the email, once), and an
 * email row is never left without its job.
 */
describe('the follow-up of a join survives the API dying (integration, real SMTP server)', () => {
  let smtp: SmtpCatcher;
  let a: TestApp;
  let b: TestApp | undefined;
  const env = { THROTTLE_REFERRAL_LIMIT: '10000' };

  beforeAll(async () => {
    ({ t: a, smtp } = await createMailTestApp(env));
  });
  afterAll(async () => {
    await b?.close();
    await a.close();
    await smtp.close();
  });

  const joinedEmails = (friend: string) =>
    smtp.emails.filter((mail) => mail.subject === `${friend} joined with your link`);
  const followUps = async (prospectId: string): Promise<string[]> =>
    (
      (await a.dataSource.query(
        `SELECT state FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND data->>'prospectId' = $2`,
        [JOIN_FOLLOW_UP_QUEUE, prospectId],
      )) as { state: string }[]
    ).map((row) => row.state);

  it('a join taken by an instance whose jobs died is followed up by another instance: the email once, the automatic approval once', async () => {
    const { agent, user } = await a.signUp({ businessName: 'Peak Fitness' });
    const ana = (
      await agent.post('/api/members').send(treeBody('Ana Ruiz', 'ana@example.com')).expect(201)
    ).body as MemberRow;
    const { code } = (await agent.post(`/api/members/${ana.id}/referral-link`).expect(201))
      .body as ReferralLink;
    await agent.put('/api/settings/prospects').send({ autoApprove: true }).expect(200);

    // Instance A stops working jobs (as if it died right after committing the join)…
    await a.app.get(JobsService).stop();
    await a
      .agent()
      .post(`/api/referrals/${code}/join`)
      .send({ name: 'Sam Stone', email: 'sam@example.com' })
      .expect(201);
    const [prospect] = (await a.dataSource.query(
      `SELECT id FROM prospects WHERE business_id = $1 AND email = 'sam@example.com'`,
      [user.business.id],
    )) as { id: string }[];
    expect(prospect).toBeDefined();
    // …the follow-up was committed with the join and waits, and nothing was sent.
    expect(await followUps(prospect.id)).toEqual(['created']);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(joinedEmails('Sam Stone')).toHaveLength(0);

    // Instance B comes up on the same database and does the follow-up.
    b = await createTestApp(
      {
        ...env,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Grove <no-reply@grove.test>',
        PUBLIC_ORIGIN: 'https://grove.example.com',
      },
      { database: a.db },
    );
    const mail = await waitFor(async () => joinedEmails('Sam Stone')[0], 30_000);
    expect(recipient(mail)).toBe('ana@example.com');
    await waitFor(async () => (await followUps(prospect.id))[0] === 'completed');
    // Automatic approval: Sam is now Ana's branch and no longer a prospect.
    const prospects = (await agent.get('/api/prospects').expect(200)).body as Page<ProspectRow>;
    expect(prospects.items).toEqual([]);
    const [branch] = (await a.dataSource.query(
      `SELECT referred_by_id FROM members WHERE business_id = $1 AND email = 'sam@example.com'`,
      [user.business.id],
    )) as { referred_by_id: string }[];
    expect(branch?.referred_by_id).toBe(ana.id);

    // The follow-up run again (a retry after a crash half-way) sends nothing more.
    await b.app
      .get(ProspectsService)
      .followUpJoin(jobScope({ businessId: user.business.id }), prospect.id, true);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(joinedEmails('Sam Stone')).toHaveLength(1);
  });

  it('when queueing the email fails half-way, its row is rolled back with it and the retried follow-up sends it once', async () => {
    const live = b ?? a;
    const { agent, user } = await live.signUp({ businessName: 'Hill Gym' });
    const ben = (
      await agent.post('/api/members').send(treeBody('Ben Hill', 'ben@example.com')).expect(201)
    ).body as MemberRow;
    const { code } = (await agent.post(`/api/members/${ben.id}/referral-link`).expect(201))
      .body as ReferralLink;
    const jobs = live.app.get(JobsService);
    const send = jobs.send.bind(jobs);
    let failed = 0;
    const spy = jest.spyOn(jobs, 'send').mockImplementation(async (name, data, options) => {
      if (name === MEMBER_EMAIL_QUEUE && failed === 0) {
        failed += 1;
        throw new Error('the process died before the email job was queued');
      }
      return send(name, data, options);
    });
    try {
      await live
        .agent()
        .post(`/api/referrals/${code}/join`)
        .send({ name: 'Cleo Park', email: 'cleo@example.com' })
        .expect(201);
      const mail = await waitFor(async () => joinedEmails('Cleo Park')[0], 60_000);
      expect(recipient(mail)).toBe('ben@example.com');
    } finally {
      spy.mockRestore();
    }
    expect(failed).toBe(1);
    const rows = (await live.dataSource.query(
      `SELECT status FROM member_emails WHERE business_id = $1 AND template = 'friend-joined'`,
      [user.business.id],
    )) as { status: string }[];
    expect(rows).toEqual([{ status: 'sent' }]);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(joinedEmails('Cleo Park')).toHaveLength(1);
  });
});
