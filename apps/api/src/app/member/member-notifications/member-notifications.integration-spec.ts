import type TestAgent from 'supertest/lib/agent';
import {
  MEMBER_EMAIL_SETTINGS_INVALID,
  type MemberEmailSettings,
  type MemberRow,
  type Page,
  type ProspectRow,
  type ReferralLink,
} from '@grove/contracts';
import { treeBody, type TestApp } from '../../../../test/test-app';
import {
  MembershipEvents,
  type MembershipEventMap,
} from '../../membership/events/membership-events';
import { createMailTestApp, memberEmailsSettled, receivedWith } from '../../../../test/member-mail';
import { waitFor } from '../../../../test/stub-servers';
import { JobsService } from '../../platform/jobs/jobs.service';
import { MEMBER_EMAIL_QUEUE } from '../member-emails/member-emails.service';
import { recipient as to, type ParsedMail, type SmtpCatcher } from '@grove/testing-smtp';

const ALL_ON: MemberEmailSettings = {
  friendJoined: true,
  branchCounting: true,
  branchEnded: true,
  welcome: true,
};

/**
 * The four event emails of issue 15 part 2 through a real SMTP server: each sent once per event
 * with the right amounts, none when the owner turned it off or the member unsubscribed.
 */
describe('event emails to members (integration, real SMTP server)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  let owner: TestAgent;
  let other: TestAgent;
  let ana: MemberRow;
  let code: string;

  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp({ THROTTLE_REFERRAL_LIMIT: '10000' }));
    owner = (await t.signUp({ businessName: 'Peak Fitness' })).agent;
    other = (await t.signUp({ businessName: 'Other Gym' })).agent;
    ana = (
      await owner.post('/api/members').send(treeBody('Ana Ruiz', 'ana@example.com')).expect(201)
    ).body as MemberRow;
    code = (
      (await owner.post(`/api/members/${ana.id}/referral-link`).expect(201)).body as ReferralLink
    ).code;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const join = (name: string, email: string) =>
    t.agent().post(`/api/referrals/${code}/join`).send({ name, email }).expect(201);
  const prospectId = async (email: string): Promise<string> => {
    const page = (await owner.get('/api/prospects?pageSize=100').expect(200))
      .body as Page<ProspectRow>;
    const row = page.items.find((item) => item.email === email);
    if (!row) throw new Error(`no prospect ${email}`);
    return row.id;
  };
  const approve = (id: string, name: string, email: string) =>
    owner.post(`/api/prospects/${id}/approve`).send({
      memberName: name,
      memberEmail: email,
      membershipPriceCents: 8000,
      discountCents: 1000,
    });
  const settled = () => memberEmailsSettled(t);
  /** An email's plain-text part on one line (html-to-text wraps at 78 characters). */
  const text = (mail: ParsedMail): string => (mail.text ?? '').replace(/\s+/g, ' ');
  const received = (subject: string): ParsedMail[] => receivedWith(smtp, subject);
  const statusOf = async (eventKeyPrefix: string): Promise<string[]> =>
    (
      (await t.dataSource.query(
        `SELECT status FROM member_emails WHERE event_key LIKE $1 ORDER BY created_at`,
        [`${eventKeyPrefix}%`],
      )) as { status: string }[]
    ).map((row) => row.status);

  it('listens to every event membership announces, as do automatic links (docs/architecture.md#api-areas)', () => {
    // An event nobody listens to would silently send no email or give no link.
    const events = t.app.get(MembershipEvents);
    const expected: Record<keyof MembershipEventMap, number> = {
      'members.added': 1,
      'members.bulk-added': 1,
      'friend.joined': 1,
      'branch.approved': 1,
      'branch.counting': 1,
      'branch.ended': 1,
      // The Mindbody integration's 'Add to Mindbody' (issue 33 item 4).
      'member.mindbody-client-requested': 1,
      // The Stripe member billing's welcome-offer coupon (issue 33 item 1).
      'welcome-offer.granted': 1,
    };
    const actual = Object.fromEntries(
      Object.keys(expected).map((name) => [
        name,
        events.listenerCount(name as keyof MembershipEventMap),
      ]),
    );
    expect(actual).toEqual(expected);
  });

  it('settings: every email is on by default; 401 without a session', async () => {
    expect((await owner.get('/api/settings/member-emails').expect(200)).body).toEqual(ALL_ON);
    await t.agent().get('/api/settings/member-emails').expect(401);
    await t.agent().put('/api/settings/member-emails').send(ALL_ON).expect(401);
  });

  it('settings: bad bodies are a 400 with the message and change nothing', async () => {
    for (const body of [
      { ...ALL_ON, welcome: 'yes' },
      { friendJoined: false },
      { ...ALL_ON, extra: true },
      { ...ALL_ON, branchEnded: null },
    ]) {
      const reply = await owner.put('/api/settings/member-emails').send(body).expect(400);
      expect(JSON.stringify(reply.body)).toContain(
        'extra' in body ? 'should not exist' : MEMBER_EMAIL_SETTINGS_INVALID,
      );
    }
    expect((await owner.get('/api/settings/member-emails').expect(200)).body).toEqual(ALL_ON);
  });

  it("settings: tenant isolation: another business's owner changes only their own", async () => {
    const off = { ...ALL_ON, welcome: false };
    expect((await other.put('/api/settings/member-emails').send(off).expect(200)).body).toEqual(
      off,
    );
    expect((await other.get('/api/settings/member-emails').expect(200)).body).toEqual(off);
    expect((await owner.get('/api/settings/member-emails').expect(200)).body).toEqual(ALL_ON);
  });

  it('"{friend} joined with your link" goes to the referrer once, whatever the repeats; a flagged join sends nothing', async () => {
    await join('Sam Stone', 'sam@example.com');
    await join('Sam Stone', 'sam@example.com');
    await join('Ana Ruiz', 'ana@example.com'); // her own link: flagged, no email
    // The email is queued by the join's follow-up job: wait for it before settling (a busy
    // machine may not have run that job when no email is queued yet).
    await waitFor(async () => received('Sam Stone joined with your link').length > 0, 30_000);
    await settled();
    const mails = received('Sam Stone joined with your link');
    expect(mails).toHaveLength(1);
    expect(to(mails[0])).toBe('ana@example.com');
    expect(mails[0].from?.value[0]).toEqual({
      name: 'Peak Fitness',
      address: 'no-reply@grove.test',
    });
    expect(text(mails[0])).toContain('Sam Stone joined Peak Fitness with your referral link.');
    expect(text(mails[0])).toContain('your price drops by $15.00 a month');
    expect(mails[0].html).toContain('$15.00');
    expect(smtp.emails.filter((mail) => mail.subject?.startsWith('Ana Ruiz'))).toEqual([]);
  });

  it('approval: "{friend} is now your branch: your price is now $85.00" to the referrer and a welcome to the friend, once', async () => {
    const id = await prospectId('sam@example.com');
    await approve(id, 'Sam Stone', 'sam@example.com').expect(201);
    await approve(id, 'Sam Stone', 'sam@example.com').expect(404);
    await settled();
    const counting = received('Sam Stone is now your branch: your price is now $85.00');
    expect(counting).toHaveLength(1);
    expect(to(counting[0])).toBe('ana@example.com');
    expect(text(counting[0])).toContain('Your price is now $85.00 a month (it was $100.00).');
    const welcome = received('Welcome to Peak Fitness');
    expect(welcome).toHaveLength(1);
    expect(to(welcome[0])).toBe('sam@example.com');
    expect(text(welcome[0])).toContain('Ana Ruiz referred you');
    expect(text(welcome[0])).toMatch(
      /https:\/\/grove\.example\.com\/member#token=[A-Za-z0-9_-]{43}/,
    );
    // Automatic links are on for a new business (issue 25): the welcome holds Sam's OWN referral
    // link (not Ana's), on PUBLIC_ORIGIN, so the new member can refer friends at once.
    const [samLink] = (await t.dataSource.query(
      `SELECT l.code FROM referral_links l JOIN members m ON m.id = l.member_id
        WHERE m.email = 'sam@example.com' AND l.revoked_at IS NULL`,
    )) as { code: string }[];
    expect(samLink?.code).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(samLink?.code).not.toBe(code);
    expect(text(welcome[0])).toContain('You can refer friends too');
    expect(text(welcome[0])).toContain(`https://grove.example.com/referral/${samLink?.code}`);
    expect(text(welcome[0])).not.toContain(`/referral/${code}`);
    expect(welcome[0]?.html).toContain(
      `href="https://grove.example.com/referral/${samLink?.code}"`,
    );
  });

  it('approval with automatic links turned off: the welcome asks the front desk for the link instead of promising one', async () => {
    const gym = (await t.signUp({ businessName: 'Harbour Strength' })).agent;
    await gym.put('/api/referral-links/settings').send({ autoCreate: false }).expect(200);
    const lena = (
      await gym.post('/api/members').send(treeBody('Lena Berg', 'lena@example.com')).expect(201)
    ).body as MemberRow;
    const lenaCode = (
      (await gym.post(`/api/members/${lena.id}/referral-link`).expect(201)).body as ReferralLink
    ).code;
    await t
      .agent()
      .post(`/api/referrals/${lenaCode}/join`)
      .send({ name: 'Nia Lee', email: 'nia@example.com' })
      .expect(201);
    await settled();
    const page = (await gym.get('/api/prospects?pageSize=100').expect(200))
      .body as Page<ProspectRow>;
    const nia = page.items.find((item) => item.email === 'nia@example.com');
    await gym
      .post(`/api/prospects/${nia?.id}/approve`)
      .send({
        memberName: 'Nia Lee',
        memberEmail: 'nia@example.com',
        membershipPriceCents: 8000,
        discountCents: 1000,
      })
      .expect(201);
    await settled();
    const welcome = received('Welcome to Harbour Strength');
    expect(welcome).toHaveLength(1);
    expect(text(welcome[0])).toContain('Ask the front desk for your referral link.');
    expect(text(welcome[0])).not.toContain('/referral/');
  });

  it('branch removed by the owner: "{friend} no longer counts as your branch: your price is back to $100.00", once, never "membership ended" (issue 25)', async () => {
    const sam = ((await owner.get(`/api/members/${ana.id}`).expect(200)).body as MemberRow)
      .branchDetails[0];
    await owner.delete(`/api/members/${ana.id}/branches/${sam.id}`).expect(204);
    await owner.delete(`/api/members/${ana.id}/branches/${sam.id}`).expect(404);
    await settled();
    const ended = received(
      'Sam Stone no longer counts as your branch: your price is back to $100.00',
    );
    expect(ended).toHaveLength(1);
    expect(to(ended[0])).toBe('ana@example.com');
    expect(text(ended[0])).toContain('Sam Stone no longer counts as your branch at');
    expect(text(ended[0])).toContain('Your price is back to $100.00 a month.');
    expect(smtp.emails.filter((mail) => mail.subject?.includes('membership ended'))).toEqual([]);
  });

  it('a removed tree that was a branch tells its referrer too', async () => {
    await join('Lia Lane', 'lia@example.com');
    await approve(await prospectId('lia@example.com'), 'Lia Lane', 'lia@example.com').expect(201);
    const lia = ((await owner.get(`/api/members/${ana.id}`).expect(200)).body as MemberRow)
      .branchDetails[0];
    await owner.delete(`/api/members/${lia.id}`).expect(204);
    await settled();
    expect(received('Lia Lane is now your branch: your price is now $85.00')).toHaveLength(1);
    expect(
      received('Lia Lane no longer counts as your branch: your price is back to $100.00').map(to),
    ).toEqual(['ana@example.com']);
  });

  it('a branch removal whose email cannot be queued removes nothing; done again, it emails once (issue 31 item 4)', async () => {
    await join('Ana-Sofía Pérez', 'ana.sofia@example.es');
    await approve(
      await prospectId('ana.sofia@example.es'),
      'Ana-Sofía Pérez',
      'ana.sofia@example.es',
    ).expect(201);
    await settled();
    const branchesOfAna = async () =>
      ((await owner.get(`/api/members/${ana.id}`).expect(200)).body as MemberRow).branchDetails;
    const [branch] = await branchesOfAna();
    // The email is queued in the removal's transaction: when queueing fails, the removal rolls
    // back with it (as a crash before the commit would), rather than committing without it.
    const jobs = t.app.get(JobsService);
    const send = jobs.send.bind(jobs);
    const spy = jest
      .spyOn(jobs, 'send')
      .mockImplementation((name, data, options) =>
        name === MEMBER_EMAIL_QUEUE
          ? Promise.reject(new Error('the jobs table did not answer'))
          : send(name, data, options),
      );
    const refused = await owner.delete(`/api/members/${ana.id}/branches/${branch?.id}`);
    spy.mockRestore();
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect((await branchesOfAna()).map((detail) => detail.branchName)).toEqual(['Ana-Sofía Pérez']);

    await owner.delete(`/api/members/${ana.id}/branches/${branch?.id}`).expect(204);
    await settled();
    expect(
      received(
        'Ana-Sofía Pérez no longer counts as your branch: your price is back to $100.00',
      ).map(to),
    ).toEqual(['ana@example.com']);
  });

  it('an approval whose emails cannot be queued approves nothing; done again, it queues one of each (issue 31 item 4)', async () => {
    const friend = { name: "Zoë D'Arcy-Nguyễn", email: 'zoe.darcy@example.ie' };
    await join(friend.name, friend.email);
    await settled();
    const id = await prospectId(friend.email);
    const emailRows = async (): Promise<{ template: string; event_key: string }[]> =>
      (await t.dataSource.query(
        `SELECT e.template, e.event_key FROM member_emails e
          WHERE e.template IN ('branch-counting', 'welcome') AND e.data::text LIKE '%Zo%'
             OR e.member_id IN (SELECT id FROM members WHERE email = $1)
          ORDER BY e.template`,
        [friend.email],
      )) as { template: string; event_key: string }[];
    // Both emails are queued in the approval's transaction: when queueing fails, the approval
    // rolls back with them (as a crash before the commit would): no member, the prospect waits.
    const jobs = t.app.get(JobsService);
    const send = jobs.send.bind(jobs);
    const spy = jest
      .spyOn(jobs, 'send')
      .mockImplementation((name, data, options) =>
        name === MEMBER_EMAIL_QUEUE
          ? Promise.reject(new Error('the jobs table did not answer'))
          : send(name, data, options),
      );
    const refused = await approve(id, friend.name, friend.email);
    spy.mockRestore();
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(await prospectId(friend.email)).toBe(id);
    expect(
      ((await owner.get(`/api/members/${ana.id}`).expect(200)).body as MemberRow).branchDetails.map(
        (branch) => branch.branchName,
      ),
    ).toEqual([]);
    expect(await emailRows()).toEqual([]);

    const approved = (await approve(id, friend.name, friend.email).expect(201)).body as MemberRow;
    expect((await emailRows()).map((row) => row.event_key)).toEqual([
      `branch-counting:${approved.id}`,
      `welcome:${approved.id}`,
    ]);
    await settled();
    expect(received(`${friend.name} is now your branch: your price is now $85.00`).map(to)).toEqual(
      ['ana@example.com'],
    );
    expect(
      received('Welcome to Peak Fitness').filter((mail) => to(mail) === friend.email),
    ).toHaveLength(1);
  });

  it('an email the owner turned off is not sent', async () => {
    await owner
      .put('/api/settings/member-emails')
      .send({ friendJoined: false, branchCounting: false, branchEnded: true, welcome: false })
      .expect(200);
    await join('Max Moss', 'max@example.com');
    await approve(await prospectId('max@example.com'), 'Max Moss', 'max@example.com').expect(201);
    await settled();
    expect(received('Max Moss joined with your link')).toEqual([]);
    expect(received('Max Moss is now your branch: your price is now $85.00')).toEqual([]);
    expect(smtp.emails.filter((mail) => to(mail) === 'max@example.com')).toEqual([]);
    await owner.put('/api/settings/member-emails').send(ALL_ON).expect(200);
  });

  it('a member who unsubscribed gets none of them', async () => {
    const [{ unsubscribe_token: token }] = (await t.dataSource.query(
      `SELECT unsubscribe_token FROM member_email_subscriptions WHERE member_id = $1`,
      [ana.id],
    )) as { unsubscribe_token: string }[];
    await t
      .agent()
      .post(`/api/member-emails/unsubscribe/${token}`)
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    await join('Noa North', 'noa@example.com');
    await settled();
    expect(received('Noa North joined with your link')).toEqual([]);
    const id = await prospectId('noa@example.com');
    expect(await statusOf(`friend-joined:${id}`)).toEqual(['unsubscribed']);
  });
});
