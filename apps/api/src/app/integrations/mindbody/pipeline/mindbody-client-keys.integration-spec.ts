import type TestAgent from 'supertest/lib/agent';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import { freePort } from '../../../../../test/local-daemon';
import {
  confirmedSync,
  deliverWebhook,
  reachStageFour,
  referThroughGrove,
  sandboxEnv,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';

jest.setTimeout(120_000);

interface Row {
  id: string;
  name: string;
  mindbody_client_id: string | null;
  mindbody_unique_id: number | null;
  mindbody_referred_by: string | null;
  referred_by_id: string | null;
}

/**
 * Who a Mindbody client is to Grove (issue 22): `Client.ReferredBy` is a referral-source label that
 * Grove stores and never turns into a branch, whatever it says; a client is kept by its
 * `UniqueId` when the business gives it a new `Id`.
 */
describe('Mindbody clients: ReferredBy labels and the UniqueId key (integration, sandbox)', () => {
  let sandbox: RunningSandbox;
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 40, webhookAttempts: 1 });
    // The API answers Mindbody's HEAD check (activation); the subscription is then stopped at the
    // sandbox: the test posts the one delivery it needs itself.
    const port = await freePort();
    t = await createTestApp({ ...sandboxEnv(sandbox), PUBLIC_ORIGIN: `http://127.0.0.1:${port}` });
    await t.app.listen(port, '127.0.0.1');
    const signed = await t.signUp({ businessName: 'Label Gym' });
    owner = signed.agent;
    businessId = signed.user.business.id;
    const add = (first: string, last: string, referredBy: string | null) =>
      ids.set(
        `${first} ${last}`,
        sandbox.control.addClient({
          FirstName: first,
          LastName: last,
          Email: `${first.toLowerCase()}.${last.toLowerCase()}@example.com`,
          NormalAutoPay: 80,
          ReferredBy: referredBy,
        }).Id,
      );
    add('Olivia', 'Smith', null);
    // Old data may hold a person's name in ReferredBy; a real site holds referral types.
    add('Jack', 'Brown', 'Olivia Smith');
    add('Ana', 'Label', 'Friend');
    add('Ben', 'Insta', 'Instagram');
    add('Kim', 'Kept', null);
    add('Rex', 'Removed', null);
    await reachStageFour(owner, sandbox, {
      discountOnReferralCents: 1000,
      discountForRefereeCents: 0,
    });
    for (const { subscriptionId } of sandbox.control.subscriptions())
      sandbox.control.deactivateSubscription(subscriptionId, 'DeactivatedByUser');
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  const rows = async (): Promise<Row[]> =>
    (await t.dataSource.query(
      `SELECT id, name, mindbody_client_id, mindbody_unique_id, mindbody_referred_by, referred_by_id
       FROM members WHERE business_id = $1 ORDER BY name`,
      [businessId],
    )) as Row[];
  const row = async (name: string): Promise<Row> =>
    (await rows()).find((item) => item.name === name) as Row;
  const sync = async () => {
    await confirmedSync(owner);
    expect((await settled(owner)).processState).toMatch(/^completed /);
  };
  const branchFacts = async (): Promise<number> => {
    const [{ n }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM lifecycle_facts WHERE business_id = $1 AND kind = 'branch_added'`,
      [businessId],
    )) as { n: number }[];
    return n;
  };

  it('ReferredBy labels never create a branch, not even one that reads like a member’s name; each is stored as the member’s referral source, and a branch Grove made stays through syncs', async () => {
    const olivia = await row('Olivia Smith');
    const friend = await referThroughGrove(owner, t, sandbox, olivia.id, {
      name: 'Fay Friend',
      email: 'fay.friend@example.com',
      autopay: 70,
    });
    await sync();
    await sync();

    expect(await row('Jack Brown')).toMatchObject({
      referred_by_id: null,
      mindbody_referred_by: 'Olivia Smith',
    });
    expect(await row('Ana Label')).toMatchObject({
      referred_by_id: null,
      mindbody_referred_by: 'Friend',
    });
    expect(await row('Ben Insta')).toMatchObject({
      referred_by_id: null,
      mindbody_referred_by: 'Instagram',
    });
    // Shown as the member's referral source.
    const jack = (await owner.get(`/api/members/${(await row('Jack Brown')).id}`).expect(200))
      .body as { mindbodyReferralSource?: string; referringMemberId: string | null };
    expect(jack).toMatchObject({ mindbodyReferralSource: 'Olivia Smith', referringMemberId: null });
    // The only branch is the one Grove's loop made (join link, approval), matched by email.
    expect((await rows()).filter((item) => item.referred_by_id !== null)).toEqual([
      expect.objectContaining({
        id: friend.memberId,
        mindbody_client_id: friend.clientId,
        referred_by_id: olivia.id,
      }),
    ]);
    expect(await branchFacts()).toBe(1);
    // Olivia's autopay dropped by the one counting branch.
    const [contract] = sandbox.control.contracts(ids.get('Olivia Smith') ?? '');
    expect(contract.NormalAutoPay).toBe(70);
    // Changing a label changes the source, still links nobody.
    sandbox.control.updateClient(ids.get('Ana Label') ?? '', { ReferredBy: 'Olivia Smith' });
    await sync();
    expect(await row('Ana Label')).toMatchObject({
      referred_by_id: null,
      mindbody_referred_by: 'Olivia Smith',
    });
    expect(await branchFacts()).toBe(1);
  });

  it('keeps a client by its UniqueId through an Id renumber: the same member (its branch, its ledger), now under the new Id, and the next autopay write goes to it', async () => {
    const before = await row('Olivia Smith');
    const count = (await rows()).length;
    const client = sandbox.control.clients().find((item) => item.Id === before.mindbody_client_id);
    expect(before.mindbody_unique_id).toBe(client?.UniqueId);
    const renumbered = sandbox.control.renumberClient(before.mindbody_client_id ?? '', 'GYM-0042');
    expect(renumbered).toMatchObject({ Id: 'GYM-0042', UniqueId: client?.UniqueId });

    await sync();
    const after = await row('Olivia Smith');
    expect(after).toEqual({ ...before, mindbody_client_id: 'GYM-0042' });
    expect(await rows()).toHaveLength(count);
    const [{ n: added }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM lifecycle_facts WHERE business_id = $1 AND kind = 'member_added' AND member_id = $2`,
      [businessId, before.id],
    )) as { n: number }[];
    expect(added).toBe(1);
    expect((await rows()).filter((item) => item.referred_by_id === before.id)).toHaveLength(1);

    // A larger discount: the write reaches the renumbered client's contract.
    sandbox.control.clearAutopayWrites();
    await owner
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 1500, discountForRefereeCents: 0 })
      .expect(200);
    await sync();
    expect(sandbox.control.autopayWrites()).toEqual([
      expect.objectContaining({ ClientId: 'GYM-0042', Amount: 65 }),
    ]);
  });

  it('keeps two clients apart when the business swaps their Ids: each member stays on its own UniqueId and the sync completes', async () => {
    const ana = await row('Ana Label');
    const ben = await row('Ben Insta');
    const count = (await rows()).length;
    const anaId = ana.mindbody_client_id ?? '';
    const benId = ben.mindbody_client_id ?? '';
    // Mindbody lets staff edit a client's Id; a swap goes through a free Id.
    sandbox.control.renumberClient(anaId, 'SWAP-TMP');
    sandbox.control.renumberClient(benId, anaId);
    sandbox.control.renumberClient('SWAP-TMP', benId);

    await sync();
    expect(await row('Ana Label')).toEqual({ ...ana, mindbody_client_id: benId });
    expect(await row('Ben Insta')).toEqual({ ...ben, mindbody_client_id: anaId });
    expect(await rows()).toHaveLength(count);
    // Nothing left under a stand-in Id.
    expect((await rows()).filter((item) => item.mindbody_client_id?.startsWith('~'))).toEqual([]);
  });

  it('keeps the kept profile by its UniqueId through a profile merge, and ends the member of the profile merged away', async () => {
    const kept = await row('Kim Kept');
    const removed = await row('Rex Removed');
    const count = (await rows()).length;
    const merged = sandbox.control.mergeClients(
      kept.mindbody_client_id ?? '',
      removed.mindbody_client_id ?? '',
    );
    expect(merged).toMatchObject({
      Id: kept.mindbody_client_id,
      UniqueId: kept.mindbody_unique_id,
    });
    const reply = await deliverWebhook(t, sandbox, {
      messageId: 'merge-1',
      eventId: 'clientProfileMerger.created',
      clientId: kept.mindbody_client_id ?? '',
      eventData: {
        keptClientId: kept.mindbody_client_id,
        keptClientUniqueId: kept.mindbody_unique_id,
        removedClientId: removed.mindbody_client_id,
        removedClientUniqueId: removed.mindbody_unique_id,
      },
    });
    expect(reply.status).toBe(204);
    await settled(owner);
    await sync();

    expect(await rows()).toHaveLength(count);
    expect(await row('Kim Kept')).toEqual(kept);
    const [ended] = (await t.dataSource.query(
      `SELECT mindbody_cancelled_at IS NOT NULL AS ended FROM members WHERE id = $1`,
      [removed.id],
    )) as { ended: boolean }[];
    expect(ended.ended).toBe(true);
    const listed = (await owner.get(`/api/members/${removed.id}`).expect(200)).body as {
      membershipEnded?: boolean;
    };
    expect(listed.membershipEnded).toBe(true);
  });
});
