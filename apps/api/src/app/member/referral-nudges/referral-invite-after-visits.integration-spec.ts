import type TestAgent from 'supertest/lib/agent';
import {
  MindbodyClient,
  MindbodyRequestError,
  type GetClientVisitsParams,
} from '@grove/api-mindbody';
import {
  DEFAULT_REFERRER_REWARD,
  REFERRAL_NUDGE_MESSAGES,
  type ReferralNudgePreview,
  type ReferralNudgeSettingsReply,
} from '@grove/contracts';
import { recipient as to, type ParsedMail, type SmtpCatcher } from '@grove/testing-smtp';
import { treeBody, type TestApp } from '../../../../test/test-app';
import { createMailTestApp, memberEmailsSettled } from '../../../../test/member-mail';
import {
  membershipEnded,
  reachStageFour,
  requests,
  sandboxEnv,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../test/mindbody-sandbox';
import { jobScope } from '../../platform/database/business-scope';
import { ReferralNudgesRepository } from './referral-nudges.repository';
import { ReferralNudgesService } from './referral-nudges.service';

jest.setTimeout(180_000);

const VISITS = '/public/v6/client/clientvisits';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
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
 * most once a week and then only for the visits since its last check, added to its stored count;
 * the cost shown beside the setting; another business untouched.
 */
describe('referral invitation after the Nth visit (integration, Mindbody sandbox + SMTP)', () => {
  let sandbox: RunningSandbox;
  let smtp: SmtpCatcher;
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let businessId: string;
  let otherBusinessId: string;
  let nudges: ReferralNudgesService;
  const clients = new Map<string, string>();

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 5 });
    ({ t, smtp } = await createMailTestApp(sandboxEnv(sandbox)));
    const signed = await t.signUp({ businessName: 'Ballsbridge Barbell' });
    owner = signed.agent;
    businessId = signed.user.business.id;
    const harbour = await t.signUp({ businessName: 'Harbour Yoga' });
    other = harbour.agent;
    otherBusinessId = harbour.user.business.id;
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
    // The gym rewards referrers with a $25 credit; its Mindbody members' prices still follow
    // Mindbody's discount on referral, so their emails word that ($5.00 a month), as their page does.
    await owner
      .put('/api/settings/referrer-reward')
      .send({ ...DEFAULT_REFERRER_REWARD, kind: 'credit', creditCents: 2_500 })
      .expect(200);
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
  /** The gym's Mindbody members as Grove imports them (running memberships). */
  const mindbodyMemberCount = () =>
    sandbox.control.clients().filter((client) => !client.IsProspect && !membershipEnded(client))
      .length;
  /** The stored check of a member (by email): its running count and where counting stopped. */
  const check = async (email: string) =>
    (
      (await t.dataSource.query(
        `SELECT c.visits, c.counted_until, c.checked_at FROM referral_nudge_visit_checks c
           JOIN members m ON m.id = c.member_id WHERE m.email = $1`,
        [email],
      )) as { visits: number; counted_until: Date; checked_at: Date }[]
    )[0];
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
    // Not the gym's $25 credit: a Mindbody member's price follows Mindbody's discount.
    expect(preview.text.replace(/\s+/g, ' ')).toContain(
      'Each friend who joins lowers your price by $5.00 a month.',
    );
    expect(smtp.emails.length).toBe(before);
  });

  it('says what the weekly checks cost: one Mindbody call a week per member it watches, of the business’s Mindbody members', async () => {
    const mindbodyMembers = mindbodyMemberCount();
    // Every Mindbody member with a link is watched but Kenji (unsubscribed).
    expect(await settings(owner)).toMatchObject({
      visitChecksPerWeek: mindbodyMembers - 1,
      mindbodyMembers,
    });
    expect(await settings(other)).toMatchObject({ visitChecksPerWeek: 0, mindbodyMembers: 0 });
  });

  it('invites once, only members Mindbody counts 5 visits for, never the unsubscribed; asks each member once a week, then only since its last check, adding to its count', async () => {
    const sent: { clientId: string; params: GetClientVisitsParams }[] = [];
    // Mindbody refuses these clients (a 4xx, as for a client it no longer knows).
    const refused = new Set<string>();
    const original = MindbodyClient.prototype.getClientVisits;
    const spy = jest
      .spyOn(MindbodyClient.prototype, 'getClientVisits')
      .mockImplementation(function (this: MindbodyClient, clientId, params) {
        sent.push({ clientId, params });
        if (refused.has(clientId))
          return Promise.reject(new MindbodyRequestError(404, 'ClientNotFound', 'not found'));
        return original.call(this, clientId, params);
      });
    try {
      const before = requests(sandbox, VISITS);
      expect((await run()).invite).toBe(0); // still off: Mindbody is not asked either
      expect(requests(sandbox, VISITS)).toBe(before);
      expect(
        await owner.put('/api/settings/referral-nudges').send(AFTER_5_VISITS).expect(200),
      ).toMatchObject({ body: { ...AFTER_5_VISITS, visitsAvailable: true } });

      const now = new Date();
      expect((await run(now)).invite).toBe(1);
      const asked = requests(sandbox, VISITS);
      // Once each member but Kenji (unsubscribed), reading the whole history up to the run.
      expect(asked - before).toBe(mindbodyMemberCount() - 1);
      expect(sent).toHaveLength(asked - before);
      for (const { params } of sent) {
        expect(new Date(params.startDate).getUTCFullYear()).toBe(2000);
        expect(new Date(params.endDate).getTime()).toBe(now.getTime());
      }
      expect(invitesTo('siobhan.visits@example.ie')).toHaveLength(1);
      expect(invitesTo('ana.visits@example.es')).toEqual([]); // 4 visits: missed and late-cancelled do not count
      expect(invitesTo('kenji.visits@example.jp')).toEqual([]);
      const body = (invitesTo('siobhan.visits@example.ie')[0]?.text ?? '').replace(/\s+/g, ' ');
      expect(body).toContain("You've been to Ballsbridge Barbell 5 times now.");
      // Her discount per friend is the gym's Mindbody discount on referral ($5), as on her page.
      expect(body).toContain('Each friend who joins lowers your price by $5.00 a month.');
      expect(body).toMatch(/\/api\/member-emails\/unsubscribe\/[\w-]{43}/);
      const first = await check('ana.visits@example.es');
      expect(first).toMatchObject({ visits: 4 });
      expect(first.counted_until.getTime()).toBe(now.getTime() - DAY);

      // Ana-Sofía comes a fifth time, two days later.
      const ana = clients.get('ana.visits@example.es') ?? '';
      sandbox.control.recordVisit(ana, {
        StartDateTime: new Date(now.getTime() + 2 * DAY).toISOString(),
      });
      // Within the week nobody is asked again, nobody invited twice.
      for (const later of [HOUR, DAY, 6 * DAY + 23 * HOUR])
        expect((await run(new Date(now.getTime() + later))).invite).toBe(0);
      expect(requests(sandbox, VISITS)).toBe(asked);
      expect(invitesTo('ana.visits@example.es')).toEqual([]);

      // A week later Mindbody fails for her: her count and where it stopped stay as they were.
      refused.add(ana);
      sent.length = 0;
      expect((await run(new Date(now.getTime() + 7 * DAY + 60_000))).invite).toBe(0);
      expect(sent.filter(({ clientId }) => clientId === ana)).toHaveLength(1);
      expect(await check('ana.visits@example.es')).toEqual(first);
      refused.clear();

      // The next hour she is asked only from where the last check stopped counting, and 4 + 1 = 5
      // invites her, once.
      sent.length = 0;
      const nextWeek = new Date(now.getTime() + 7 * DAY + HOUR);
      expect((await run(nextWeek)).invite).toBe(1);
      const toAna = sent.filter(({ clientId }) => clientId === ana);
      expect(toAna).toHaveLength(1);
      expect(new Date(toAna[0]?.params.startDate ?? 0).getTime()).toBe(now.getTime() - DAY);
      expect(new Date(toAna[0]?.params.endDate ?? 0).getTime()).toBe(nextWeek.getTime());
      // Siobhán, invited, is never asked again.
      expect(sent.map(({ clientId }) => clientId)).not.toContain(
        clients.get('siobhan.visits@example.ie'),
      );
      expect(await check('ana.visits@example.es')).toMatchObject({ visits: 5 });
      expect((await run(new Date(nextWeek.getTime() + 8 * DAY))).invite).toBe(0);
      expect(invitesTo('ana.visits@example.es')).toHaveLength(1);
      expect(invitesTo('siobhan.visits@example.ie')).toHaveLength(1);
      expect(invitesTo('kenji.visits@example.jp')).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it("tenant isolation: another business's settings and Mindbody members are its own, and its members are never asked about", async () => {
    await other
      .put('/api/settings/referral-nudges')
      .send({ inviteAfterDays: 60, reminderAfterDays: null, monthlySummary: false })
      .expect(200);
    const mine = await settings(owner);
    expect(mine).toMatchObject(AFTER_5_VISITS);
    // The other business's preview after visits has no Mindbody member to show.
    await other.get('/api/settings/referral-nudges/preview?kind=invite&visits=5').expect(404);
    // A Mindbody member with a live link at the other business counts there, never here.
    const theirs = (
      await other
        .post('/api/members')
        .send(treeBody('Zoë Ní Bhriain', 'zoe.visits@example.ie'))
        .expect(201)
    ).body as { id: string };
    await t.dataSource.query(`UPDATE members SET mindbody_client_id = '100099' WHERE id = $1`, [
      theirs.id,
    ]);
    await other.post(`/api/members/${theirs?.id}/referral-link`).expect(201);
    expect(await settings(owner)).toEqual(mine);
    expect(
      await t.app
        .get(ReferralNudgesRepository)
        .visitCheckLoad(jobScope({ businessId: otherBusinessId })),
    ).toEqual({ checkedMembers: 1, mindbodyMembers: 1 });
    await run(new Date(Date.now() + 30 * DAY));
    const [checked] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM referral_nudge_visit_checks WHERE business_id <> $1`,
      [businessId],
    )) as { n: number }[];
    expect(checked.n).toBe(0);
  });
});
