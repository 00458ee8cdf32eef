import type TestAgent from 'supertest/lib/agent';
import {
  DEFAULT_REFERRER_REWARD,
  REFERRER_REWARD_MESSAGES,
  type AuditLogPage,
  type MemberRow,
  type ReferrerReward,
  type ReferrerRewardOwed,
} from '@grove/contracts';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';

const ROUTE = '/api/referrer-rewards';

/**
 * The rewards owed to referrers (issue 33 item 2, docs/product.md#referrer-reward 'Rewards to
 * honour') on real PostgreSQL: one per branch that starts counting under a one-off credit, a free
 * period or a gift (never under the ongoing discount), none twice when the counting runs again,
 * the cap on friends rewarded a year, 'Mark honoured' (idempotent, audited), bad input refused
 * with nothing changed, and each business seeing and honouring only its own.
 */
describe('rewards owed to referrers (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let siobhan: MemberRow;

  const owedOf = async (agent: TestAgent) =>
    ((await agent.get(ROUTE).expect(200)).body as { items: ReferrerRewardOwed[] }).items;
  const setReward = (agent: TestAgent, reward: Partial<ReferrerReward>) =>
    agent
      .put('/api/settings/referrer-reward')
      .send({ ...DEFAULT_REFERRER_REWARD, ...reward })
      .expect(200);
  const addBranch = async (agent: TestAgent, treeId: string, name: string, email: string) =>
    (await agent.post(`/api/members/${treeId}/branches`).send(treeBody(name, email)).expect(201))
      .body as MemberRow;
  const honouredEntries = async (agent: TestAgent) =>
    ((await agent.get('/api/audit-log?kind=reward.honoured').expect(200)).body as AuditLogPage)
      .items;

  beforeAll(async () => {
    t = await createTestApp();
    owner = (await t.signUp({ businessName: "O'Brien's Boxing & Fitness" })).agent;
    other = (await t.signUp({ businessName: 'Harbour Pilates' })).agent;
    siobhan = (
      await owner
        .post('/api/members')
        .send(treeBody("Siobhán O'Brien", 'siobhan@example.com', 10_000, 1_500))
        .expect(201)
    ).body as MemberRow;
  });
  afterAll(async () => {
    await t.close();
  });

  it('owes nothing under the ongoing discount: the branch lowers the price instead', async () => {
    await addBranch(owner, siobhan.id, 'Ana-Sofía Pérez', 'ana@example.com');
    expect(await owedOf(owner)).toEqual([]);
    expect((await owner.get(`/api/members/${siobhan.id}`).expect(200)).body).toMatchObject({
      newPriceCents: 8_500,
    });
  });

  it('a one-off credit owes one reward per branch that starts counting, and none twice when it counts again', async () => {
    await setReward(owner, { kind: 'credit', creditCents: 2_500, maxBranchesPerYear: 2 });
    const zoe = await addBranch(owner, siobhan.id, "Zoë D'Arcy-Nguyễn", 'zoe@example.com');
    const owed = await owedOf(owner);
    expect(owed).toEqual([
      expect.objectContaining({
        referrerId: siobhan.id,
        referrerName: "Siobhán O'Brien",
        branchId: zoe.id,
        branchName: "Zoë D'Arcy-Nguyễn",
        wording: 'A $25 credit',
        capped: false,
        honouredAt: null,
      }),
    ]);
    // The branch leaves the tree and comes back (its counting starts again), and the counting
    // rule's refresh runs: still one reward for it.
    await t.dataSource.query(`UPDATE members SET referred_by_id = NULL WHERE id = $1`, [zoe.id]);
    await t.dataSource.query(`UPDATE members SET referred_by_id = $2 WHERE id = $1`, [
      zoe.id,
      siobhan.id,
    ]);
    const [{ since }] = (await t.dataSource.query(
      `SELECT branch_counting_since AS since FROM members WHERE id = $1`,
      [zoe.id],
    )) as { since: Date | null }[];
    expect(since).not.toBeNull();
    expect(await owedOf(owner)).toHaveLength(1);
    // The price does not move for a credit (the discount no longer applies).
    expect((await owner.get(`/api/members/${siobhan.id}`).expect(200)).body).toMatchObject({
      newPriceCents: 10_000,
    });
  });

  it('past the most friends rewarded a year, a branch still counts but is owed nothing (capped)', async () => {
    const kenji = await addBranch(owner, siobhan.id, 'Kenji Watanabe', 'kenji@example.com');
    const priya = await addBranch(owner, siobhan.id, 'Priya Sharma', 'priya@example.com');
    const owed = await owedOf(owner);
    expect(owed.map((row) => [row.branchName, row.capped])).toEqual([
      ["Zoë D'Arcy-Nguyễn", false],
      ['Kenji Watanabe', false],
      ['Priya Sharma', true],
    ]);
    expect((await owner.get(`/api/members/${priya.id}`).expect(200)).body).toMatchObject({
      status: 'Active',
    });
    expect(kenji.id).toBeTruthy();
  });

  it('a gift owed later keeps its own words; the rewards owed before keep theirs', async () => {
    await setReward(owner, { kind: 'gift', giftText: 'a Grove hoodie', maxBranchesPerYear: 3 });
    await addBranch(owner, siobhan.id, 'Tomás García', 'tomas@example.com');
    const words = (await owedOf(owner)).map((row) => [row.branchName, row.wording]);
    expect(words).toContainEqual(['Tomás García', 'A Grove hoodie']);
    // A third friend this year under a cap of three: owed, not capped; Priya stays capped.
    expect((await owedOf(owner)).find((row) => row.branchName === 'Tomás García')?.capped).toBe(
      false,
    );
    expect(words).toContainEqual(["Zoë D'Arcy-Nguyễn", 'A $25 credit']);
  });

  it('Mark honoured: once, audited once; a second call changes nothing', async () => {
    const zoe = (await owedOf(owner)).find((row) => row.branchName === "Zoë D'Arcy-Nguyễn")!;
    const first = (await owner.post(`${ROUTE}/${zoe.id}/honoured`).expect(200))
      .body as ReferrerRewardOwed;
    expect(first.honouredAt).not.toBeNull();
    const again = (await owner.post(`${ROUTE}/${zoe.id}/honoured`).expect(200))
      .body as ReferrerRewardOwed;
    expect(again.honouredAt).toBe(first.honouredAt);
    const entries = await honouredEntries(owner);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: 'reward.honoured',
      memberId: siobhan.id,
      memberName: "Siobhán O'Brien",
      after: { honoured: true, reward: 'A $25 credit', friend: "Zoë D'Arcy-Nguyễn" },
    });
    // Honoured ones go to the end of the list.
    expect((await owedOf(owner)).slice(-1)[0].id).toBe(zoe.id);
  });

  it('refuses bad input with its message, changing nothing', async () => {
    const capped = (await owedOf(owner)).find((row) => row.capped)!;
    const refused = await owner.post(`${ROUTE}/${capped.id}/honoured`).expect(409);
    expect(refused.body.message).toBe(REFERRER_REWARD_MESSAGES.owedCapped);
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const missing = await owner.post(`${ROUTE}/${id}/honoured`).expect(404);
      expect(missing.body.message).toBe(REFERRER_REWARD_MESSAGES.owedNotFound);
    }
    const bad = await owner
      .put('/api/settings/referrer-reward')
      .send({ ...DEFAULT_REFERRER_REWARD, maxBranchesPerYear: 0 })
      .expect(400);
    expect(bad.body.fieldErrors).toEqual({
      maxBranchesPerYear: REFERRER_REWARD_MESSAGES.maxBranches,
    });
    expect((await owner.get('/api/settings/referrer-reward').expect(200)).body).toMatchObject({
      kind: 'gift',
      maxBranchesPerYear: 3,
    });
    expect((await owedOf(owner)).find((row) => row.id === capped.id)?.honouredAt).toBeNull();
    expect(await honouredEntries(owner)).toHaveLength(1);
  });

  it('each business lists and honours only its own; without a session it is 401', async () => {
    expect(await owedOf(other)).toEqual([]);
    const open = (await owedOf(owner)).find((row) => row.honouredAt === null && !row.capped)!;
    await other.post(`${ROUTE}/${open.id}/honoured`).expect(404);
    expect((await owedOf(owner)).find((row) => row.id === open.id)?.honouredAt).toBeNull();
    // The other business's own branch under its own reward is its own.
    await setReward(other, { kind: 'free', freeCount: 2, freeUnit: 'week' });
    const ben = (
      await other
        .post('/api/members')
        .send(treeBody("Ben O'Connor", 'ben@example.com', 6_000, 1_000))
        .expect(201)
    ).body as MemberRow;
    await addBranch(other, ben.id, 'Ngozi Adeyemi', 'ngozi@example.com');
    expect((await owedOf(other)).map((row) => row.wording)).toEqual(['2 weeks free']);
    expect((await owedOf(owner)).some((row) => row.branchName === 'Ngozi Adeyemi')).toBe(false);
    await t.agent().get(ROUTE).expect(401);
    await t.agent().post(`${ROUTE}/${open.id}/honoured`).expect(401);
  });
});
