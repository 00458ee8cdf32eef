import { randomUUID } from 'node:crypto';
import type TestAgent from 'supertest/lib/agent';
import {
  ANALYTICS_MESSAGES,
  addDays,
  utcDay,
  type FunnelReport,
  type JoinChannelsReport,
  type MoneyReport,
  type RetentionReport,
  type TopReferrersReport,
} from '@grove/contracts';
import { DEMO_LOGIN } from '../../demo-seed';
import { createTestApp, type TestApp } from '../../../../test/test-app';

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
const at = (iso: string) => new Date(iso);

/**
 * Issue 14 (analytics): figures of a fixture whose answers are worked out by hand, facts and
 * ledger lines inserted directly (as the recording flows write them), and every route scoped to
 * the session's business.
 */
describe('analytics (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;
  let other: TestAgent;
  let otherBusinessId: string;

  /** Inserts a lifecycle fact of `business`. */
  const fact = (
    business: string,
    kind: string,
    occurredAt: Date,
    ids: { member?: string; referrer?: string; link?: string; prospect?: string } = {},
  ) =>
    t.dataSource.query(
      `INSERT INTO lifecycle_facts (business_id, kind, occurred_at, member_id, referrer_id, referral_link_id, prospect_id, source, event_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'manual', $8)`,
      [
        business,
        kind,
        occurredAt,
        ids.member ?? null,
        ids.referrer ?? null,
        ids.link ?? null,
        ids.prospect ?? null,
        `${kind}:${randomUUID()}`,
      ],
    );

  /** Inserts a price-ledger line of `business` (cents). */
  const priceLine = (
    business: string,
    member: string,
    occurredAt: Date,
    reason: string,
    membershipCents: number,
    newCents: number,
  ) =>
    t.dataSource.query(
      `INSERT INTO price_changes (business_id, member_id, occurred_at, reason, new_price_cents, membership_price_cents, event_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [business, member, occurredAt, reason, newCents, membershipCents, `price:${randomUUID()}`],
    );

  const visits = (business: string, link: string, day: string, count: number) =>
    t.dataSource.query(
      `INSERT INTO join_page_visits (business_id, referral_link_id, day, visits) VALUES ($1, $2, $3, $4)`,
      [business, link, day, count],
    );

  /** A member row of `business` (for names); returns its id. */
  const member = async (business: string, name: string): Promise<string> => {
    const [row] = (await t.dataSource.query(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents)
       VALUES ($1, $2, $3, $3, 5000, 1000) RETURNING id`,
      [business, name, `${randomUUID()}@example.com`],
    )) as { id: string }[];
    return row.id;
  };

  beforeAll(async () => {
    t = await createTestApp();
    const a = await t.signUp({ businessName: 'Analytics Gym' });
    owner = a.agent;
    businessId = a.user.business.id;
    const b = await t.signUp({ businessName: 'Other Gym' });
    other = b.agent;
    otherBusinessId = b.user.business.id;
    // The other business has plenty of everything, all of it invisible to the first one.
    for (let i = 0; i < 5; i++) {
      const link = randomUUID();
      const someone = randomUUID();
      await fact(otherBusinessId, 'link_created', daysAgo(3), { member: someone, link });
      await visits(otherBusinessId, link, utcDay(daysAgo(1)), 50);
      await fact(otherBusinessId, 'prospect_joined', daysAgo(2), { link, referrer: someone });
      await fact(otherBusinessId, 'prospect_approved', daysAgo(1), { member: randomUUID() });
      await fact(otherBusinessId, 'branch_added', daysAgo(1), { referrer: someone });
      await fact(otherBusinessId, 'member_added', daysAgo(200), { member: someone });
      await priceLine(otherBusinessId, someone, daysAgo(300), 'member_added', 9000, 1000);
    }
  });
  afterAll(() => t.close());

  const routes = ['funnel', 'referrers', 'money', 'retention'] as const;

  it.each(routes)('%s needs a session', async (route) => {
    await t.agent().get(`/api/analytics/${route}?period=30`).expect(401);
  });

  describe('funnel', () => {
    beforeAll(async () => {
      const [t1, t2, t3, t4] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      const [l1, l2, l3, l4, l6] = [
        randomUUID(),
        randomUUID(),
        randomUUID(),
        randomUUID(),
        randomUUID(),
      ];
      // T1's first link was replaced by a rotation 60 days ago; T2's and T4's are recent; T3's
      // was revoked 50 days ago.
      await fact(businessId, 'link_created', daysAgo(100), { member: t1, link: l1 });
      await fact(businessId, 'link_rotated', daysAgo(60), { member: t1, link: l4 });
      await fact(businessId, 'link_created', daysAgo(10), { member: t2, link: l2 });
      await fact(businessId, 'link_created', daysAgo(200), { member: t3, link: l3 });
      await fact(businessId, 'link_revoked', daysAgo(50), { member: t3, link: l3 });
      await fact(businessId, 'link_created', daysAgo(5), { member: t4, link: l6 });
      await visits(businessId, l2, utcDay(new Date()), 3);
      await visits(businessId, l2, utcDay(daysAgo(5)), 4);
      await visits(businessId, l1, utcDay(daysAgo(40)), 10);
      for (const ago of [2, 2, 2, 20, 45])
        await fact(businessId, 'prospect_joined', daysAgo(ago), { link: l2, referrer: t2 });
      for (const ago of [1, 15, 60])
        await fact(businessId, 'prospect_approved', daysAgo(ago), { referrer: t2 });
      // Links emailed to their members (issue 25, docs/decisions/links-shared.md): Siobhán's was
      // delivered 3 days ago, Anne-Marie's 70 days ago, Liam's is still queued and Ava's never
      // went (she unsubscribed).
      for (const [name, status, ago] of [
        ["Siobhán O'Brien", 'sent', 3],
        ['Anne-Marie Dubois', 'outboxed', 70],
        ['Liam Chen', 'queued', null],
        ['Ava Rossi', 'unsubscribed', 2],
      ] as const)
        await emailedLink(name, status, ago === null ? null : daysAgo(ago));
    });

    /** A member of the first business with a live link and a 'referral-link' email about it. */
    const emailedLink = async (name: string, status: string, deliveredAt: Date | null) => {
      const id = await member(businessId, name);
      const code = randomUUID().replace(/-/g, '');
      await t.dataSource.query(
        `INSERT INTO referral_links (business_id, member_id, code) VALUES ($1, $2, $3)`,
        [businessId, id, code],
      );
      await t.dataSource.query(
        `INSERT INTO member_emails (business_id, member_id, template, data, origin, event_key, status, delivered_at)
         VALUES ($1, $2, 'referral-link', $3, 'http://grove.test', $4, $5, $6)`,
        [
          businessId,
          id,
          JSON.stringify({
            referralUrl: `http://grove.test/referral/${code}`,
            priceNowCents: 4000,
            discountPerBranchCents: 1000,
          }),
          `referral-link:${id}`,
          status,
          deliveredAt,
        ],
      );
    };

    it('counts links shared (opened or emailed), visits, joins and approvals of the last 30 days, with conversions', async () => {
      const body = (await owner.get('/api/analytics/funnel?period=30').expect(200))
        .body as FunnelReport;
      const today = utcDay(new Date());
      expect(body.from).toBe(addDays(today, -29));
      expect(body.to).toBe(today);
      // Shared: l2 (its join page was opened) and Siobhán's (emailed 3 days ago). Not shared:
      // l4 and l6, live but neither opened nor emailed; Liam's (queued) and Ava's (unsubscribed).
      expect(body.steps.map((s) => [s.key, s.count])).toEqual([
        ['links', 2],
        ['visits', 7],
        ['joins', 4],
        ['approved', 2],
      ]);
      expect(body.steps.map((s) => s.conversion)).toEqual([null, 7 / 2, 4 / 7, 2 / 4]);
      expect(body.overallConversion).toBeCloseTo(2 / 7);
    });

    it('counts a link shared in the last 90 days even if it was replaced since (l1 opened 40 days ago, Anne-Marie’s emailed 70 days ago)', async () => {
      const body = (await owner.get('/api/analytics/funnel?period=90').expect(200))
        .body as FunnelReport;
      expect(body.steps.map((s) => s.count)).toEqual([4, 17, 5, 3]);
    });

    it('shows a new fact at once (the kept answer is dropped when the business records one)', async () => {
      const before = (await owner.get('/api/analytics/funnel?period=30').expect(200))
        .body as FunnelReport;
      await fact(businessId, 'prospect_joined', daysAgo(1), { referrer: randomUUID() });
      const after = (await owner.get('/api/analytics/funnel?period=30').expect(200))
        .body as FunnelReport;
      expect(after.steps[2].count).toBe(before.steps[2].count + 1);
      // Leave the fixture as the other tests expect it.
      await t.dataSource.query(
        `DELETE FROM lifecycle_facts WHERE id = (SELECT max(id) FROM lifecycle_facts WHERE business_id = $1)`,
        [businessId],
      );
    });

    it('is zero with no conversions for a business without facts, whatever other businesses hold', async () => {
      const fresh = await t.signUp();
      const body = (await fresh.agent.get('/api/analytics/funnel?period=365').expect(200))
        .body as FunnelReport;
      expect(body.steps.map((s) => [s.count, s.conversion])).toEqual([
        [0, null],
        [0, null],
        [0, null],
        [0, null],
      ]);
      expect(body.overallConversion).toBeNull();
    });
  });

  describe('money and top referrers (May and June 2026)', () => {
    const period = 'from=2026-05-01&to=2026-06-30';
    let t1: string;
    let t2: string;
    const t3 = randomUUID(); // removed since: no members row
    beforeAll(async () => {
      t1 = await member(businessId, 'Tina Tree');
      t2 = await member(businessId, 'Tom Tree');
      const m1 = randomUUID();
      const m2 = randomUUID();
      // M1 joined as T1's branch: pays 50.00, 40.00 from 16 June (a branch), 50.00 again in July.
      await fact(businessId, 'member_added', at('2026-05-01T00:00:00Z'), {
        member: m1,
        referrer: t1,
      });
      await priceLine(businessId, m1, at('2026-05-01T00:00:00Z'), 'member_added', 5000, 5000);
      await priceLine(businessId, m1, at('2026-06-16T00:00:00Z'), 'branch_added', 5000, 4000);
      await priceLine(businessId, m1, at('2026-07-01T00:00:00Z'), 'branch_removed', 5000, 5000);
      // M2 (not referred): 30.00 off a 60.00 membership since April, ended on 11 June.
      await priceLine(businessId, m2, at('2026-04-10T00:00:00Z'), 'discount_changed', 6000, 3000);
      await priceLine(businessId, m2, at('2026-06-11T00:00:00Z'), 'membership_ended', 6000, 0);
      // T1: 10.00 off all of May and June; T3: 6.00 off from 21 June.
      await priceLine(businessId, t1, at('2026-04-01T00:00:00Z'), 'branch_added', 5000, 4000);
      await priceLine(businessId, t3, at('2026-06-21T00:00:00Z'), 'branch_added', 5000, 4400);
      for (const [tree, day] of [
        [t1, '2026-06-02'],
        [t1, '2026-06-16'],
        [t3, '2026-06-20'],
        [t3, '2026-06-21'],
        [t2, '2026-06-25'],
        [t2, '2026-07-02'],
      ])
        await fact(businessId, 'branch_added', at(`${day}T12:00:00Z`), { referrer: tree });
    });

    it('gives discounts and referred revenue per month, prorated by the days each price was in force', async () => {
      const body = (await owner.get(`/api/analytics/money?${period}`).expect(200))
        .body as MoneyReport;
      // May: M2 3,000 + T1 1,000 off; M1 paid 5,000. June: M1 1,000 × 15/30, M2 3,000 × 10/30,
      // T1 1,000, T3 600 × 10/30; M1 paid 5,000 × 15/30 + 4,000 × 15/30.
      expect(body.months).toEqual([
        { month: '2026-05', discountsCents: 4000, referredRevenueCents: 5000 },
        { month: '2026-06', discountsCents: 500 + 1000 + 1000 + 200, referredRevenueCents: 4500 },
      ]);
      expect(body.totalDiscountsCents).toBe(6700);
      expect(body.totalReferredRevenueCents).toBe(9500);
    });

    it('clips the month to the period: half of June is half of June', async () => {
      const body = (
        await owner.get('/api/analytics/money?from=2026-06-01&to=2026-06-15').expect(200)
      ).body as MoneyReport;
      // M2 3,000 × 10/30, T1 1,000 × 15/30; M1 paid 5,000 × 15/30.
      expect(body.months).toEqual([
        { month: '2026-06', discountsCents: 1000 + 500, referredRevenueCents: 2500 },
      ]);
    });

    it('ranks referrers by branches gained, then savings received (a removed member has no name)', async () => {
      const body = (await owner.get(`/api/analytics/referrers?${period}`).expect(200))
        .body as TopReferrersReport;
      expect(body.referrers).toEqual([
        { memberId: t1, memberName: 'Tina Tree', branchesGained: 2, savingsCents: 2000 },
        { memberId: t3, memberName: null, branchesGained: 2, savingsCents: 200 },
        { memberId: t2, memberName: 'Tom Tree', branchesGained: 1, savingsCents: 0 },
      ]);
    });
  });

  describe('retention', () => {
    // A business of its own: the money fixture's members joined in the last 365 days too.
    let cohortOwner: TestAgent;
    beforeAll(async () => {
      const signedUp = await t.signUp({ businessName: 'Cohort Gym' });
      cohortOwner = signedUp.agent;
      const businessId = signedUp.user.business.id;
      const [r1, r2, r3, n1, n2, n3] = Array.from({ length: 6 }, () => randomUUID());
      const referrer = randomUUID();
      // R1 was added as a branch of someone's tree (how the owner flows record it).
      await fact(businessId, 'member_added', daysAgo(200), { member: r1 });
      await fact(businessId, 'branch_added', daysAgo(200), { member: r1, referrer });
      // R2 joined by approval: the approval names the member.
      await fact(businessId, 'member_added', daysAgo(200), { member: r2 });
      await fact(businessId, 'prospect_approved', daysAgo(200), { member: r2, referrer });
      await fact(businessId, 'member_ended', daysAgo(100), { member: r2 });
      await fact(businessId, 'member_added', daysAgo(60), { member: r3, referrer });
      await fact(businessId, 'member_added', daysAgo(200), { member: n1 });
      await fact(businessId, 'member_ended', daysAgo(180), { member: n1 });
      await fact(businessId, 'member_added', daysAgo(100), { member: n2 });
      await fact(businessId, 'member_added', daysAgo(10), { member: n3 });
    });

    it('shares of referred and other members still active 30, 90 and 180 days after joining', async () => {
      const body = (await cohortOwner.get('/api/analytics/retention?period=365').expect(200))
        .body as RetentionReport;
      expect(body.horizons).toEqual([
        {
          days: 30,
          referred: { eligible: 3, active: 3, share: 1 },
          nonReferred: { eligible: 2, active: 1, share: 0.5 },
        },
        {
          days: 90,
          referred: { eligible: 2, active: 2, share: 1 },
          nonReferred: { eligible: 2, active: 1, share: 0.5 },
        },
        {
          days: 180,
          referred: { eligible: 2, active: 1, share: 0.5 },
          nonReferred: { eligible: 1, active: 0, share: 0 },
        },
      ]);
    });
  });

  describe('tenant isolation', () => {
    it.each(routes)(
      "%s shows the other business only its own figures, never the first one's",
      async (route) => {
        const mine = (await owner.get(`/api/analytics/${route}?period=365`).expect(200)).body;
        const theirs = (await other.get(`/api/analytics/${route}?period=365`).expect(200)).body;
        expect(theirs).not.toEqual(mine);
        const text = JSON.stringify(theirs);
        expect(text).not.toContain('Tina Tree');
        // What the other business holds: 5 links, 250 visits, 5 joins, 5 approvals; 5 referrers
        // of one branch each; 80.00 off for each of 5 members every month; members added 200
        // days ago, not referred.
        if (route === 'funnel')
          expect((theirs as FunnelReport).steps.map((s) => s.count)).toEqual([5, 250, 5, 5]);
        if (route === 'referrers')
          expect((theirs as TopReferrersReport).referrers.map((r) => r.branchesGained)).toEqual([
            1, 1, 1, 1, 1,
          ]);
        if (route === 'money') expect((theirs as MoneyReport).totalReferredRevenueCents).toBe(0);
        if (route === 'retention')
          expect((theirs as RetentionReport).horizons[0].nonReferred.eligible).toBe(5);
      },
    );
  });

  describe('a bad period → 400 with a clear message, never a 500', () => {
    const today = utcDay(new Date());
    it.each([
      ['period=45', 'period', ANALYTICS_MESSAGES.periodInvalid],
      ['period=abc', 'period', ANALYTICS_MESSAGES.periodInvalid],
      ['period=30&period=90', 'period', ANALYTICS_MESSAGES.periodInvalid],
      ['period=30&from=2026-01-01&to=2026-01-31', 'period', ANALYTICS_MESSAGES.presetAndDates],
      ['from=2026-01-01', 'to', ANALYTICS_MESSAGES.datesIncomplete],
      ['to=2026-01-01', 'from', ANALYTICS_MESSAGES.datesIncomplete],
      ['from=2026-02-30&to=2026-03-01', 'from', ANALYTICS_MESSAGES.dateInvalid],
      ['from=yesterday&to=2026-03-01', 'from', ANALYTICS_MESSAGES.dateInvalid],
      ['from=2026-03-02&to=2026-03-01', 'from', ANALYTICS_MESSAGES.startAfterEnd],
      [`from=2026-01-01&to=${addDays(today, 1)}`, 'to', ANALYTICS_MESSAGES.endInFuture],
      ['from=1999-12-31&to=2000-01-31', 'from', ANALYTICS_MESSAGES.startTooEarly],
      ['from=2020-01-01&to=2024-01-01', 'from', ANALYTICS_MESSAGES.tooLong],
    ])('%s', async (query, field, message) => {
      for (const route of routes) {
        const reply = await owner.get(`/api/analytics/${route}?${query}`);
        expect([route, reply.status, reply.body.message]).toEqual([route, 400, message]);
        if (!query.includes('&period='))
          expect(reply.body.fieldErrors).toEqual({ [field]: message });
      }
    });

    it('refuses an unknown parameter', async () => {
      const reply = await owner.get(
        '/api/analytics/funnel?period=30&businessId=' + otherBusinessId,
      );
      expect(reply.status).toBe(400);
    });

    it('takes the last 30 days when no period is given', async () => {
      const body = (await owner.get('/api/analytics/funnel').expect(200)).body as FunnelReport;
      expect(body.from).toBe(addDays(today, -29));
    });
  });
});

describe('analytics of the demo business (integration)', () => {
  let demo: TestApp;
  beforeAll(async () => {
    demo = await createTestApp({ GROVE_SEED_DEMO: 'true' });
  });
  afterAll(() => demo.close());

  it('is alive on first start: a year of visits, joins, discounts, revenue and retention', async () => {
    const owner = demo.agent();
    await owner.post('/api/auth/login').send(DEMO_LOGIN).expect(200);
    const year = 'period=365';
    const funnel = (await owner.get(`/api/analytics/funnel?${year}`).expect(200))
      .body as FunnelReport;
    const [links, visits, joins, approved] = funnel.steps.map((step) => step.count);
    expect(links).toBe(15);
    expect(visits).toBeGreaterThan(joins);
    expect(joins).toBeGreaterThan(approved);
    expect(approved).toBeGreaterThan(0);
    const top = (await owner.get(`/api/analytics/referrers?${year}`).expect(200))
      .body as TopReferrersReport;
    expect(top.referrers[0]).toMatchObject({ memberName: expect.any(String) });
    expect(top.referrers[0].savingsCents).toBeGreaterThan(0);
    const money = (await owner.get(`/api/analytics/money?${year}`).expect(200)).body as MoneyReport;
    expect(money.months.length).toBeGreaterThanOrEqual(12);
    expect(money.totalDiscountsCents).toBeGreaterThan(0);
    expect(money.totalReferredRevenueCents).toBeGreaterThan(money.totalDiscountsCents);
    const retention = (await owner.get(`/api/analytics/retention?${year}`).expect(200))
      .body as RetentionReport;
    const at90 = retention.horizons[1];
    expect(at90.referred.eligible).toBeGreaterThan(0);
    expect(at90.nonReferred.eligible).toBeGreaterThan(0);
    // The Branches screen's prices are where the ledger ends: each tree's last line.
    const [mismatch] = (await demo.dataSource.query(
      `SELECT count(*)::int AS n FROM members m
       JOIN LATERAL (SELECT new_price_cents FROM price_changes c WHERE c.member_id = m.id
                     ORDER BY occurred_at DESC, id DESC LIMIT 1) last ON true
       WHERE last.new_price_cents <> GREATEST(0, m.membership_price_cents - m.discount_cents *
             (SELECT count(*) FROM members b WHERE b.referred_by_id = m.id))`,
    )) as { n: number }[];
    expect(mismatch.n).toBe(0);
  });

  it('shows joins by channel for the year, WhatsApp first, every channel a known one', async () => {
    const owner = demo.agent();
    await owner.post('/api/auth/login').send(DEMO_LOGIN).expect(200);
    const { channels } = (await owner.get('/api/analytics/channels?period=365').expect(200))
      .body as JoinChannelsReport;
    expect(channels[0].channel).toBe('whatsapp');
    expect(channels[0].approved).toBeGreaterThan(0);
    expect(channels.map((row) => row.channel).sort()).toEqual([
      'copy',
      'direct',
      'email',
      'qr',
      'share',
      'sms',
      'whatsapp',
    ]);
    const funnel = (await owner.get('/api/analytics/funnel?period=365').expect(200))
      .body as FunnelReport;
    const [, visits, joins, approved] = funnel.steps.map((step) => step.count);
    // The channels split the funnel's visits, joins and approvals: none lost, none twice.
    const sum = (key: 'visits' | 'joins' | 'approved') =>
      channels.reduce((total, row) => total + row[key], 0);
    expect([sum('visits'), sum('joins'), sum('approved')]).toEqual([visits, joins, approved]);
  });

  it("shows approvals and top referrers in the default 'Last 30 days'", async () => {
    const owner = demo.agent();
    await owner.post('/api/auth/login').send(DEMO_LOGIN).expect(200);
    const funnel = (await owner.get('/api/analytics/funnel').expect(200)).body as FunnelReport;
    const [, visits, joins, approved] = funnel.steps.map((step) => step.count);
    expect(approved).toBe(3);
    expect(joins).toBeGreaterThan(approved);
    expect(visits).toBeGreaterThan(joins);
    const top = (await owner.get('/api/analytics/referrers').expect(200))
      .body as TopReferrersReport;
    expect(top.referrers.map((r) => r.memberName).sort()).toEqual([
      'Grace Murphy',
      'Henry Wilson',
      'Olivia Bennett',
    ]);
    expect(top.referrers.every((r) => r.savingsCents > 0)).toBe(true);
  });
});
