import type { QueryRunner } from 'typeorm';
import type TestAgent from 'supertest/lib/agent';
import { DEFAULT_REFERRER_REWARD, type MemberRow, type ReferrerRewardOwed } from '@grove/contracts';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';

/**
 * The cap on rewarded friends under concurrency (issue 33 item 2,
 * docs/decisions/referrer-reward.md): two branches of one referrer that start counting in two
 * transactions at once, at a business rewarding at most one friend a year, owe one reward and one
 * 'capped', not two rewards. The counting starts as the counting rule's refresh or a sync starts
 * it (`branch_counting_since` set on a branch row, the trigger `members_referrer_reward_owed`).
 */
describe('the cap on rewarded friends with two branches counting at once (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let siobhan: MemberRow;
  let branches: MemberRow[];

  beforeAll(async () => {
    t = await createTestApp();
    owner = (await t.signUp({ businessName: "O'Brien's Boxing & Fitness" })).agent;
    siobhan = (
      await owner
        .post('/api/members')
        .send(treeBody("Siobhán O'Brien", 'siobhan@example.com', 10_000, 1_500))
        .expect(201)
    ).body as MemberRow;
    await owner
      .put('/api/settings/referrer-reward')
      .send({
        ...DEFAULT_REFERRER_REWARD,
        kind: 'credit',
        creditCents: 2_500,
        maxBranchesPerYear: 1,
      })
      .expect(200);
    branches = [];
    for (const [name, email] of [
      ["Zoë D'Arcy-Nguyễn", 'zoe@example.com'],
      ['Ana-Sofía Pérez', 'ana@example.com'],
    ]) {
      branches.push(
        (
          await owner
            .post(`/api/members/${siobhan.id}/branches`)
            .send(treeBody(name, email))
            .expect(201)
        ).body as MemberRow,
      );
    }
    // Both branches back to not counting yet, nothing owed: as under a rule that waits for a
    // first payment, before the refresh.
    const ids = branches.map((branch) => branch.id);
    await t.dataSource.query(
      `DELETE FROM referrer_rewards_owed WHERE branch_id = ANY($1::uuid[])`,
      [ids],
    );
    await t.dataSource.query(
      `UPDATE members SET branch_counting_since = NULL WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  });
  afterAll(() => t.close());

  it('owes one reward and one capped when both start counting in concurrent transactions', async () => {
    const startCounting = (runner: QueryRunner, branchId: string) =>
      runner.query(`UPDATE members SET branch_counting_since = now() WHERE id = $1`, [branchId]);
    const first = t.dataSource.createQueryRunner();
    const second = t.dataSource.createQueryRunner();
    await first.connect();
    await second.connect();
    try {
      await first.startTransaction();
      await second.startTransaction();
      await startCounting(first, branches[0].id);
      // The second starts while the first is not committed; it may wait for it.
      const secondDone = startCounting(second, branches[1].id);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await first.commitTransaction();
      await secondDone;
      await second.commitTransaction();
    } finally {
      await first.release();
      await second.release();
    }
    const owed = (
      (await owner.get('/api/referrer-rewards').expect(200)).body as { items: ReferrerRewardOwed[] }
    ).items;
    expect(owed.map((row) => ({ branchId: row.branchId, capped: row.capped }))).toEqual(
      expect.arrayContaining([
        { branchId: branches[0].id, capped: false },
        { branchId: branches[1].id, capped: true },
      ]),
    );
    expect(owed).toHaveLength(2);
  });
});
