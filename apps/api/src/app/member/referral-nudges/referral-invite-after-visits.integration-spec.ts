import type TestAgent from 'supertest/lib/agent';
import {
  REFERRAL_NUDGE_MESSAGES,
  type ReferralNudgePreview,
  type ReferralNudgeSettingsReply,
} from '@grove/contracts';
import { recipient as to, type ParsedMail, type SmtpCatcher } from '@grove/testing-smtp';
import type { TestApp } from '../../../../test/test-app';
import { createMailTestApp, memberEmailsSettled } from '../../../../test/member-mail';
import {
  reachStageFour,
  requests,
  sandboxEnv,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../test/mindbody-sandbox';
import { ReferralNudgesService } from './referral-nudges.service';

jest.setTimeout(180_000);

const VISITS = '/public/v6/client/clientvisits';
const AFTER_5_VISITS = {
  inviteAfterDays: null,
  inviteAfterVisits: 5,
  reminderAfterDays: null,
  monthlySummary: false,
};

/**
 * The invitation after a member's Nth visit (issue 33 item 5, docs/decisions/mindbody-visits.md)
 * against the Mindbody sandbox (GetClientVisits) and a real SMTP server: the setting only where
 * Mindbody is connected, visits counted as Mindbody tells them (signed in, not late-cancelled, not
 * missed), the invitation once per member, never to an unsubscribed member, each member asked at
 * most once a day, another business untouched.
 */
describe('referral invitation after the Nth visit (integration, Mindbody sandbox + SMTP)', () => {
  let sandbox: RunningSandbox;
  let smtp: SmtpCatcher;
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let businessId: string;
  let nudges: ReferralNudgesService;
  const clients = new Map<string, string>();

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 5 });
    ({ t, smtp } = await createMailTestApp(sandboxEnv(sandbox)));
    const signed = await t.signUp({ businessName: 'Ballsbridge Barbell' });
    owner = signed.agent;
    businessId = signed.user.business.id;
    other = (await t.signUp({ businessName: 'Harbour Yoga' })).agent;
    nudges = t.app.get(ReferralNudgesService);
    // Three clients of the gym in Mindbody, with their visits there.
    for (const [first, last, email] of [
      ['Siobhán', "O'Brien", 'siobhan.visits@example.ie'],
      ['Ana-Sofía', 'Pérez', 'ana.visits@example.es'],
      ['Kenji', 'Watanabe', 'kenji.visits@example.jp'],
    ]) {
      const client = sandbox.control.addClient({
        FirstName: first,
        LastName: last,
        Email: email,
        NormalAutoPay: 80,
      });
      clients.set(email, client.Id);
    }
    const visit = (email: string, day: number, flags = {}) =>
      sandbox.control.recordVisit(clients.get(email) ?? '', {
        StartDateTime: `2026-0${1 + (day % 9)}-1${day % 10}T07:00:00Z`,
        ...flags,
      });
    for (let day = 0; day < 5; day++) visit('siobhan.visits@example.ie', day);
    // Ana-Sofía: 4 classes attended, one late-cancelled, one missed: 4 visits.
    for (let day = 0; day < 4; day++) visit('ana.visits@example.es', day);
    visit('ana.visits@example.es', 5, { SignedIn: false, LateCancelled: true });
    visit('ana.visits@example.es', 6, { SignedIn: false, Missed: true });
    for (let day = 0; day < 7; day++) visit('kenji.visits@example.jp', day);
    await reachStageFour(owner, sandbox);
    // Each of the three has a referral link (the invitation is about it).
    const rows = (await t.dataSource.query(
      `SELECT id, email FROM members WHERE business_id = $1 AND email = ANY($2)`,
      [businessId, [...clients.keys()]],
    )) as { id: string; email: string }[];
    expect(rows).toHaveLength(3);
    for (const row of rows) await owner.post(`/api/members/${row.id}/referral-link`).expect(201);
    // Kenji unsubscribed (what the footer's link of any member email leaves).
    await t.dataSource.query(
      `INSERT INTO member_email_subscriptions (member_id, business_id, unsubscribe_token, unsubscribed_at)
       SELECT id, business_id, 'kenji-token-' || id, now() FROM members WHERE email = 'kenji.visits@example.jp'`,
    );
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await sandbox.close();
  });

  const settings = async (agent: TestAgent): Promise<ReferralNudgeSettingsReply> =>
    (await agent.get('/api/settings/referral-nudges').expect(200)).body;
  const invitesTo = (email: string): ParsedMail[] =>
    smtp.emails.filter((mail) => to(mail) === email && mail.subject?.startsWith('Know someone'));
  const run = async (now = new Date()) => {
    const sent = await nudges.runAll(now);
    await memberEmailsSettled(t);
    return sent;
  };

  it('is offered only where Mindbody is connected: elsewhere a 400 that says why, nothing saved', async () => {
    expect(await settings(owner)).toMatchObject({ visitsAvailable: true, inviteAfterVisits: null });
    expect(await settings(other)).toMatchObject({ visitsAvailable: false });
    const refused = await other
      .put('/api/settings/referral-nudges')
      .send(AFTER_5_VISITS)
      .expect(400);
    expect(refused.body).toEqual({
      statusCode: 400,
      message: REFERRAL_NUDGE_MESSAGES.visitsNeedMindbody,
      fieldErrors: { inviteAfterVisits: REFERRAL_NUDGE_MESSAGES.visitsNeedMindbody },
    });
    expect(await settings(other)).toMatchObject({ inviteAfterVisits: null, inviteAfterDays: null });
  });

  it('bad input is a 400 with the rule’s message and changes nothing', async () => {
    const cases: [object, string][] = [
      [{ ...AFTER_5_VISITS, inviteAfterVisits: 0 }, REFERRAL_NUDGE_MESSAGES.inviteVisits],
      [{ ...AFTER_5_VISITS, inviteAfterVisits: 101 }, REFERRAL_NUDGE_MESSAGES.inviteVisits],
      [{ ...AFTER_5_VISITS, inviteAfterVisits: 2.5 }, REFERRAL_NUDGE_MESSAGES.inviteVisits],
      [{ ...AFTER_5_VISITS, inviteAfterVisits: '5' }, REFERRAL_NUDGE_MESSAGES.inviteVisits],
      [{ ...AFTER_5_VISITS, inviteAfterDays: 30 }, REFERRAL_NUDGE_MESSAGES.daysOrVisits],
    ];
    for (const [body, message] of cases) {
      const reply = await owner.put('/api/settings/referral-nudges').send(body).expect(400);
      expect(reply.body.fieldErrors).toEqual({ inviteAfterVisits: message });
    }
    for (const visits of ['0', '101', 'five', '5.5'])
      expect(
        (
          await owner
            .get(`/api/settings/referral-nudges/preview?kind=invite&visits=${visits}`)
            .expect(400)
        ).body.message,
      ).toBe(REFERRAL_NUDGE_MESSAGES.inviteVisits);
    expect(await settings(owner)).toMatchObject({ inviteAfterVisits: null, inviteAfterDays: null });
  });

  it('previews the invitation after the 5th visit for a Mindbody member, sending nothing', async () => {
    const before = smtp.emails.length;
    const preview = (
      await owner.get('/api/settings/referral-nudges/preview?kind=invite&visits=5').expect(200)
    ).body as ReferralNudgePreview;
    expect(preview.memberName).toBe('Ana-Sofía Pérez');
    expect(preview.subject).toBe("Know someone who'd like Ballsbridge Barbell?");
    expect(preview.text.replace(/\s+/g, ' ')).toContain(
      "You've been to Ballsbridge Barbell 5 times now.",
    );
    expect(smtp.emails.length).toBe(before);
  });

  it('invites once, only members Mindbody counts 5 visits for, never the unsubscribed; asks each member at most once a day', async () => {
    const before = requests(sandbox, VISITS);
    expect((await run()).invite).toBe(0); // still off: Mindbody is not asked either
    expect(requests(sandbox, VISITS)).toBe(before);
    expect(
      await owner.put('/api/settings/referral-nudges').send(AFTER_5_VISITS).expect(200),
    ).toMatchObject({ body: { ...AFTER_5_VISITS, visitsAvailable: true } });

    expect((await run()).invite).toBe(1);
    const asked = requests(sandbox, VISITS);
    expect(asked).toBeGreaterThanOrEqual(2); // Siobhán and Ana-Sofía (Kenji is unsubscribed)
    expect(invitesTo('siobhan.visits@example.ie')).toHaveLength(1);
    expect(invitesTo('ana.visits@example.es')).toEqual([]); // 4 visits: missed and late-cancelled do not count
    expect(invitesTo('kenji.visits@example.jp')).toEqual([]);
    const body = (invitesTo('siobhan.visits@example.ie')[0]?.text ?? '').replace(/\s+/g, ' ');
    expect(body).toContain("You've been to Ballsbridge Barbell 5 times now.");
    expect(body).toMatch(/\/api\/member-emails\/unsubscribe\/[\w-]{43}/);

    // The next hour: nobody is asked again within a day, nobody invited twice.
    expect((await run()).invite).toBe(0);
    expect(requests(sandbox, VISITS)).toBe(asked);

    // Ana-Sofía comes a fifth time; a day later the run asks her again and invites her, once.
    sandbox.control.recordVisit(clients.get('ana.visits@example.es') ?? '', {
      StartDateTime: '2026-09-01T07:00:00Z',
    });
    const tomorrow = new Date(Date.now() + 25 * 3_600_000);
    expect((await run(tomorrow)).invite).toBe(1);
    expect((await run(tomorrow)).invite).toBe(0);
    expect(invitesTo('ana.visits@example.es')).toHaveLength(1);
    expect(invitesTo('siobhan.visits@example.ie')).toHaveLength(1);
    expect(invitesTo('kenji.visits@example.jp')).toEqual([]);
  });

  it("tenant isolation: another business's settings are its own, and its members are never asked about", async () => {
    await other
      .put('/api/settings/referral-nudges')
      .send({ inviteAfterDays: 60, reminderAfterDays: null, monthlySummary: false })
      .expect(200);
    expect(await settings(owner)).toMatchObject(AFTER_5_VISITS);
    const [checked] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM referral_nudge_visit_checks WHERE business_id <> $1`,
      [businessId],
    )) as { n: number }[];
    expect(checked.n).toBe(0);
    // The other business's preview after visits has no Mindbody member to show.
    await other.get('/api/settings/referral-nudges/preview?kind=invite&visits=5').expect(404);
  });
});
