import type TestAgent from 'supertest/lib/agent';
import {
  DEFAULT_REFERRER_REWARD,
  REFERRER_REWARD_MESSAGES,
  type AuditLogPage,
  type MemberProfile,
  type MemberRow,
  type ReferrerReward,
} from '@grove/contracts';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';

const ROUTE = '/api/settings/referrer-reward';

/**
 * The referrer's reward and its cap (issue 33 item 2, docs/product.md#referrer-reward) on real
 * PostgreSQL: the owner's setting (`GET/PUT /api/settings/referrer-reward`), the cap applied to
 * the Branches row ('capped', the capped price) with a ledger line, the audit entry, bad input
 * refused with nothing saved, and each business seeing and changing only its own.
 */
describe('the referrer reward and its cap (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let businessId: string;
  let siobhan: MemberRow;

  const rewardOf = async (agent: TestAgent) =>
    (await agent.get(ROUTE).expect(200)).body as ReferrerReward;
  const stored = async (id: string) =>
    (
      (await t.dataSource.query(
        `SELECT referrer_reward, reward_cap_percent, reward_yearly_cap_cents FROM businesses WHERE id = $1`,
        [id],
      )) as Record<string, unknown>[]
    )[0];
  const row = async (id: string) =>
    (await owner.get(`/api/members/${id}`).expect(200)).body as MemberRow;

  beforeAll(async () => {
    t = await createTestApp();
    const signedUp = await t.signUp({ businessName: "O'Brien's Boxing & Fitness" });
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
    other = (await t.signUp({ businessName: 'Harbour Pilates' })).agent;
    // Siobhán pays $100.00 and gets $15.00 off per counting branch: three friends take $45.00.
    siobhan = (
      await owner
        .post('/api/members')
        .send(treeBody("Siobhán O'Brien", 'siobhan@example.com', 10_000, 1_500))
        .expect(201)
    ).body as MemberRow;
    for (const [name, email] of [
      ['Ana-Sofía Pérez', 'ana@example.com'],
      ["Zoë D'Arcy-Nguyễn", 'zoe@example.com'],
      ['Kenji Watanabe', 'kenji@example.com'],
    ])
      await owner
        .post(`/api/members/${siobhan.id}/branches`)
        .send(treeBody(name, email))
        .expect(201);
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts with the ongoing discount, uncapped but the $0 floor', async () => {
    expect(await rewardOf(owner)).toEqual(DEFAULT_REFERRER_REWARD);
    const tree = await row(siobhan.id);
    expect(tree).toMatchObject({ branches: 3, newPriceCents: 5_500 });
    expect(tree.rewardCapped).toBeUndefined();
  });

  it('a 40% cap stops the price at $60.00, shows the tree as capped, writes its ledger line and the audit entry', async () => {
    const saved = (
      await owner
        .put(ROUTE)
        .send({ ...DEFAULT_REFERRER_REWARD, capPercent: 40, giftText: 'ignored' })
        .expect(200)
    ).body as ReferrerReward;
    expect(saved).toEqual({ ...DEFAULT_REFERRER_REWARD, capPercent: 40 });
    expect(await rewardOf(owner)).toEqual(saved);
    const tree = await row(siobhan.id);
    expect(tree).toMatchObject({ newPriceCents: 6_000, rewardCapped: true });
    const profile = (await owner.get(`/api/members/${siobhan.id}/profile`).expect(200))
      .body as MemberProfile;
    expect(profile.ledger[0]).toMatchObject({
      reason: 'reward_changed',
      oldPriceCents: 5_500,
      newPriceCents: 6_000,
    });
    const audit = (await owner.get('/api/audit-log').expect(200)).body as AuditLogPage;
    expect(audit.items[0]).toMatchObject({
      kind: 'settings.changed',
      before: { capPercent: 100 },
      after: { setting: 'Reward for referrers', capPercent: 40 },
    });
  });

  it('a yearly cap of $240.00 allows $20.00 a month; a one-off credit takes nothing off the price', async () => {
    await owner
      .put(ROUTE)
      .send({ ...DEFAULT_REFERRER_REWARD, capPercent: 40, yearlyCapCents: 24_000 })
      .expect(200);
    expect(await row(siobhan.id)).toMatchObject({ newPriceCents: 8_000, rewardCapped: true });

    await owner
      .put(ROUTE)
      .send({ ...DEFAULT_REFERRER_REWARD, kind: 'credit', creditCents: 2_500 })
      .expect(200);
    expect(await stored(businessId)).toMatchObject({
      referrer_reward: { kind: 'credit', creditCents: 2_500 },
      reward_cap_percent: 100,
      reward_yearly_cap_cents: null,
    });
    const tree = await row(siobhan.id);
    expect(tree.newPriceCents).toBe(10_000);
    expect(tree.rewardCapped).toBeUndefined();

    // Back to the ongoing discount: stored as NULL, the price as before any cap.
    await owner.put(ROUTE).send(DEFAULT_REFERRER_REWARD).expect(200);
    expect((await stored(businessId))?.referrer_reward).toBeNull();
    expect((await row(siobhan.id)).newPriceCents).toBe(5_500);
  });

  it('refuses bad input with its message, nothing saved and no price moved', async () => {
    await owner
      .put(ROUTE)
      .send({ ...DEFAULT_REFERRER_REWARD, capPercent: 40 })
      .expect(200);
    const before = await stored(businessId);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...DEFAULT_REFERRER_REWARD, kind: 'cash' }, 'kind', REFERRER_REWARD_MESSAGES.kind],
      [
        { ...DEFAULT_REFERRER_REWARD, kind: 'credit', creditCents: 0 },
        'creditCents',
        REFERRER_REWARD_MESSAGES.credit,
      ],
      [
        { ...DEFAULT_REFERRER_REWARD, kind: 'free', freeCount: 13, freeUnit: 'month' },
        'freeCount',
        REFERRER_REWARD_MESSAGES.free,
      ],
      [
        { ...DEFAULT_REFERRER_REWARD, kind: 'gift', giftText: '  ' },
        'giftText',
        REFERRER_REWARD_MESSAGES.giftRequired,
      ],
      [
        { ...DEFAULT_REFERRER_REWARD, capPercent: 101 },
        'capPercent',
        REFERRER_REWARD_MESSAGES.capPercent,
      ],
      [
        { ...DEFAULT_REFERRER_REWARD, capPercent: null },
        'capPercent',
        REFERRER_REWARD_MESSAGES.capPercent,
      ],
      [
        { ...DEFAULT_REFERRER_REWARD, yearlyCapCents: -100 },
        'yearlyCapCents',
        REFERRER_REWARD_MESSAGES.yearlyCap,
      ],
      [
        { ...DEFAULT_REFERRER_REWARD, yearlyCapCents: 'a lot' },
        'yearlyCapCents',
        REFERRER_REWARD_MESSAGES.yearlyCap,
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await owner.put(ROUTE).send(body).expect(400);
      expect(res.body.fieldErrors?.[field]).toBe(message);
    }
    await owner.put(ROUTE).set('Content-Type', 'application/json').send('not json').expect(400);
    expect(await stored(businessId)).toEqual(before);
    expect(await row(siobhan.id)).toMatchObject({ newPriceCents: 6_000, rewardCapped: true });
  });

  it('each business reads and changes only its own; without a session it is 401', async () => {
    expect(await rewardOf(other)).toEqual(DEFAULT_REFERRER_REWARD);
    await other
      .put(ROUTE)
      .send({ ...DEFAULT_REFERRER_REWARD, kind: 'gift', giftText: 'a Harbour Pilates towel' })
      .expect(200);
    expect((await rewardOf(owner)).capPercent).toBe(40);
    expect((await rewardOf(owner)).kind).toBe('discount');
    expect(await row(siobhan.id)).toMatchObject({ newPriceCents: 6_000, rewardCapped: true });
    await t.agent().get(ROUTE).expect(401);
    await t.agent().put(ROUTE).send(DEFAULT_REFERRER_REWARD).expect(401);
  });
});
