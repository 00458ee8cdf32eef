import type TestAgent from 'supertest/lib/agent';
import type { TestApp } from '../../../../test/test-app';
import {
  confirmedSync,
  closeSandboxApp,
  deliverWebhook,
  pricesSettled,
  referThroughGrove,
  sandboxLogin,
  settled,
  startSandboxApp,
  type RunningSandbox,
} from '../../../../test/mindbody-sandbox';
import { waitFor } from '../../../../test/stub-servers';
import { expectLedgersChained, factsOf, ledgerOf } from '../../../../test/lifecycle-facts';

jest.setTimeout(180_000);

interface ManagedRow {
  id: string;
  mindbody_client_id: string;
  referred_by_id: string | null;
  membership_price_cents: number;
  mindbody_autopay_cents: number | null;
  cancelled_at: string | null;
}

describe('lifecycle facts and the price ledger of the Mindbody import, sync and webhooks (integration, sandbox)', () => {
  let sandbox: RunningSandbox;
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;
  let otherBusinessId: string;
  /** The member whose autopay changed, and the branch cancelled by webhook, in the tests below. */
  let repricedId = '';
  let cancelledId = '';

  beforeAll(async () => {
    ({ sandbox, t } = await startSandboxApp(80));
    const signed = await t.signUp();
    owner = signed.agent;
    businessId = signed.user.business.id;
    otherBusinessId = (await t.signUp({ businessName: 'Other Gym' })).user.business.id;
  });
  afterAll(() => closeSandboxApp({ sandbox, t }));

  const managed = async (): Promise<ManagedRow[]> =>
    (await t.dataSource.query(
      `SELECT id, mindbody_client_id, referred_by_id, membership_price_cents, mindbody_autopay_cents,
         to_char(mindbody_cancelled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cancelled_at
       FROM members WHERE business_id = $1 AND mindbody_client_id IS NOT NULL`,
      [businessId],
    )) as ManagedRow[];
  const counts = async () => {
    const [row] = (await t.dataSource.query(
      `SELECT (SELECT count(*)::int FROM lifecycle_facts WHERE business_id = $1) AS facts,
              (SELECT count(*)::int FROM price_changes WHERE business_id = $1) AS lines`,
      [businessId],
    )) as { facts: number; lines: number }[];
    return row;
  };
  const sync = async () => {
    await confirmedSync(owner);
    expect((await settled(owner)).processState).toMatch(/^completed /);
  };
  const deliver = async (messageId: string, clientId: string): Promise<void> => {
    await deliverWebhook(t, sandbox, {
      messageId,
      eventId: 'clientMembershipAssignment.cancelled',
      clientId,
    }).then((reply) => expect(reply.status).toBe(204));
  };

  it('the import records member_added (import) for each member and member_ended for each ended one, and no branch or prospect (ReferredBy links nobody); each priced member starts its ledger at its price', async () => {
    await owner.post('/api/mindbody/credentials').send(sandboxLogin(sandbox)).expect(200);
    await owner.post('/api/mindbody/import').expect(202);
    expect((await settled(owner)).processState).toMatch(/^completed /);
    await pricesSettled(owner);
    const rows = await managed();
    const facts = await factsOf(t, businessId);
    const of = (kind: string) => facts.filter((fact) => fact.kind === kind);

    expect(
      of('member_added')
        .map((fact) => [fact.member_id, fact.source])
        .sort(),
    ).toEqual(rows.map((row) => [row.id, 'import']).sort());
    const ended = rows.filter((row) => row.cancelled_at !== null);
    expect(ended.length).toBeGreaterThan(0);
    expect(
      of('member_ended')
        .map((fact) => fact.event_key)
        .sort(),
    ).toEqual(ended.map((row) => `member_ended:${row.id}:${row.cancelled_at}`).sort());
    // The last branch fact of each member names its referrer today.
    const lastBranchFact = new Map<string, string | null>();
    for (const fact of facts) {
      if (fact.kind === 'branch_added') lastBranchFact.set(fact.member_id ?? '', fact.referrer_id);
      if (fact.kind === 'branch_removed') lastBranchFact.set(fact.member_id ?? '', null);
    }
    expect(rows.filter((row) => row.referred_by_id !== null)).toEqual([]);
    for (const row of rows) expect(lastBranchFact.get(row.id) ?? null).toBe(row.referred_by_id);
    const [{ n: prospects }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM prospects WHERE business_id = $1`,
      [businessId],
    )) as { n: number }[];
    expect(prospects).toBe(0);
    expect(of('branch_added')).toEqual([]);
    expect(of('prospect_joined')).toEqual([]);

    for (const row of rows.filter((item) => item.cancelled_at === null)) {
      const ledger = await ledgerOf(t, businessId, row.id);
      if (row.mindbody_autopay_cents === null) expect(ledger).toEqual([]);
      else
        expect(ledger).toEqual([
          {
            reason: 'member_added',
            old_price_cents: null,
            new_price_cents: row.membership_price_cents,
            membership_price_cents: row.membership_price_cents,
            branch_id: null,
          },
        ]);
    }
    await expectLedgersChained(t, businessId);
  });

  it('a second import of the same clients records nothing new', async () => {
    const before = await counts();
    await owner.post('/api/mindbody/import').expect(202);
    expect((await settled(owner)).processState).toMatch(/^completed /);
    await pricesSettled(owner);
    expect(await counts()).toEqual(before);
  });

  it('a sync with nothing changed records nothing; a changed autopay is one mindbody_sync line old → new', async () => {
    await owner
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 500, discountForRefereeCents: 200 })
      .expect(200);
    await sync();
    const before = await counts();
    await sync();
    expect(await counts()).toEqual(before);

    const rows = await managed();
    const plain = rows.find(
      (row) =>
        row.cancelled_at === null &&
        row.referred_by_id === null &&
        row.mindbody_autopay_cents !== null &&
        !rows.some((other) => other.referred_by_id === row.id),
    );
    if (!plain) throw new Error('no member without branches and referrer');
    repricedId = plain.id;
    const contract = sandbox.control
      .contracts(plain.mindbody_client_id)
      .find((item) => item.AutopayStatus === 'Active');
    if (!contract) throw new Error('no active contract');
    // A new price as Mindbody shows it: the contract's normal autopay and its upcoming charges.
    contract.NormalAutoPay += 12.5;
    for (const event of contract.UpcomingAutopayEvents) {
      event.Subtotal += 12.5;
      event.ChargeAmount += 12.5;
    }
    sandbox.control.updateClient(plain.mindbody_client_id, { FirstName: 'Repriced' });
    await sandbox.control.flushWebhooks();
    await sync();
    const newPrice = plain.membership_price_cents + 1_250;
    expect((await ledgerOf(t, businessId, plain.id)).slice(1)).toEqual([
      {
        reason: 'mindbody_sync',
        old_price_cents: plain.membership_price_cents,
        new_price_cents: newPrice,
        membership_price_cents: newPrice,
        branch_id: null,
      },
    ]);
    await sync();
    expect(await ledgerOf(t, businessId, plain.id)).toHaveLength(2);
  });

  it('a cancellation by webhook: member_ended and branch_removed once, its ledger ends at 0; a replay, a second cancellation message and the sync add nothing', async () => {
    // A branch through Grove's own loop: a friend joins through a priced member's link, is
    // approved, and is created at the front desk; the sync matches them by email.
    const referrer = (await managed()).find(
      (row) =>
        row.referred_by_id === null &&
        row.cancelled_at === null &&
        row.mindbody_autopay_cents !== null,
    );
    if (!referrer) throw new Error('no priced member');
    await referThroughGrove(owner, t, sandbox, referrer.id, {
      name: 'Carla Cancel',
      email: 'carla.cancel@example.com',
      autopay: 65,
    });
    await sandbox.control.flushWebhooks();
    await settled(owner);
    await sync();
    const rows = await managed();
    const branch = rows.find(
      (row) =>
        row.referred_by_id !== null &&
        row.cancelled_at === null &&
        row.mindbody_autopay_cents !== null &&
        rows.some(
          (other) => other.id === row.referred_by_id && other.mindbody_autopay_cents !== null,
        ),
    );
    if (!branch) throw new Error('the sync matched no priced branch');
    cancelledId = branch.id;
    const before = (await factsOf(t, businessId)).length;
    sandbox.control.cancelMembership(branch.mindbody_client_id);
    await sandbox.control.flushWebhooks();
    await waitFor(async () => (await factsOf(t, businessId)).length > before, 30_000);
    await settled(owner);
    await deliver('replayed-cancel', branch.mindbody_client_id);
    await deliver('replayed-cancel', branch.mindbody_client_id);
    await deliver('second-cancel', branch.mindbody_client_id);
    await sync();

    const after = (await managed()).find((row) => row.id === branch.id);
    const added = (await factsOf(t, businessId)).slice(before);
    expect(
      added
        .filter((fact) => fact.member_id === branch.id)
        .map((fact) => [fact.kind, fact.referrer_id, fact.source, fact.event_key]),
    ).toEqual([
      ['member_ended', null, 'mindbody', `member_ended:${branch.id}:${after?.cancelled_at}`],
      [
        'branch_removed',
        branch.referred_by_id,
        'mindbody',
        expect.stringMatching(`^branch_removed:${branch.id}:${branch.referred_by_id}:`),
      ],
    ]);
    // A branch paid its bill (its price less the discount for referee, 2 dollars, and 5 dollars
    // per branch of its own), then nothing.
    const ownBranches = rows.filter(
      (row) => row.referred_by_id === branch.id && row.cancelled_at === null,
    ).length;
    expect((await ledgerOf(t, businessId, branch.id)).at(-1)).toEqual({
      reason: 'membership_ended',
      old_price_cents: Math.max(0, branch.membership_price_cents - 200 - 500 * ownBranches),
      new_price_cents: 0,
      membership_price_cents: branch.membership_price_cents,
      branch_id: null,
    });
    // Its referrer's ledger names the branch twice: its discount on referral (5 dollars) when the
    // sync matched the friend's client and the branch started counting, and back when it ended.
    const referrerLines = (await ledgerOf(t, businessId, branch.referred_by_id ?? '')).filter(
      (line) => line.branch_id === branch.id,
    );
    expect(referrerLines).toEqual([
      expect.objectContaining({ reason: 'branch_counting', branch_id: branch.id }),
      expect.objectContaining({ reason: 'branch_removed', branch_id: branch.id }),
    ]);
    expect((referrerLines[0].new_price_cents ?? 0) - (referrerLines[0].old_price_cents ?? 0)).toBe(
      -500,
    );
    expect((referrerLines[1].new_price_cents ?? 0) - (referrerLines[1].old_price_cents ?? 0)).toBe(
      500,
    );
    await expectLedgersChained(t, businessId);
  });

  it('remove integration: released members keep their shown price (no line); the ended membership runs again at its price', async () => {
    const repriced = await ledgerOf(t, businessId, repricedId);
    await owner.delete('/api/mindbody').expect(200);
    expect(await ledgerOf(t, businessId, repricedId)).toEqual(repriced);
    const [released] = (await t.dataSource.query(
      `SELECT membership_price_cents, discount_cents FROM members WHERE id = $1`,
      [cancelledId],
    )) as { membership_price_cents: number; discount_cents: number }[];
    expect(released?.discount_cents).toBe(0);
    expect((await ledgerOf(t, businessId, cancelledId)).at(-1)).toEqual({
      reason: 'mindbody_sync',
      old_price_cents: 0,
      new_price_cents: released?.membership_price_cents,
      membership_price_cents: released?.membership_price_cents,
      branch_id: null,
    });
    await expectLedgersChained(t, businessId);
  });

  it('every fact is the business’s own: no key twice, and the other business has none', async () => {
    const duplicated = (await t.dataSource.query(
      `SELECT event_key FROM lifecycle_facts GROUP BY business_id, event_key HAVING count(*) > 1`,
    )) as unknown[];
    expect(duplicated).toEqual([]);
    expect(await factsOf(t, otherBusinessId)).toEqual([]);
    const foreign = (await t.dataSource.query(
      `SELECT f.id FROM lifecycle_facts f JOIN members m ON m.id IN (f.member_id, f.referrer_id)
       WHERE m.business_id <> f.business_id`,
    )) as unknown[];
    expect(foreign).toEqual([]);
  });
});
