import type { MemberRow, ReferralLink } from '@grove/contracts';
import type { SmtpCatcher } from '@grove/testing-smtp';
import { createMailTestApp } from '../../../../test/member-mail';
import { waitFor } from '../../../../test/stub-servers';
import { treeBody, type TestApp } from '../../../../test/test-app';
import { jobScope } from '../../platform/database/business-scope';
import { JOBS_SCHEMA } from '../../platform/jobs/jobs-schema';
import { MemberEmails } from '../member-emails/member-emails.service';
import {
  FRIEND_JOINED_EMAILS_PER_WINDOW,
  FRIEND_JOINED_WINDOW_SECONDS,
  MemberNotifications,
} from './member-notifications.service';

jest.setTimeout(120_000);

/** Twenty friends with names the join accepts (letters and spaces). */
const FRIENDS = 'ABCDEFGHIJKLMNOPQRST'.split('').map((letter, index) => ({
  name: `Friend ${letter}`,
  email: `friend${index + 1}@example.com`,
}));

describe('"{friend} joined with your link" is capped per referrer (integration, issue 24 part 6, real SMTP server)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  let businessId: string;
  let ana: MemberRow;
  let link: ReferralLink;
  /** Recipients the SMTP server saw before the tests: the owner's sign-up link (docs/product.md#signup). */
  let rcptBefore: number;

  beforeAll(async () => {
    // Every join below comes from one client: the per-client join throttle is not what is tested.
    ({ t, smtp } = await createMailTestApp({ THROTTLE_REFERRAL_LIMIT: '10000' }));
    const signed = await t.signUp({ businessName: 'Peak Fitness' });
    businessId = signed.user.business.id;
    ana = (
      await signed.agent
        .post('/api/members')
        .send(treeBody('Ana Ruiz', 'ana@example.com'))
        .expect(201)
    ).body as MemberRow;
    link = (await signed.agent.post(`/api/members/${ana.id}/referral-link`).send({}).expect(201))
      .body as ReferralLink;
    rcptBefore = smtp.rcptTo().length;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const rows = async () =>
    (await t.dataSource.query(
      `SELECT id, template, status, data, created_at FROM member_emails
        WHERE business_id = $1 AND member_id = $2 ORDER BY created_at`,
      [businessId, ana.id],
    )) as {
      id: string;
      template: string;
      status: string;
      data: { friendNames?: string[]; eventKeys?: string[] };
      created_at: Date;
    }[];
  const toAna = () => smtp.emails.filter((mail) => mail.rcptTo.includes('ana@example.com'));

  it('a burst of 20 joins gives the referrer 5 emails now and one summary of the other 15 for when the hour has room', async () => {
    expect(FRIEND_JOINED_EMAILS_PER_WINDOW).toBe(5);
    for (const friend of FRIENDS)
      await t.agent().post(`/api/referrals/${link.code}/join`).send(friend).expect(201);
    // Every join's follow-up has run: 5 emails of their own, 15 names in one summary.
    const settled = await waitFor(async () => {
      const now = await rows();
      const summary = now.find((row) => row.template === 'friends-joined');
      const own = now.filter((row) => row.template === 'friend-joined');
      return own.length === 5 &&
        own.every((row) => row.status === 'sent') &&
        summary?.data.eventKeys?.length === 15
        ? now
        : null;
    }, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(settled.filter((row) => row.template === 'friends-joined')).toHaveLength(1);
    const summary = settled.find((row) => row.template === 'friends-joined');
    expect(summary?.status).toBe('queued');
    expect(summary?.data.friendNames).toHaveLength(15);
    expect(new Set(summary?.data.friendNames)).toEqual(
      new Set(
        FRIENDS.map((friend) => friend.name).filter(
          (name) => !toAna().some((mail) => mail.subject === `${name} joined with your link`),
        ),
      ),
    );
    // Only the capped number reached the referrer, each to her alone.
    expect(toAna()).toHaveLength(FRIEND_JOINED_EMAILS_PER_WINDOW);
    expect(smtp.rcptTo().slice(rcptBefore)).toEqual(
      Array(FRIEND_JOINED_EMAILS_PER_WINDOW).fill('ana@example.com'),
    );
    // The summary waits for the hour to have room: the oldest counted email + one hour.
    const [job] = (await t.dataSource.query(
      `SELECT start_after FROM ${JOBS_SCHEMA}.job WHERE id = $1`,
      [summary?.id],
    )) as { start_after: Date }[];
    const oldest = settled.find((row) => row.template === 'friend-joined')?.created_at as Date;
    expect(
      Math.abs(job.start_after.getTime() - oldest.getTime() - FRIEND_JOINED_WINDOW_SECONDS * 1000),
    ).toBeLessThan(1000);

    // A retried follow-up of a summarised join tells nothing twice.
    const [{ id: prospectId }] = (await t.dataSource.query(
      `SELECT id FROM prospects WHERE business_id = $1 AND email = $2`,
      [businessId, 'friend20@example.com'],
    )) as { id: string }[];
    const notifications = t.app.get(MemberNotifications);
    await notifications.friendJoined(jobScope({ businessId }), {
      prospectId,
      referrerId: ana.id,
      friendName: 'Friend T',
      discountPerBranchCents: 1500,
    });
    const after = await rows();
    expect(after).toHaveLength(settled.length);
    expect(after.find((row) => row.template === 'friends-joined')?.data.eventKeys).toHaveLength(15);

    // When its time comes, the summary is one email naming them.
    const status = await t.app
      .get(MemberEmails)
      .deliver({ businessId, emailId: summary?.id as string });
    expect(status).toBe('sent');
    const mail = toAna().at(-1);
    expect(mail?.subject).toBe('15 more friends joined with your link');
    expect(mail?.rcptTo).toEqual(['ana@example.com']);
    const text = (mail?.text ?? '').replace(/\s+/g, ' ');
    expect(text).toMatch(
      /More friends joined Peak Fitness with your referral link: .* and 5 more\./,
    );
    expect(text).toContain('lowers your price by $15.00 a month');
  });

  it('a join while the hour is still full starts a new summary once the last one is sent', async () => {
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: 'Late Friend', email: 'late@example.com' })
      .expect(201);
    const summaries = await waitFor(async () => {
      const now = (await rows()).filter((row) => row.template === 'friends-joined');
      return now.length === 2 ? now : null;
    }, 30_000);
    expect(summaries[1]).toMatchObject({
      status: 'queued',
      data: { friendNames: ['Late Friend'] },
    });
    expect((await rows()).filter((row) => row.template === 'friend-joined')).toHaveLength(5);
  });
});
