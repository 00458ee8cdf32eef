import type TestAgent from 'supertest/lib/agent';
import {
  BRANCH_SETTINGS_DAYS_INVALID,
  BRANCH_SETTINGS_RULE_INVALID,
  type MemberPage,
  type MemberRow,
  type Page,
  type ProspectRow,
  type ReferralLink,
} from '@grove/contracts';
import { treeBody, type TestApp } from '../../../../test/test-app';
import { createMailTestApp, memberEmailsSettled, receivedWith } from '../../../../test/member-mail';
import { ledgerOf, expectLedgersChained } from '../../../../test/lifecycle-facts';
import { recipient as to, type ParsedMail, type SmtpCatcher } from '@grove/testing-smtp';
import { waitFor } from '../../../../test/stub-servers';
import { jobScope, type BusinessScope } from '../../platform/database/business-scope';
import { JOBS_SCHEMA } from '../../platform/jobs/jobs-schema';
import { JobsService } from '../../platform/jobs/jobs.service';
import { MEMBER_EMAIL_QUEUE } from '../../member/member-emails/member-emails.service';
import {
  BRANCH_REFRESH_CRON,
  BRANCH_REFRESH_QUEUE,
  BranchQualificationService,
} from './branch-qualification.service';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The first millisecond at which a member created at `createdAt` has been one for 30 days (the
 * database keeps microseconds, a Date milliseconds: one more makes it due, not a hair early).
 */
const dueAfter30Days = (createdAt: Date): Date => new Date(createdAt.getTime() + 30 * DAY_MS + 1);

/**
 * When a branch counts (docs/product.md#branch-qualification), on the real database and a real
 * SMTP server: each rule, the fake clock of `refresh(scope, now)`, the ledger lines and emails of
 * a branch that starts counting, lapses (Mindbody ended or suspended) or is removed, and the
 * settings route.
 */
describe('branch qualification (integration, real SMTP server)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  let owner: TestAgent;
  let other: TestAgent;
  let businessId: string;
  let scope: BusinessScope;
  let otherScope: BusinessScope;
  let branches: BranchQualificationService;

  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp({
      THROTTLE_REFERRAL_LIMIT: '10000',
      THROTTLE_MEMBER_LINK_LIMIT: '1000',
    }));
    const signedUp = await t.signUp({ businessName: 'Peak Fitness' });
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
    scope = jobScope({ businessId });
    const second = await t.signUp({ businessName: 'Other Gym' });
    other = second.agent;
    otherScope = jobScope({ businessId: second.user.business.id });
    branches = t.app.get(BranchQualificationService);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const addTree = async (name: string, email: string): Promise<MemberRow> =>
    (await owner.post('/api/members').send(treeBody(name, email)).expect(201)).body as MemberRow;
  const addBranch = async (treeId: string, name: string, email: string): Promise<MemberRow> =>
    (
      await owner
        .post(`/api/members/${treeId}/branches`)
        .send({
          memberName: name,
          memberEmail: email,
          membershipPriceCents: 8000,
          discountCents: 1000,
        })
        .expect(201)
    ).body as MemberRow;
  const row = async (id: string): Promise<MemberRow> =>
    (await owner.get(`/api/members/${id}`).expect(200)).body as MemberRow;
  const createdAt = async (id: string): Promise<Date> => {
    const [found] = (await t.dataSource.query(`SELECT created_at FROM members WHERE id = $1`, [
      id,
    ])) as { created_at: Date }[];
    return found.created_at;
  };
  const setMindbody = (id: string, column: 'suspended' | 'cancelled', on: boolean) =>
    t.dataSource.query(
      `UPDATE members SET mindbody_${column}_at = ${on ? 'now()' : 'NULL'} WHERE id = $1`,
      [id],
    );
  const reasons = async (memberId: string): Promise<string[]> =>
    (await ledgerOf(t, businessId, memberId)).map(
      (line) => `${line.reason} ${line.old_price_cents ?? '-'}→${line.new_price_cents}`,
    );
  const settled = () => memberEmailsSettled(t);
  const received = (subject: string): ParsedMail[] => receivedWith(smtp, subject);
  const setRule = (body: object) => owner.put('/api/settings/branches').send(body).expect(200);
  /** Signed-in member browsers by member id (a member is emailed their link once an hour). */
  const memberBrowsers = new Map<string, TestAgent>();
  /** The member page of member `id` as that member sees it (magic link through the SMTP server). */
  const memberPage = async (id: string, email: string): Promise<MemberPage> => {
    let member = memberBrowsers.get(id);
    if (!member) {
      await owner.post(`/api/members/${id}/referral-link`).send({}).expect(201);
      const before = smtp.emails.length;
      await owner.post(`/api/members/${id}/referral-link/email`).expect(202);
      const mail = await waitFor(async () =>
        smtp.emails.slice(before).find((item) => to(item) === email),
      );
      const token = /\/member#token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
      member = t.agent();
      await member.post('/api/member/session').send({ token }).expect(204);
      memberBrowsers.set(id, member);
    }
    return (await member.get('/api/member/me').expect(200)).body as MemberPage;
  };

  describe('GET/PUT /api/settings/branches', () => {
    it('approval by default; 401 without a session', async () => {
      expect((await owner.get('/api/settings/branches').expect(200)).body).toEqual({
        rule: 'approval',
        days: null,
      });
      await t.agent().get('/api/settings/branches').expect(401);
      await t.agent().put('/api/settings/branches').send({ rule: 'approval' }).expect(401);
    });

    it('bad bodies are a 400 with the message and change nothing', async () => {
      const cases: [object, string][] = [
        [{}, BRANCH_SETTINGS_RULE_INVALID],
        [{ rule: 'weekly' }, BRANCH_SETTINGS_RULE_INVALID],
        [{ rule: 'days' }, BRANCH_SETTINGS_DAYS_INVALID],
        [{ rule: 'days', days: 0 }, BRANCH_SETTINGS_DAYS_INVALID],
        [{ rule: 'days', days: 366 }, BRANCH_SETTINGS_DAYS_INVALID],
        [{ rule: 'days', days: 1.5 }, BRANCH_SETTINGS_DAYS_INVALID],
        [{ rule: 'days', days: '30' }, BRANCH_SETTINGS_DAYS_INVALID],
        [{ rule: 'approval', extra: true }, 'should not exist'],
      ];
      for (const [body, message] of cases) {
        const reply = await owner.put('/api/settings/branches').send(body).expect(400);
        expect(JSON.stringify(reply.body)).toContain(message);
      }
      expect((await owner.get('/api/settings/branches').expect(200)).body).toEqual({
        rule: 'approval',
        days: null,
      });
    });

    it("tenant isolation: another business's owner changes only their own rule", async () => {
      expect(
        (await other.put('/api/settings/branches').send({ rule: 'days', days: 30 }).expect(200))
          .body,
      ).toEqual({ rule: 'days', days: 30 });
      expect((await other.get('/api/settings/branches').expect(200)).body).toEqual({
        rule: 'days',
        days: 30,
      });
      expect((await owner.get('/api/settings/branches').expect(200)).body).toEqual({
        rule: 'approval',
        days: null,
      });
      // Days are kept only under the days rule.
      expect(
        (await other.put('/api/settings/branches').send({ rule: 'first_payment', days: 9 })).body,
      ).toEqual({ rule: 'first_payment', days: null });
    });
  });

  it('approval rule: an approved friend counts at once: price drops, one ledger line, one email', async () => {
    const ana = await addTree('Ana Ruiz', 'ana@example.com');
    const { code } = (await owner.post(`/api/members/${ana.id}/referral-link`).expect(201))
      .body as ReferralLink;
    await t
      .agent()
      .post(`/api/referrals/${code}/join`)
      .send({ name: 'Sam Stone', email: 'sam@example.com' })
      .expect(201);
    const prospects = (await owner.get('/api/prospects').expect(200)).body as Page<ProspectRow>;
    const prospect = prospects.items.find((item) => item.email === 'sam@example.com');
    const sam = (
      await owner
        .post(`/api/prospects/${prospect?.id}/approve`)
        .send(treeBody('Sam Stone', 'sam@example.com', 8000, 1000))
        .expect(201)
    ).body as MemberRow;
    expect(sam.status).toBe('Active');
    const after = await row(ana.id);
    expect([after.branches, after.newPriceCents, after.branchDetails[0]?.status]).toEqual([
      1,
      8_500,
      'Active',
    ]);
    expect(await reasons(ana.id)).toEqual(['member_added -→10000', 'branch_added 10000→8500']);
    expect((await branches.refresh(scope)).started).toEqual([]);
    await settled();
    expect(received('Sam Stone is now your branch: your price is now $85.00').map(to)).toEqual([
      'ana@example.com',
    ]);
  });

  it('the refresh job is scheduled every hour in pg-boss', async () => {
    expect(
      await t.dataSource.query(`SELECT name, cron FROM ${JOBS_SCHEMA}.schedule WHERE name = $1`, [
        BRANCH_REFRESH_QUEUE,
      ]),
    ).toEqual([{ name: BRANCH_REFRESH_QUEUE, cron: BRANCH_REFRESH_CRON }]);
  });

  describe('days rule (fake clock)', () => {
    let bea: MemberRow;
    let cal: MemberRow;
    let due: Date;

    beforeAll(async () => {
      await setRule({ rule: 'days', days: 30 });
      bea = await addTree('Bea Bell', 'bea@example.com');
      cal = await addBranch(bea.id, 'Cal Cole', 'cal@example.com');
      due = dueAfter30Days(await createdAt(cal.id));
    });

    it('a new branch is pending: Branches says Pending, the price stays, the member page says pending', async () => {
      expect(cal.status).toBe('Pending');
      const tree = await row(bea.id);
      expect([tree.branches, tree.newPriceCents, tree.status]).toEqual([0, 10_000, 'Active']);
      expect(tree.branchDetails.map((detail) => [detail.branchName, detail.status])).toEqual([
        ['Cal Cole', 'Pending'],
      ]);
      expect(await reasons(bea.id)).toEqual(['member_added -→10000']);
      const page = await memberPage(bea.id, 'bea@example.com');
      expect(page.priceNowCents).toBe(10_000);
      expect(page.branches.map((branch) => [branch.firstName, branch.status])).toEqual([
        ['Cal', 'pending'],
      ]);
    });

    it('one second before N days nothing changes; at N days it counts: price drops, one ledger line, one email; again changes nothing', async () => {
      // Another business's refresh never touches this one's branches.
      expect((await branches.refresh(otherScope, due)).started).toEqual([]);
      expect((await row(bea.id)).branches).toBe(0);
      const early = await branches.refresh(scope, new Date(due.getTime() - 1000));
      expect(early).toEqual({ started: [], lapsed: [], resumed: [] });
      expect((await row(bea.id)).newPriceCents).toBe(10_000);

      // The hourly job's pass: only businesses with a due branch, this one among them.
      expect(await branches.refreshAll(due)).toBeGreaterThanOrEqual(1);
      const tree = await row(bea.id);
      expect([tree.branches, tree.newPriceCents, tree.branchDetails[0]?.status]).toEqual([
        1,
        8_500,
        'Active',
      ]);
      expect((await row(cal.id)).status).toBe('Active');
      const [since] = (await t.dataSource.query(
        `SELECT branch_counting_since FROM members WHERE id = $1`,
        [cal.id],
      )) as { branch_counting_since: Date }[];
      // Counting since the moment it qualified (created_at + 30 days), not since the refresh ran.
      expect(due.getTime() - since.branch_counting_since.getTime()).toBeLessThanOrEqual(1);
      expect(due.getTime() - since.branch_counting_since.getTime()).toBeGreaterThanOrEqual(0);
      expect(await reasons(bea.id)).toEqual(['member_added -→10000', 'branch_counting 10000→8500']);
      expect((await ledgerOf(t, businessId, bea.id))[1]?.branch_id).toBe(cal.id);

      expect(await branches.refresh(scope, new Date(due.getTime() + DAY_MS))).toEqual({
        started: [],
        lapsed: [],
        resumed: [],
      });
      expect(await reasons(bea.id)).toHaveLength(2);
      await settled();
      const counting = received('Cal Cole is now your branch: your price is now $85.00');
      expect(counting.map(to)).toEqual(['bea@example.com']);
      expect((counting[0]?.text ?? '').replace(/\s+/g, ' ')).toContain(
        'Your price is now $85.00 a month (it was $100.00).',
      );
      const page = await memberPage(bea.id, 'bea@example.com');
      expect(page.branches.map((branch) => branch.status)).toEqual(['counting']);
      expect(page.priceNowCents).toBe(8_500);
    });

    it('a Mindbody-suspended branch stops counting: price returns, branch_lapsed, the ended email once; lifted, it counts again; ended, it lapses again', async () => {
      await setMindbody(cal.id, 'suspended', true);
      expect((await row(bea.id)).branchDetails[0]?.status).toBe('Suspended');
      const lapsed = await branches.refresh(scope);
      expect(lapsed.lapsed.map((change) => change.branchId)).toEqual([cal.id]);
      expect((await row(bea.id)).newPriceCents).toBe(10_000);
      expect((await reasons(bea.id)).slice(2)).toEqual(['branch_lapsed 8500→10000']);
      expect((await branches.refresh(scope)).lapsed).toEqual([]);

      await setMindbody(cal.id, 'suspended', false);
      const resumed = await branches.refresh(scope);
      expect(resumed.resumed.map((change) => change.branchId)).toEqual([cal.id]);
      expect((await row(bea.id)).newPriceCents).toBe(8_500);
      expect((await reasons(bea.id)).slice(3)).toEqual(['branch_counting 10000→8500']);

      await setMindbody(cal.id, 'cancelled', true);
      expect((await row(cal.id)).status).toBe('Ended');
      expect((await branches.refresh(scope)).lapsed.map((change) => change.branchId)).toEqual([
        cal.id,
      ]);
      expect((await reasons(bea.id)).slice(4)).toEqual(['branch_lapsed 8500→10000']);
      const page = await memberPage(bea.id, 'bea@example.com');
      expect(page.branches.map((branch) => branch.status)).toEqual(['ended']);
      await settled();
      expect(
        received('Cal Cole’s membership ended: your price is back to $100.00').map(to),
      ).toEqual(['bea@example.com']);
      // Counting again after a lapse is not announced twice.
      expect(received('Cal Cole is now your branch: your price is now $85.00')).toHaveLength(1);
      await expectLedgersChained(t, businessId);
    });

    it('the owner removes a counting branch: the price returns with a ledger line and the email; a pending one moves nothing', async () => {
      const dee = await addBranch(bea.id, 'Dee Diaz', 'dee@example.com');
      const deeDue = dueAfter30Days(await createdAt(dee.id));
      await branches.refresh(scope, deeDue);
      expect((await row(bea.id)).newPriceCents).toBe(8_500);
      await owner.delete(`/api/members/${bea.id}/branches/${dee.id}`).expect(204);
      expect((await row(bea.id)).newPriceCents).toBe(10_000);
      expect((await reasons(bea.id)).slice(-2)).toEqual([
        'branch_counting 10000→8500',
        'branch_removed 8500→10000',
      ]);
      const [detached] = (await t.dataSource.query(
        `SELECT referred_by_id, branch_counting_since FROM members WHERE id = $1`,
        [dee.id],
      )) as { referred_by_id: string | null; branch_counting_since: Date | null }[];
      expect(detached).toEqual({ referred_by_id: null, branch_counting_since: null });

      const eli = await addBranch(bea.id, 'Eli Evans', 'eli@example.com');
      const lines = (await reasons(bea.id)).length;
      await owner.delete(`/api/members/${bea.id}/branches/${eli.id}`).expect(204);
      expect(await reasons(bea.id)).toHaveLength(lines);
      await settled();
      // An owner's removal says what happened (issue 25): no membership ended.
      expect(
        received('Dee Diaz no longer counts as your branch: your price is back to $100.00'),
      ).toHaveLength(1);
      expect(received('Dee Diaz’s membership ended: your price is back to $100.00')).toEqual([]);
      expect(smtp.emails.filter((mail) => mail.subject?.startsWith('Eli Evans'))).toEqual([]);
    });

    it('changing the rule applies to pending branches only: approval starts them now', async () => {
      const fay = await addBranch(bea.id, 'Fay Ford', 'fay@example.com');
      expect(fay.status).toBe('Pending');
      await setRule({ rule: 'approval' });
      const tree = await row(bea.id);
      expect(tree.branchDetails.find((detail) => detail.id === fay.id)?.status).toBe('Active');
      expect(tree.newPriceCents).toBe(8_500);
      expect((await reasons(bea.id)).slice(-1)).toEqual(['branch_counting 10000→8500']);
      // Under the first-payment rule a friend added by hand counts at approval (Grove cannot see
      // their payments); a branch already counting stays counting whatever the rule.
      await setRule({ rule: 'first_payment' });
      const gus = await addBranch(bea.id, 'Gus Gray', 'gus@example.com');
      expect(gus.status).toBe('Active');
      await setRule({ rule: 'days', days: 365 });
      expect((await row(bea.id)).branches).toBe(2);
      await setRule({ rule: 'approval' });
    });

    it('first payment rule: a Mindbody friend waits for its first paid autopay or sale, then counts since it', async () => {
      await setRule({ rule: 'first_payment' });
      const [hal] = (await t.dataSource.query(
        `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents,
           referred_by_id, mindbody_client_id)
         VALUES ($1, 'Hal Hart', 'hal@example.com', 'hal@examplecom', 8000, 0, $2, '100077')
         RETURNING id, branch_counting_since AS since`,
        [businessId, bea.id],
      )) as { id: string; since: Date | null }[];
      expect(hal.since).toBeNull();
      expect((await row(hal.id)).status).toBe('Pending');
      expect((await branches.refresh(scope)).started).toEqual([]);
      const paidAt = new Date(Date.now() - 60_000);
      await t.dataSource.query(`UPDATE members SET mindbody_first_paid_at = $2 WHERE id = $1`, [
        hal.id,
        paidAt,
      ]);
      const before = (await row(bea.id)).newPriceCents;
      expect((await branches.refresh(scope)).started.map((change) => change.branchId)).toEqual([
        hal.id,
      ]);
      expect((await row(bea.id)).newPriceCents).toBe(before - 1_500);
      expect((await row(hal.id)).status).toBe('Active');
      const [since] = (await t.dataSource.query(
        `SELECT branch_counting_since FROM members WHERE id = $1`,
        [hal.id],
      )) as { branch_counting_since: Date }[];
      expect(since.branch_counting_since.toISOString()).toBe(paidAt.toISOString());
      await setRule({ rule: 'approval' });
      await expectLedgersChained(t, businessId);
    });
  });

  it('a refresh whose email cannot be queued changes nothing; the next one makes the branch count and emails once (issue 31 item 4)', async () => {
    await setRule({ rule: 'days', days: 30 });
    const tree = await addTree("Siobhán O'Brien", 'siobhan@example.ie');
    const branch = await addBranch(tree.id, 'Ana-Sofía Ruiz', 'ana.sofia@example.es');
    const at = dueAfter30Days(await createdAt(branch.id));
    // The email is queued in the refresh's transaction: when queueing fails, the change rolls
    // back with it (as a crash before the commit would), rather than counting without the email.
    const jobs = t.app.get(JobsService);
    const send = jobs.send.bind(jobs);
    const spy = jest
      .spyOn(jobs, 'send')
      .mockImplementation((name, data, options) =>
        name === MEMBER_EMAIL_QUEUE
          ? Promise.reject(new Error('the jobs table did not answer'))
          : send(name, data, options),
      );
    await expect(branches.refresh(scope, at)).rejects.toThrow('the jobs table did not answer');
    spy.mockRestore();
    expect((await row(branch.id)).status).toBe('Pending');
    expect((await row(tree.id)).newPriceCents).toBe(10_000);

    expect((await branches.refresh(scope, at)).started.map((change) => change.branchId)).toEqual([
      branch.id,
    ]);
    expect((await row(tree.id)).newPriceCents).toBe(8_500);
    await settled();
    const counting = received('Ana-Sofía Ruiz is now your branch: your price is now $85.00');
    expect(counting.map(to)).toEqual(['siobhan@example.ie']);
    await setRule({ rule: 'approval' });
  });
});
