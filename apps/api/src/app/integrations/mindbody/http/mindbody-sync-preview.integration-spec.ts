import type TestAgent from 'supertest/lib/agent';
import { MESSAGES, type MindbodyBillChanges, type MindbodyStatus } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import {
  mindbodyStatus,
  reachStageFour,
  referThroughGrove,
  sandboxLogin,
  sandboxEnv,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';

/** A second site of the sandbox, for the other business (a site belongs to one business). */
const OTHER_SITE = '-97';

jest.setTimeout(180_000);

interface ManagedRow {
  id: string;
  name: string;
  mindbody_client_id: string;
  membership_price_cents: number;
  mindbody_autopay_cents: number;
}

/**
 * Issue 25: before a sync writes Mindbody autopays the owner sees which members' bills change and
 * by how much (`GET /api/mindbody/sync/preview`, from stored data), confirms that preview (`POST
 * /api/mindbody/sync {confirm}`), and afterwards sees how many bills the run wrote; 'Remove
 * integration' says which bills get their own price back (`GET /api/mindbody/removal/preview`).
 */
describe('Mindbody sync preview (integration, sandbox)', () => {
  let sandbox: RunningSandbox;
  let t: TestApp;
  let owner: TestAgent;
  let ownerBusinessId: string;
  let other: TestAgent;
  let referrerA: ManagedRow;
  let referrerB: ManagedRow;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({
      port: 0,
      clientCount: 40,
      sites: [{ siteId: OTHER_SITE, clientCount: 5, activated: true }],
    });
    t = await createTestApp(sandboxEnv(sandbox));
    const signed = await t.signUp({ businessName: 'Harbour Fitness' });
    owner = signed.agent;
    ownerBusinessId = signed.user.business.id;
    other = (await t.signUp({ businessName: 'Other Gym' })).agent;
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  const preview = async (agent: TestAgent, query = ''): Promise<MindbodyBillChanges> =>
    (await agent.get(`/api/mindbody/sync/preview${query}`).expect(200)).body as MindbodyBillChanges;
  const removalPreview = async (agent: TestAgent): Promise<MindbodyBillChanges> =>
    (await agent.get('/api/mindbody/removal/preview').expect(200)).body as MindbodyBillChanges;
  const managed = async (businessId: string): Promise<ManagedRow[]> =>
    (await t.dataSource.query(
      `SELECT id, name, mindbody_client_id, membership_price_cents, mindbody_autopay_cents FROM members
       WHERE business_id = $1 AND mindbody_client_id IS NOT NULL AND mindbody_autopay_cents IS NOT NULL
         AND mindbody_cancelled_at IS NULL AND mindbody_suspended_at IS NULL
       ORDER BY name`,
      [businessId],
    )) as ManagedRow[];
  const requestTotal = (): number =>
    Object.values(sandbox.control.requestCounts()).reduce((sum, n) => sum + n, 0);

  it('needs a session and stage 4; a bad page or confirmation is a 400', async () => {
    await t.agent().get('/api/mindbody/sync/preview').expect(401);
    await t.agent().get('/api/mindbody/removal/preview').expect(401);
    await t
      .agent()
      .post('/api/mindbody/sync')
      .send({ confirm: 'a'.repeat(32) })
      .expect(401);
    const early = await owner.get('/api/mindbody/sync/preview').expect(409);
    expect(early.body.message).toMatch(/Finish the earlier Mindbody setup steps first/);
    // Nothing to put back before an integration.
    expect(await removalPreview(owner)).toMatchObject({ total: 0, items: [] });
    for (const query of ['?page=0', '?page=abc', '?page=1.5'])
      expect((await owner.get(`/api/mindbody/sync/preview${query}`).expect(400)).body.message).toBe(
        MESSAGES.pageInvalid,
      );
    for (const query of ['?pageSize=0', '?pageSize=101'])
      expect(
        (await owner.get(`/api/mindbody/removal/preview${query}`).expect(400)).body.message,
      ).toBe(MESSAGES.pageSizeInvalid);
    for (const body of [
      { confirm: 'not-a-fingerprint' },
      { confirm: 12 },
      { confirm: 'A'.repeat(32) },
    ])
      expect((await owner.post('/api/mindbody/sync').send(body).expect(400)).body.message).toBe(
        MESSAGES.mindbodySyncConfirmRequired,
      );
  });

  it('lists each bill a sync will change, by name, old → new, from stored data (no Mindbody call, nothing written)', async () => {
    await reachStageFour(owner, sandbox, {
      discountOnReferralCents: 1000,
      discountForRefereeCents: 500,
    });
    // Nobody has a branch yet: a sync would change no bill.
    const none = await preview(owner);
    expect(none).toMatchObject({ total: 0, items: [], monthlyDifferenceCents: 0, page: 1 });
    expect(none.pageSize).toBe(100);

    // Two managed members refer friends through their Grove links; the front desk creates them.
    [referrerA, referrerB] = (await managed(ownerBusinessId)).filter(
      (row) => row.membership_price_cents >= 3_000,
    );
    for (const [referrer, name, email] of [
      [referrerA, 'Siobhán O’Brien', 'siobhan.obrien@example.com'],
      [referrerA, 'Anne-Marie Dubois', 'anne-marie.dubois@example.com'],
      [referrerB, 'Łukasz Nowak', 'lukasz.nowak@example.com'],
    ] as const)
      await referThroughGrove(owner, t, sandbox, referrer.id, { name, email, autopay: 60 });
    // Grove cannot know yet that their Mindbody clients exist: the preview says they wait.
    const waiting = await preview(owner);
    expect(waiting).toMatchObject({ total: 0, waitingFriends: 3 });

    // The sync finds them and writes their bills and their referrers': the run record counts them.
    sandbox.control.clearAutopayWrites();
    await owner.post('/api/mindbody/sync').send({ confirm: waiting.fingerprint }).expect(202);
    const synced = await settled(owner);
    expect(synced.processState).toMatch(/^completed /);
    expect(synced.lastSyncBillsWritten).toBe(5);
    expect(new Set(sandbox.control.autopayWrites().map((write) => write.ClientId)).size).toBe(5);
    expect(await preview(owner)).toMatchObject({ total: 0, waitingFriends: 0 });

    // The owner raises the discount on referral: each referrer's bill changes, the friends' do not.
    await owner
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 1200, discountForRefereeCents: 500 })
      .expect(200);
    sandbox.control.clearAutopayWrites();
    const calls = requestTotal();
    const shown = await preview(owner);
    // The preview asks Mindbody nothing and writes nothing.
    expect(requestTotal()).toBe(calls);
    expect(sandbox.control.autopayWrites()).toEqual([]);
    const expected = [
      {
        memberId: referrerA.id,
        name: referrerA.name,
        currentCents: referrerA.membership_price_cents - 2_000,
        newCents: referrerA.membership_price_cents - 2_400,
        differenceCents: -400,
      },
      {
        memberId: referrerB.id,
        name: referrerB.name,
        currentCents: referrerB.membership_price_cents - 1_000,
        newCents: referrerB.membership_price_cents - 1_200,
        differenceCents: -200,
      },
    ].sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
    expect(shown).toMatchObject({
      items: expected,
      total: 2,
      page: 1,
      monthlyDifferenceCents: -600,
      unreadContracts: 0,
      waitingFriends: 0,
    });
    expect(shown.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    // Paged: the second bill alone, with the count and fingerprint of all of them.
    const second = await preview(owner, '?page=2&pageSize=1');
    expect(second).toMatchObject({ items: [expected[1]], total: 2, page: 2, pageSize: 1 });
    expect(second.fingerprint).toBe(shown.fingerprint);
    expect(second.monthlyDifferenceCents).toBe(-600);
  });

  it('another business’s session gets nothing of this one, and its confirmation starts nothing here', async () => {
    const before = await preview(owner);
    expect((await other.get('/api/mindbody/sync/preview').expect(409)).body.message).toMatch(
      /Finish the earlier Mindbody setup steps first/,
    );
    expect(await removalPreview(other)).toMatchObject({ total: 0, items: [] });
    await other.post('/api/mindbody/sync').send({ confirm: before.fingerprint }).expect(409);
    // The other gym cannot take this gym's Mindbody site (issue 31); on a site of its own, its
    // preview is of its own members only.
    const claim = await other
      .post('/api/mindbody/credentials')
      .send(sandboxLogin(sandbox))
      .expect(409);
    expect(claim.body.message).toBe(MESSAGES.mindbodySiteClaimed);
    await reachStageFour(
      other,
      sandbox,
      { discountOnReferralCents: 1000, discountForRefereeCents: 500 },
      OTHER_SITE,
    );
    const theirs = await preview(other);
    expect(theirs.total).toBe(0);
    expect(theirs.fingerprint).not.toBe(before.fingerprint);
    const stale = await other.post('/api/mindbody/sync').send({ confirm: before.fingerprint });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(MESSAGES.mindbodySyncPreviewStale);
    expect(sandbox.control.autopayWrites()).toEqual([]);
    expect(await preview(owner)).toEqual(before);
    expect((await mindbodyStatus(owner)).processState).not.toBe('running');
  });

  it('a sync needs the confirmation of the bills as they are now (409 when they changed); then it writes them and records the count', async () => {
    const first = await preview(owner);
    const lastSyncAt = (await mindbodyStatus(owner)).lastSyncAt;
    expect((await owner.post('/api/mindbody/sync').send({}).expect(400)).body.message).toBe(
      MESSAGES.mindbodySyncConfirmRequired,
    );
    // The discount changes again meanwhile: the preview the owner saw is stale.
    await owner
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 1500, discountForRefereeCents: 500 })
      .expect(200);
    const stale = await owner.post('/api/mindbody/sync').send({ confirm: first.fingerprint });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(MESSAGES.mindbodySyncPreviewStale);
    expect(sandbox.control.autopayWrites()).toEqual([]);
    expect((await mindbodyStatus(owner)).lastSyncAt).toBe(lastSyncAt);

    const again = await preview(owner);
    expect(again.fingerprint).not.toBe(first.fingerprint);
    expect(again.items.find((item) => item.memberId === referrerB.id)?.newCents).toBe(
      referrerB.membership_price_cents - 1_500,
    );
    await owner.post('/api/mindbody/sync').send({ confirm: again.fingerprint }).expect(202);
    const done: MindbodyStatus = await settled(owner);
    expect(done.processState).toMatch(/^completed /);
    expect(done.lastSyncAt).not.toBe(lastSyncAt);
    // The run record: the bills written are those previewed, at the previewed amounts.
    expect(done.lastSyncBillsWritten).toBe(again.total);
    const written = new Map(
      sandbox.control
        .autopayWrites()
        .map((write) => [write.ClientId, Math.round(write.Amount * 100)]),
    );
    expect(written).toEqual(
      new Map(
        again.items.map((item) => [
          [referrerA, referrerB].find((row) => row.id === item.memberId)?.mindbody_client_id,
          item.newCents,
        ]),
      ),
    );
    // Nothing is left to change; a second sync writes nothing and records 0.
    const after = await preview(owner);
    expect(after).toMatchObject({ total: 0, items: [] });
    await owner.post('/api/mindbody/sync').send({ confirm: after.fingerprint }).expect(202);
    expect((await settled(owner)).lastSyncBillsWritten).toBe(0);
  });

  it('the removal preview names the bills that get their own price back, and the removal restores that many', async () => {
    const shown = await removalPreview(owner);
    const friends = ['Anne-Marie Dubois', 'Siobhán O’Brien', 'Łukasz Nowak'];
    expect(shown.total).toBe(5);
    expect(shown.items.map((item) => item.name).sort()).toEqual(
      [...friends, referrerA.name, referrerB.name].sort(),
    );
    expect(shown.items.find((item) => item.memberId === referrerA.id)).toEqual({
      memberId: referrerA.id,
      name: referrerA.name,
      currentCents: referrerA.membership_price_cents - 3_000,
      newCents: referrerA.membership_price_cents,
      differenceCents: 3_000,
    });
    // Each friend gets their own $60 back ($5 for referee).
    for (const name of friends)
      expect(shown.items.find((item) => item.name === name)).toMatchObject({
        currentCents: 5_500,
        newCents: 6_000,
        differenceCents: 500,
      });
    expect(shown.monthlyDifferenceCents).toBe(3_000 + 1_500 + 3 * 500);
    // The other business overrode nothing.
    expect(await removalPreview(other)).toMatchObject({ total: 0, items: [] });
    const removed = (await owner.delete('/api/mindbody').expect(200)).body as MindbodyStatus;
    expect(removed.removal).toEqual({ autopaysRestored: shown.total, autopaysNotRestored: [] });
    expect(await removalPreview(owner)).toMatchObject({ total: 0, items: [] });
    expect((await mindbodyStatus(owner)).lastSyncBillsWritten).toBeUndefined();
  });
});
