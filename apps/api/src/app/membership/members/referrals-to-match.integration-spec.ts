import type TestAgent from 'supertest/lib/agent';
import {
  MESSAGES,
  REFERRED_BY_MESSAGES,
  type MemberRow,
  type MembersPage,
  type ReferralsToMatch,
} from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';

const member = (memberName: string, memberEmail: string, extra: Record<string, unknown> = {}) => ({
  memberName,
  memberEmail,
  membershipPriceCents: 10_000,
  discountCents: 1500,
  ...extra,
});

describe('referrals at the front desk: Referrals to match (integration, issue 33 item 4)', () => {
  let t: TestApp;
  let desk: TestAgent;

  beforeAll(async () => {
    t = await createTestApp();
    desk = (await t.signUp({ businessName: 'Peak Fitness' })).agent;
  });
  afterAll(() => t.close());

  const add = async (body: Record<string, unknown>): Promise<MemberRow> =>
    (await desk.post('/api/members').send(body).expect(201)).body as MemberRow;
  const get = async (id: string): Promise<MemberRow> =>
    (await desk.get(`/api/members/${id}`).expect(200)).body as MemberRow;
  const waiting = async (agent = desk): Promise<ReferralsToMatch> =>
    (await agent.get('/api/referrals-to-match').expect(200)).body as ReferralsToMatch;

  it("adds Ben O'Connor with the referrer typed as 'sio' → Siobhán O'Brien, and 'Jenny (spin class)' waits until matched", async () => {
    const siobhan = await add(member("Siobhán O'Brien", 'siobhan@example.ie'));
    // The desk types "sio": the typeahead is the members search.
    const found = (await desk.get('/api/members?search=sio').expect(200)).body as MembersPage;
    expect(found.items.map((row) => row.memberName)).toEqual(["Siobhán O'Brien"]);
    const ben = await add(
      member("Ben O'Connor", 'ben@example.com', { referringMemberId: siobhan.id }),
    );
    expect(ben.referringMemberId).toBe(siobhan.id);
    expect((await get(siobhan.id)).newPriceCents).toBe(8500);
    expect((await waiting()).total).toBe(0);

    // A name that matches nobody is kept as typed, and the member is added, referred by no one yet.
    const chloe = await add(
      member('Chloé Dubois-Martin', 'chloe@example.fr', {
        referredByNote: '  Jenny (spin class) ',
      }),
    );
    expect(chloe.referringMemberId).toBeNull();
    expect(await waiting()).toEqual({
      items: [
        {
          memberId: chloe.id,
          memberName: 'Chloé Dubois-Martin',
          memberEmail: 'chloe@example.fr',
          referredByNote: 'Jenny (spin class)',
          addedAt: expect.any(String),
        },
      ],
      total: 1,
    });

    // Later the owner finds Jenny: Chloé becomes her branch and Jenny's price drops.
    const jenny = await add(member('Jenny Smith-Jones', 'jenny@example.com'));
    const matched = await desk
      .post(`/api/referrals-to-match/${chloe.id}/match`)
      .send({ referrerId: jenny.id })
      .expect(200);
    expect((matched.body as MemberRow).referringMemberId).toBe(jenny.id);
    expect((await get(jenny.id)).branchDetails.map((branch) => branch.branchName)).toEqual([
      'Chloé Dubois-Martin',
    ]);
    expect((await get(jenny.id)).newPriceCents).toBe(8500);
    expect((await waiting()).total).toBe(0);
    // The price ledger says why Jenny's price moved.
    const ledger: { reason: string; new_price_cents: number }[] = await t.dataSource.query(
      `SELECT reason, new_price_cents FROM price_changes WHERE member_id = $1 ORDER BY occurred_at`,
      [jenny.id],
    );
    expect(ledger.map((line) => [line.reason, line.new_price_cents])).toEqual([
      ['member_added', 10_000],
      ['branch_added', 8500],
    ]);
  });

  it('dismisses a waiting referral: the member stays, referred by no one', async () => {
    const dan = await add(member('Dan Ó Sé', 'dan@example.ie', { referredByNote: 'a flyer' }));
    expect((await waiting()).items.map((item) => item.memberName)).toEqual(['Dan Ó Sé']);
    await desk.post(`/api/referrals-to-match/${dan.id}/dismiss`).expect(204);
    expect((await waiting()).total).toBe(0);
    expect((await get(dan.id)).referringMemberId).toBeNull();
    const again = await desk.post(`/api/referrals-to-match/${dan.id}/dismiss`).expect(404);
    expect(again.body.message).toBe(MESSAGES.memberNotFound);
  });

  it('refuses a note that is too long, not plain, or comes with a picked member, and adds no one', async () => {
    const referrer = await add(member('Ana Ruiz', 'ana.ruiz@example.com'));
    const cases: [Record<string, unknown>, string][] = [
      [{ referredByNote: 'x'.repeat(101) }, REFERRED_BY_MESSAGES.noteInvalid],
      [{ referredByNote: 'Jenny\r\nBcc: x' }, REFERRED_BY_MESSAGES.noteInvalid],
      [{ referredByNote: 7 }, REFERRED_BY_MESSAGES.noteInvalid],
      [
        { referredByNote: 'Jenny', referringMemberId: referrer.id },
        REFERRED_BY_MESSAGES.noteWithReferrer,
      ],
    ];
    for (const [extra, message] of cases) {
      const refused = await desk
        .post('/api/members')
        .send(member('Eve Adams', 'eve@example.com', extra))
        .expect(400);
      expect(refused.body.message).toBe(message);
    }
    const found = (await desk.get('/api/members?search=eve@example.com').expect(200))
      .body as MembersPage;
    expect(found.total).toBe(0);
  });

  it('refuses a match to the member themselves, onto a branch, or one that would loop, and changes nothing', async () => {
    const tree = await add(member('Tom Tree', 'tom@example.com'));
    const branch = await add(
      member('Bea Branch', 'bea@example.com', { referringMemberId: tree.id }),
    );
    const walkIn = await add(
      member('Will Walk-In', 'will@example.com', { referredByNote: 'Tom?' }),
    );
    const own = await desk
      .post(`/api/referrals-to-match/${walkIn.id}/match`)
      .send({ referrerId: walkIn.id })
      .expect(400);
    expect(own.body.message).toBe(REFERRED_BY_MESSAGES.ownReferrer);
    const already = await desk
      .post(`/api/referrals-to-match/${branch.id}/match`)
      .send({ referrerId: walkIn.id })
      .expect(409);
    expect(already.body.message).toBe(REFERRED_BY_MESSAGES.alreadyBranch);
    // Tom (and with him Bea) becomes Will's branch; Will then cannot be Bea's: a loop.
    await desk.post(`/api/referrals-to-match/${walkIn.id}/dismiss`).expect(204);
    await t.dataSource.query(`UPDATE members SET referred_by_note = 'Bea' WHERE id = $1`, [
      tree.id,
    ]);
    await desk
      .post(`/api/referrals-to-match/${tree.id}/match`)
      .send({ referrerId: walkIn.id })
      .expect(200);
    await t.dataSource.query(`UPDATE members SET referred_by_note = 'Bea' WHERE id = $1`, [
      walkIn.id,
    ]);
    const loop = await desk
      .post(`/api/referrals-to-match/${walkIn.id}/match`)
      .send({ referrerId: branch.id })
      .expect(409);
    expect(loop.body.message).toBe(REFERRED_BY_MESSAGES.referralLoop);
    expect((await get(walkIn.id)).referringMemberId).toBeNull();
    const unknown = await desk
      .post(`/api/referrals-to-match/${walkIn.id}/match`)
      .send({ referrerId: 'not-an-id' })
      .expect(400);
    expect(unknown.body.message).toBe(MESSAGES.memberNotFound);
  });

  it("keeps each business's queue to itself (tenant isolation)", async () => {
    const other = (await t.signUp({ businessName: 'Other Gym' })).agent;
    const theirs = (
      await other
        .post('/api/members')
        .send(member('Olga Other', 'olga@example.com', { referredByNote: 'Jenny' }))
        .expect(201)
    ).body as MemberRow;
    const ours = await add(member('Omar Ours', 'omar@example.com', { referredByNote: 'Jenny' }));
    // Neither sees the other's waiting member.
    expect((await waiting()).items.map((item) => item.memberName)).toContain('Omar Ours');
    expect((await waiting()).items.map((item) => item.memberName)).not.toContain('Olga Other');
    expect((await waiting(other)).items.map((item) => item.memberName)).toEqual(['Olga Other']);
    // Nor matches, dismisses, or names the other's member as referrer.
    await desk
      .post(`/api/referrals-to-match/${theirs.id}/match`)
      .send({ referrerId: ours.id })
      .expect(404);
    await desk
      .post(`/api/referrals-to-match/${ours.id}/match`)
      .send({ referrerId: theirs.id })
      .expect(404);
    await desk.post(`/api/referrals-to-match/${theirs.id}/dismiss`).expect(404);
    expect((await waiting(other)).total).toBe(1);
    await t.agent().get('/api/referrals-to-match').expect(401);
  });
});
