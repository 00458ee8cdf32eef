import type TestAgent from 'supertest/lib/agent';
import {
  REFERRAL_NUDGE_MESSAGES,
  REFERRAL_NUDGES_OFF,
  type MemberRow,
  type ReferralNudgePreview,
  type ReferralNudgeSettings,
} from '@grove/contracts';
import { recipient as to, type ParsedMail, type SmtpCatcher } from '@grove/testing-smtp';
import { treeBody, type TestApp } from '../../../../test/test-app';
import { createMailTestApp, memberEmailsSettled } from '../../../../test/member-mail';
import { ReferralNudgesService } from './referral-nudges.service';

/**
 * Asked at the right moment (issue 33 item 5) through a real SMTP server: the owner's settings
 * and previews, and the scheduled run (called directly, twice where it matters) sending the
 * invitation, the reminder and the monthly summary once each, never to an unsubscribed, managed
 * or capped member, never across businesses.
 */
/** The settings reply's visit fields at a business without Mindbody. */
const NO_VISITS = { visitsAvailable: false, visitChecksPerWeek: 0, mindbodyMembers: 0 };

describe('referral nudges (integration, real SMTP server)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  let owner: TestAgent;
  let other: TestAgent;
  let nudges: ReferralNudgesService;

  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp());
    owner = (await t.signUp({ businessName: "Siobhán's Strength Club" })).agent;
    other = (await t.signUp({ businessName: 'Harbour Yoga' })).agent;
    nudges = t.app.get(ReferralNudgesService);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const INVITE_30: ReferralNudgeSettings = {
    inviteAfterDays: 30,
    reminderAfterDays: null,
    monthlySummary: false,
  };
  /** A member of `agent`'s business who joined `days` ago (cents as `treeBody`). */
  const member = async (
    agent: TestAgent,
    name: string,
    email: string,
    days: number,
    extra: { price?: number; discount?: number; referringMemberId?: string } = {},
  ): Promise<MemberRow> => {
    const row = (
      await agent
        .post('/api/members')
        .send({
          ...treeBody(name, email, extra.price, extra.discount),
          ...(extra.referringMemberId ? { referringMemberId: extra.referringMemberId } : {}),
        })
        .expect(201)
    ).body as MemberRow;
    await t.dataSource.query(
      `UPDATE members SET created_at = now() - make_interval(days => $2) WHERE id = $1`,
      [row.id, days],
    );
    return row;
  };
  const text = (mail: ParsedMail): string => (mail.text ?? '').replace(/\s+/g, ' ');
  const mailsTo = (email: string, subjectStart: string): ParsedMail[] =>
    smtp.emails.filter((mail) => to(mail) === email && mail.subject?.startsWith(subjectStart));
  const run = async () => {
    const sent = await nudges.runAll(new Date());
    await memberEmailsSettled(t);
    return sent;
  };

  it('settings: every nudge off by default; 401 without a session', async () => {
    expect((await owner.get('/api/settings/referral-nudges').expect(200)).body).toEqual({
      ...REFERRAL_NUDGES_OFF,
      ...NO_VISITS,
    });
    await t.agent().get('/api/settings/referral-nudges').expect(401);
    await t.agent().put('/api/settings/referral-nudges').send(INVITE_30).expect(401);
    await t.agent().get('/api/settings/referral-nudges/preview?kind=invite').expect(401);
  });

  it('settings: bad bodies are a 400 with the rule’s message and change nothing', async () => {
    const cases: [object, string][] = [
      [{ ...INVITE_30, inviteAfterDays: 6 }, REFERRAL_NUDGE_MESSAGES.inviteDays],
      [{ ...INVITE_30, inviteAfterDays: 366 }, REFERRAL_NUDGE_MESSAGES.inviteDays],
      [{ ...INVITE_30, inviteAfterDays: 30.5 }, REFERRAL_NUDGE_MESSAGES.inviteDays],
      [{ ...INVITE_30, inviteAfterDays: '30' }, REFERRAL_NUDGE_MESSAGES.inviteDays],
      [{ reminderAfterDays: null, monthlySummary: true }, REFERRAL_NUDGE_MESSAGES.inviteDays],
      [{ ...INVITE_30, reminderAfterDays: 2 }, REFERRAL_NUDGE_MESSAGES.reminderDays],
      [
        { ...INVITE_30, inviteAfterDays: null, reminderAfterDays: 14 },
        REFERRAL_NUDGE_MESSAGES.reminderNeedsInvite,
      ],
      [{ ...INVITE_30, monthlySummary: 'yes' }, REFERRAL_NUDGE_MESSAGES.monthlySummary],
      [{ ...INVITE_30, extra: 1 }, 'should not exist'],
    ];
    for (const [body, message] of cases) {
      const reply = await owner.put('/api/settings/referral-nudges').send(body).expect(400);
      expect(JSON.stringify(reply.body)).toContain(message);
    }
    expect((await owner.get('/api/settings/referral-nudges').expect(200)).body).toEqual({
      ...REFERRAL_NUDGES_OFF,
      ...NO_VISITS,
    });
  });

  it('preview: 404 with no member to show it for, 400 for an unknown kind; nothing is sent', async () => {
    const reply = await owner.get('/api/settings/referral-nudges/preview?kind=invite').expect(404);
    expect(reply.body.message).toBe(REFERRAL_NUDGE_MESSAGES.noExample);
    for (const query of ['?kind=everything', '', '?kind='])
      expect(
        JSON.stringify(
          (await owner.get(`/api/settings/referral-nudges/preview${query}`).expect(400)).body,
        ),
      ).toContain(REFERRAL_NUDGE_MESSAGES.kind);
  });

  it("tenant isolation: another business's settings and previews are its own", async () => {
    await member(other, 'Zoë D’Arcy-Nguyễn', 'zoe@example.com', 3);
    const saved = { inviteAfterDays: 60, reminderAfterDays: 7, monthlySummary: true };
    expect((await other.put('/api/settings/referral-nudges').send(saved).expect(200)).body).toEqual(
      { ...saved, inviteAfterVisits: null, ...NO_VISITS },
    );
    expect((await owner.get('/api/settings/referral-nudges').expect(200)).body).toEqual({
      ...REFERRAL_NUDGES_OFF,
      ...NO_VISITS,
    });
    // The owner's business has no member: their preview never shows the other gym's Zoë.
    await owner.get('/api/settings/referral-nudges/preview?kind=summary').expect(404);
    const theirs = (
      await other.get('/api/settings/referral-nudges/preview?kind=invite').expect(200)
    ).body as ReferralNudgePreview;
    expect(theirs.memberName).toBe('Zoë D’Arcy-Nguyễn');
    expect(theirs.subject).toBe("Know someone who'd like Harbour Yoga?");
    await other.put('/api/settings/referral-nudges').send(REFERRAL_NUDGES_OFF).expect(200);
  });

  it('the 30-day invitation goes out once, to members past 30 days only, with their link and an unsubscribe link', async () => {
    const siobhan = await member(owner, "Siobhán O'Brien", 'siobhan@example.ie', 31);
    await member(owner, 'Ana-Sofía Pérez', 'ana.sofia@example.es', 10);
    const managed = await member(owner, 'Kenji Watanabe', 'kenji@example.jp', 90);
    await t.dataSource.query(`UPDATE members SET mindbody_client_id = 'mb-7' WHERE id = $1`, [
      managed.id,
    ]);
    // Another business's old member: its invitation is off.
    await member(other, 'Ngozi Okafor', 'ngozi@example.ng', 400);

    const preview = (
      await owner.get('/api/settings/referral-nudges/preview?kind=invite').expect(200)
    ).body as ReferralNudgePreview;
    expect(preview.subject).toBe("Know someone who'd like Siobhán's Strength Club?");
    const before = smtp.emails.length;
    expect((await run()).invite).toBe(0); // still off: the preview sent nothing either
    expect(smtp.emails.length).toBe(before);

    await owner.put('/api/settings/referral-nudges').send(INVITE_30).expect(200);
    expect((await run()).invite).toBe(1);
    expect((await run()).invite).toBe(0);
    await Promise.all([nudges.runAll(new Date()), nudges.runAll(new Date())]); // two replicas
    await memberEmailsSettled(t);

    const invites = smtp.emails.filter((mail) => mail.subject?.startsWith('Know someone'));
    expect(invites.map(to)).toEqual(['siobhan@example.ie']);
    const body = text(invites[0] as ParsedMail);
    expect(body).toContain("You've been with Siobhán's Strength Club for 31 days.");
    expect(body).toContain('lowers your price by $15.00 a month');
    const [{ code }] = (await t.dataSource.query(
      `SELECT code FROM referral_links WHERE member_id = $1 AND revoked_at IS NULL`,
      [siobhan.id],
    )) as { code: string }[];
    expect(body).toContain(`https://grove.example.com/referral/${code}`);
    expect(body).toMatch(
      /https:\/\/grove\.example\.com\/api\/member-emails\/unsubscribe\/[\w-]{43}/,
    );
    const oneClick = invites[0]?.headerLines.find((line) => line.key === 'list-unsubscribe');
    expect(oneClick?.line).toMatch(/unsubscribe\/[\w-]{43}>/);
  });

  it('an unsubscribed member gets no nudge: the invitation’s unsubscribe link stops the monthly summary', async () => {
    const [siobhan] = (await t.dataSource.query(
      `SELECT id FROM members WHERE email = 'siobhan@example.ie'`,
    )) as { id: string }[];
    await member(owner, 'Liam Byrne', 'liam@example.ie', 5, { referringMemberId: siobhan?.id });
    const invite = smtp.emails.find((mail) => to(mail) === 'siobhan@example.ie');
    const token = /unsubscribe\/([\w-]{43})/.exec(text(invite as ParsedMail))?.[1];
    await t.agent().post(`/api/member-emails/unsubscribe/${token}`).expect(200);
    await owner
      .put('/api/settings/referral-nudges')
      .send({ ...INVITE_30, monthlySummary: true })
      .expect(200);
    expect((await run()).summary).toBe(0);
    expect(mailsTo('siobhan@example.ie', 'You saved')).toEqual([]);
  });

  it('the monthly summary: a referrer with 2 counting branches saved $25.00, one more friend → $42.50; once a month', async () => {
    const grace = await member(owner, 'Grace Mwangi', 'grace@example.ke', 60, {
      price: 8000,
      discount: 1250,
    });
    // The invitation first (she is past 30 days), so the summary comes in a later run: the cap
    // allows both this month.
    await run();
    for (const [name, email] of [
      ['Tomás Ó Súilleabháin', 'tomas@example.ie'],
      ['Priya Raman', 'priya@example.in'],
    ])
      await member(owner, name, email, 2, { referringMemberId: grace.id });
    expect((await run()).summary).toBe(1);
    expect((await run()).summary).toBe(0);
    const summaries = mailsTo('grace@example.ke', 'You saved');
    expect(summaries.map((mail) => mail.subject)).toEqual(['You saved $25.00 this month']);
    const body = text(summaries[0] as ParsedMail);
    expect(body).toContain('Thanks to 2 friends you brought to');
    expect(body).toContain('you saved $25.00 this month. You pay $55.00 a month.');
    expect(body).toContain('One more friend → $42.50 a month.');
    // The branches (joined 2 days ago) have no invitation; nobody without a branch got a summary.
    expect(smtp.emails.filter((mail) => mail.subject?.startsWith('You saved')).map(to)).toEqual([
      'grace@example.ke',
    ]);
  });

  it('the cap: a member with 2 nudges this month gets no third', async () => {
    const rosa = await member(owner, 'Rosa Delgado', 'rosa@example.mx', 45);
    const aoife = await member(owner, 'Aoife Kelly', 'aoife@example.ie', 45);
    const [{ business_id: businessId }] = (await t.dataSource.query(
      `SELECT business_id FROM members WHERE id = $1`,
      [rosa.id],
    )) as { business_id: string }[];
    await t.dataSource.query(
      `INSERT INTO referral_nudges (business_id, member_id, kind, period)
       VALUES ($1, $2, 'reminder', 'once'), ($1, $2, 'summary', 'test-period')`,
      [businessId, rosa.id],
    );
    await run();
    expect(mailsTo('rosa@example.mx', 'Know someone')).toEqual([]);
    expect(mailsTo('aoife@example.ie', 'Know someone')).toHaveLength(1);
    expect(aoife.id).not.toBe(rosa.id);
  });

  it('the reminder: once, M days after the invitation, only to a member who opened neither their page nor their link', async () => {
    await owner
      .put('/api/settings/referral-nudges')
      .send({ inviteAfterDays: 30, reminderAfterDays: 14, monthlySummary: false })
      .expect(200);
    // Aoife and Ana-Sofía's invitation "15 days ago" (Ana-Sofía is now past 30 days too).
    await t.dataSource.query(
      `UPDATE members SET created_at = now() - interval '50 days' WHERE email = 'ana.sofia@example.es'`,
    );
    await run();
    await t.dataSource.query(
      `UPDATE referral_nudges SET sent_at = now() - interval '15 days'
        WHERE kind = 'invite' AND member_id IN (SELECT id FROM members WHERE email IN ('aoife@example.ie', 'ana.sofia@example.es'))`,
    );
    // Ana-Sofía opened her member page since.
    await t.dataSource.query(
      `INSERT INTO member_page_opens (business_id, member_id, client_digest)
       SELECT business_id, id, '\\x01' FROM members WHERE email = 'ana.sofia@example.es'`,
    );
    await run();
    await run();
    expect(mailsTo('aoife@example.ie', 'Your referral link is waiting')).toHaveLength(1);
    expect(mailsTo('ana.sofia@example.es', 'Your referral link is waiting')).toEqual([]);
    expect(mailsTo('ana.sofia@example.es', 'Know someone')).toHaveLength(1);
  });
});
