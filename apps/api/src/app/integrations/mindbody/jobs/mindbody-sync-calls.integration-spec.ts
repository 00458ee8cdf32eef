import type TestAgent from 'supertest/lib/agent';
import type { MemberRow, Page } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import {
  confirmedSync,
  deliverWebhook,
  membershipEnded,
  mindbodyStatus,
  referThroughGrove,
  requests,
  sandboxEnv,
  sandboxLogin,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';
import { freePort } from '../../../../../test/local-daemon';
import { MindbodyCrypto } from '../persistence/mindbody-crypto';
import { MindbodyModule } from '../mindbody.module';
import { MindbodySiteClient } from '../client/mindbody-site-client';
import { MetricsService } from '../../../platform/metrics/metrics.service';

jest.setTimeout(120_000);

/** Seeded clients of the sandbox (every running member has an autopay contract)… */
const CLIENTS = 600;
/** …plus clients added without a membership: members Grove prices as having no autopay contract. */
const WITHOUT_CONTRACT = 25;

/**
 * How many Mindbody calls a sync makes (docs/architecture.md#mindbody: a contract read is one request per client), as
 * the sandbox counts them: each client's contracts are read at most once per sync, members already
 * priced (also those without an autopay contract) are not read again, and one job run builds one
 * Mindbody client and decrypts the stored staff token once.
 */
describe('Mindbody sync: Mindbody calls per run (integration, against the in-process sandbox)', () => {
  let sandbox: RunningSandbox;
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;

  beforeAll(async () => {
    // The API listens only for Mindbody's HEAD check (activation); the subscription is then
    // stopped at the sandbox: the test posts the one delivery it needs itself.
    sandbox = await startMindbodySandbox({ port: 0, clientCount: CLIENTS, webhookAttempts: 1 });
    const port = await freePort();
    t = await createTestApp({ ...sandboxEnv(sandbox), PUBLIC_ORIGIN: `http://127.0.0.1:${port}` });
    await t.app.listen(port, '127.0.0.1');
    const signed = await t.signUp();
    owner = signed.agent;
    businessId = signed.user.business.id;
    for (let i = 0; i < WITHOUT_CONTRACT; i++)
      sandbox.control.addClient({
        FirstName: 'Walk',
        LastName: `In ${i}`,
        Email: `walk.in.${i}@example.com`,
      });
    await owner.post('/api/mindbody/credentials').send(sandboxLogin(sandbox)).expect(200);
    await owner.post('/api/mindbody/import').expect(202);
    expect((await settled(owner)).processState).toMatch(/^completed /);
    // The follow-up 'prices' job reads every member's contract; wait until it has priced them all.
    const deadline = Date.now() + 60_000;
    while ((await count(`mindbody_priced_at IS NULL`)) > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await count(`mindbody_priced_at IS NULL`)).toBe(0);
    await owner
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 1000, discountForRefereeCents: 500 })
      .expect(200);
    for (const { subscriptionId } of sandbox.control.subscriptions())
      sandbox.control.deactivateSubscription(subscriptionId, 'DeactivatedByUser');
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });
  afterEach(() => jest.restoreAllMocks());

  /** Running managed members of the business matching `where`. */
  async function count(where: string): Promise<number> {
    const [row] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM members
       WHERE business_id = $1 AND mindbody_client_id IS NOT NULL AND mindbody_cancelled_at IS NULL AND ${where}`,
      [businessId],
    )) as { n: number }[];
    return row.n;
  }

  /** Runs a sync; returns the sandbox requests it caused per Mindbody path. */
  async function sync(): Promise<{
    contracts: number;
    pages: number;
    tokens: number;
    purchases: number;
  }> {
    const before = {
      contracts: requests(sandbox, '/client/clientcontracts'),
      pages: requests(sandbox, '/client/clients'),
      tokens: requests(sandbox, '/usertoken/issue'),
      purchases: requests(sandbox, '/client/clientpurchases'),
    };
    await confirmedSync(owner);
    expect((await settled(owner)).processState).toMatch(/^completed /);
    return {
      contracts: requests(sandbox, '/client/clientcontracts') - before.contracts,
      pages: requests(sandbox, '/client/clients') - before.pages,
      tokens: requests(sandbox, '/usertoken/issue') - before.tokens,
      purchases: requests(sandbox, '/client/clientpurchases') - before.purchases,
    };
  }

  /** The Mindbody counters of a scrape: this business's requests, and getClients requests. */
  async function mindbodyMetrics(): Promise<{ business: number; getClients: number }> {
    const { body } = await t.app.get(MetricsService).scrape();
    const sample = (pattern: string) =>
      Number(new RegExp(`^${pattern} (\\S+)$`, 'm').exec(body)?.[1] ?? 0);
    return {
      business: sample(`grove_mindbody_business_requests_total\\{business="${businessId}"\\}`),
      getClients: sample('grove_mindbody_requests_total\\{operation="getClients"\\}'),
    };
  }

  const nonProspects = () => sandbox.control.clients().filter((client) => !client.IsProspect);
  const hasAutopay = (clientId: string) =>
    sandbox.control.contracts(clientId).some((contract) => contract.AutopayStatus === 'Active');

  it('lists a member without an autopay contract as such, not at $0.00 as if it were a price', async () => {
    const walkIns = (await owner.get('/api/members?search=walk.in&pageSize=100').expect(200))
      .body as Page<MemberRow>;
    expect(walkIns.items).toHaveLength(WITHOUT_CONTRACT);
    for (const row of walkIns.items) {
      expect(row.noAutopayContract).toBe(true);
      expect(row.newPriceCents).toBe(0);
      expect(row).not.toHaveProperty('membershipPricePending');
    }
    const priced = (await owner.get('/api/members?pageSize=100').expect(200))
      .body as Page<MemberRow>;
    const withAutopay = priced.items.filter((row) => row.membershipPriceCents > 0);
    expect(withAutopay.length).toBeGreaterThan(50);
    for (const row of withAutopay) expect(row).not.toHaveProperty('noAutopayContract');
  });

  /** The Grove member id of a Mindbody client of this business. */
  async function memberOf(clientId: string): Promise<string> {
    const [row] = (await t.dataSource.query(
      `SELECT id FROM members WHERE business_id = $1 AND mindbody_client_id = $2`,
      [businessId, clientId],
    )) as { id: string }[];
    return row.id;
  }

  it('the first sync reads every client’s contracts once (and reads back those it writes), over one client and one token decryption', async () => {
    // Twelve members each refer a friend through their Grove link (approved, then created at the
    // front desk): the sync matches each friend by email, and both autopays drop.
    const referrers = nonProspects()
      .filter((client) => !membershipEnded(client) && hasAutopay(client.Id))
      .slice(0, 12);
    for (const [index, referrer] of referrers.entries())
      await referThroughGrove(owner, t, sandbox, await memberOf(referrer.Id), {
        name: `Early Friend ${String.fromCharCode(65 + index)}`,
        email: `early.${index}@example.com`,
        autopay: 70,
      });
    const gateway = t.app.get(MindbodySiteClient);
    const crypto = t.app.select(MindbodyModule).get(MindbodyCrypto, { strict: true });
    const built = jest.spyOn(gateway, 'forSite');
    const opened = jest.spyOn(crypto, 'open');
    sandbox.control.clearAutopayWrites();

    const calls = await sync();

    const written = new Set(sandbox.control.autopayWrites().map((write) => write.ClientId));
    expect(written.size).toBeGreaterThan(10);
    // No last sync yet: every client is "changed"; each non-prospect's contracts once, and once
    // more for each it wrote (what Mindbody will now charge, read back).
    expect(calls.contracts).toBe(nonProspects().length + written.size);
    expect(calls.pages).toBe(Math.ceil((CLIENTS + WITHOUT_CONTRACT) / 200));
    expect(calls.tokens).toBe(0);
    // The business counts branches at approval: nobody's payments are asked for.
    expect(calls.purchases).toBe(0);
    // The run counted every call it made (Mindbody bills them): the wizard shows it.
    const status = await mindbodyStatus(owner);
    expect(status.mindbodyCalls?.lastRun).toBe(
      calls.contracts +
        calls.pages +
        calls.tokens +
        calls.purchases +
        sandbox.control.autopayWrites().length,
    );
    expect(status.mindbodyCalls?.thisMonth).toBeGreaterThan(status.mindbodyCalls?.lastRun ?? 0);
    // Every call of the run went through one client, with the stored token decrypted once.
    expect(built).toHaveBeenCalledTimes(1);
    expect(opened).toHaveBeenCalledTimes(1);
  });

  // Issue 22 (fewer paid calls): a sync used to re-read, every time, the contracts of every member
  // without an autopay contract; a contract event now marks the one client to read.
  it('a second sync with nothing changed makes no call beyond the client page, and writes nothing', async () => {
    const withoutAutopay = await count(
      `mindbody_autopay_cents IS NULL AND mindbody_cancelled_at IS NULL`,
    );
    expect(withoutAutopay).toBeGreaterThanOrEqual(WITHOUT_CONTRACT);
    sandbox.control.clearAutopayWrites();
    const metricsBefore = await mindbodyMetrics();

    const calls = await sync();

    expect(calls).toEqual({ contracts: 0, pages: 1, tokens: 0, purchases: 0 });
    // The metrics (issue 23.5) count the same call: for this business, and as a getClients.
    const metricsAfter = await mindbodyMetrics();
    expect(metricsAfter.business - metricsBefore.business).toBe(1);
    expect(metricsAfter.getClients - metricsBefore.getClients).toBe(1);
    expect(sandbox.control.autopayWrites()).toEqual([]);
    // The wizard counts the run's calls: the one client page.
    expect((await mindbodyStatus(owner)).mindbodyCalls?.lastRun).toBe(1);
  });

  it('a contract event re-reads that client’s contracts only: a walk-in buys a membership at the front desk (the profile unchanged), and the clientContract.updated delivery makes the next sync price them', async () => {
    const walkIn = sandbox.control.clients().find((client) => client.LastName === 'In 3');
    if (!walkIn) throw new Error('no walk-in');
    const sold = sandbox.control.sellMembership(walkIn.Id, 64);
    expect(sold).toMatchObject({ AutopayStatus: 'Active', NormalAutoPay: 64 });
    // Without the event the sync cannot tell: the client's profile did not change.
    expect((await sync()).contracts).toBe(0);

    const before = requests(sandbox, '/client/clientcontracts');
    const reply = await deliverWebhook(t, sandbox, {
      messageId: 'contract-event-1',
      eventId: 'clientContract.updated',
      clientId: walkIn.Id,
    });
    expect(reply.status).toBe(204);
    // The sync the delivery queued (or this one, whichever runs first: one at a time per
    // business) reads exactly that client's contracts, once.
    await sync();
    await sync();
    expect(requests(sandbox, '/client/clientcontracts') - before).toBe(1);
    const [row] = (await t.dataSource.query(
      `SELECT mindbody_autopay_cents, mindbody_contracts_stale FROM members
       WHERE business_id = $1 AND mindbody_client_id = $2`,
      [businessId, walkIn.Id],
    )) as { mindbody_autopay_cents: number | null; mindbody_contracts_stale: boolean }[];
    expect(row).toEqual({ mindbody_autopay_cents: 6_400, mindbody_contracts_stale: false });
  });

  it('a sync reads each changed client’s contracts once, and an unchanged one only when it writes its autopay', async () => {
    const running = nonProspects().filter(
      (client) => client.Status === 'Active' && client.Active && hasAutopay(client.Id),
    );
    const referrer = running.at(-1);
    const noContract = nonProspects().find(
      (client) => !hasAutopay(client.Id) && !membershipEnded(client),
    );
    if (!referrer || !noContract) throw new Error('the seed has no such clients');
    // Changed: a friend who joined through `referrer`'s Grove link and was approved is created at
    // the front desk (both autopays change), one member without a contract is renamed.
    // `referrer` itself is unchanged in Mindbody.
    const { clientId: newBranch } = await referThroughGrove(
      owner,
      t,
      sandbox,
      await memberOf(referrer.Id),
      { name: 'Nora Newbranch', email: 'nora.newbranch@example.com', autopay: 75 },
    );
    sandbox.control.updateClient(noContract.Id, { LastName: 'Renamed' });
    sandbox.control.clearAutopayWrites();
    const withoutAutopay = await count(
      `mindbody_autopay_cents IS NULL AND mindbody_cancelled_at IS NULL`,
    );

    const calls = await sync();

    const written = sandbox.control.autopayWrites().map((write) => write.ClientId);
    expect(written.sort()).toEqual([referrer.Id, newBranch].sort());
    // newBranch and noContract (changed) once each; referrer (unchanged) once, for its write; the
    // two it wrote once more, to read back what Mindbody will charge. No other member's.
    expect(withoutAutopay).toBeGreaterThan(1);
    expect(calls).toEqual({
      contracts: 3 + 2,
      pages: 1,
      tokens: 0,
      purchases: 0,
    });
  });

  it('under the first_payment rule a sync asks Mindbody about each pending branch with no known payment, once, and about nobody else', async () => {
    await owner
      .put('/api/settings/branches')
      .send({ rule: 'first_payment', days: null })
      .expect(200);
    // Branches already counting keep counting: the new rule asks nothing about them.
    const idle = await sync();
    expect(idle.purchases).toBe(0);
    const quinn = sandbox.control.addClient({
      FirstName: 'Quinn',
      LastName: 'Counter',
      Email: 'quinn@example.com',
      NormalAutoPay: 120,
    });
    expect((await sync()).purchases).toBe(0);
    // Four friends join through Quinn's Grove link, are approved, then created at the front desk.
    const friends: string[] = [];
    for (const n of ['One', 'Two', 'Three', 'Four'])
      friends.push(
        (
          await referThroughGrove(owner, t, sandbox, await memberOf(quinn.Id), {
            name: `Friend Number ${n}`,
            email: `friend.number.${n}@example.com`,
            autopay: 50,
          })
        ).clientId ?? '',
      );
    // The sync that brings them in asks about the four new pending branches at once.
    expect((await sync()).purchases).toBe(4);
    expect(await count(`referred_by_id IS NOT NULL AND branch_counting_since IS NULL`)).toBe(4);
    sandbox.control.recordPayment(friends[0]);

    const asked = await sync();
    expect(asked.purchases).toBe(4);
    expect(await count(`referred_by_id IS NOT NULL AND branch_counting_since IS NULL`)).toBe(3);
    // The friend who paid is not asked about again; the three others are, once per sync.
    expect((await sync()).purchases).toBe(3);
  });
});
