import type { AddressInfo } from 'node:net';
import type TestAgent from 'supertest/lib/agent';
import { MindbodyClient, signWebhookBody, type Client } from '@grove/api-mindbody';
import {
  emailKey,
  formatCents,
  MESSAGES,
  type MemberRow,
  type Page,
  type ProspectRow,
} from '@grove/contracts';
import type { TestApp } from '../../../../../test/test-app';
import { recipient, startSmtpCatcher, type SmtpCatcher } from '@grove/testing-smtp';
import { waitFor } from '../../../../../test/stub-servers';
import { MemberEmails } from '../../../member/member-emails/member-emails.service';
import {
  confirmedSync,
  createListeningApp,
  deliverWebhook,
  expectedImport,
  membershipEnded,
  membershipPriceCents,
  mindbodyStatus,
  referThroughGrove,
  sandboxEnv,
  sandboxLogin,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';

jest.setTimeout(180_000);

interface MemberDbRow {
  id: string;
  name: string;
  email: string;
  membership_price_cents: number;
  mindbody_client_id: string | null;
  referred_by_id: string | null;
}

describe('Mindbody integration (integration, against the in-process sandbox)', () => {
  let sandbox: RunningSandbox;
  let t: TestApp;
  let owner: TestAgent;
  let ownerBusinessId: string;
  let other: TestAgent;
  let smtp: SmtpCatcher;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 2_500, webhookRetryDelayMs: 50 });
    smtp = await startSmtpCatcher();
    // Listen on a real port so the sandbox can deliver webhooks to the subscription URL (PUBLIC_ORIGIN).
    t = await createListeningApp({ ...sandboxEnv(sandbox), SMTP_URL: smtp.url });
    const signed = await t.signUp();
    owner = signed.agent;
    ownerBusinessId = signed.user.business.id;
    other = (await t.signUp({ businessName: 'Other Gym' })).agent;
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
    await smtp.close();
  });

  const members = async (businessId = ownerBusinessId): Promise<MemberDbRow[]> =>
    (await t.dataSource.query(
      `SELECT id, name, email, membership_price_cents, mindbody_client_id, referred_by_id FROM members WHERE business_id = $1`,
      [businessId],
    )) as MemberDbRow[];
  const listAll = async (agent: TestAgent): Promise<MemberRow[]> => {
    const rows: MemberRow[] = [];
    for (let page = 1; ; page++) {
      const reply = (await agent.get(`/api/members?pageSize=100&page=${page}`).expect(200))
        .body as Page<MemberRow>;
      rows.push(...reply.items);
      if (rows.length >= reply.total || reply.items.length === 0) return rows;
    }
  };
  const priceCents = (client: Client): number | null => membershipPriceCents(sandbox, client);

  it('starts at stage 1 with nothing set', async () => {
    expect(await mindbodyStatus(owner)).toEqual({
      stage: 1,
      siteId: null,
      discounts: null,
      processState: null,
      progress: null,
      lastSyncAt: null,
      invalidEmails: null,
    });
  });

  it('refuses missing or wrong credentials with "Invalid credentials provided"; the stage stays 1', async () => {
    const login = sandboxLogin(sandbox);
    for (const body of [
      { ...login, password: 'wrong-password' },
      { ...login, username: 'nobody@example.com' },
      { ...login, siteId: '12345' },
      { ...login, password: '' },
      { username: login.username, siteId: login.siteId },
      {},
    ]) {
      const reply = await owner.post('/api/mindbody/credentials').send(body).expect(400);
      expect(reply.body.message).toBe(MESSAGES.mindbodyInvalidCredentials);
    }
    expect((await mindbodyStatus(owner)).stage).toBe(1);
    const [row] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM mindbody_integrations`,
    )) as { n: number }[];
    expect(row.n).toBe(0);
  });

  it('will not import, save discounts or sync before the credentials', async () => {
    await owner.post('/api/mindbody/import').expect(409);
    await owner.put('/api/mindbody/discounts').send({ discountOnReferralCents: 1000 }).expect(409);
    await owner.post('/api/mindbody/sync').expect(409);
    expect((await mindbodyStatus(owner)).stage).toBe(1);
  });

  it('valid credentials give stage 2 and are stored encrypted, never returned', async () => {
    const login = sandboxLogin(sandbox);
    const reply = await owner.post('/api/mindbody/credentials').send(login).expect(200);
    expect(reply.body).toEqual({
      stage: 2,
      siteId: login.siteId,
      discounts: null,
      processState: null,
      progress: null,
      lastSyncAt: null,
      invalidEmails: null,
    });
    expect(JSON.stringify(reply.body)).not.toContain(login.password);
    const [row] = (await t.dataSource.query(
      `SELECT username, password_enc, staff_token_enc FROM mindbody_integrations WHERE business_id = $1`,
      [ownerBusinessId],
    )) as { username: string; password_enc: string; staff_token_enc: string }[];
    expect(row.username).toBe(login.username);
    expect(row.password_enc).not.toContain(login.password);
    expect(row.password_enc).toMatch(/^v1\./);
    expect(row.staff_token_enc).toMatch(/^v1\./);
  });

  it('another owner sees none of it and cannot import into it', async () => {
    expect((await mindbodyStatus(other)).stage).toBe(1);
    await other.post('/api/mindbody/import').expect(409);
    await t.agent().get('/api/mindbody').expect(401);
  });

  it('imports every client (inactive profiles too): members managed by Mindbody; ReferredBy is kept as each one’s referral source and makes nobody a branch or a prospect', async () => {
    // Holds the follow-up 'prices' job's first contract read (and so its first batch) for 3 s, so
    // the Branches rows can be seen before their prices are known.
    sandbox.control.addFault({ path: '/client/clientcontracts', latencyMs: 3_000, times: 1 });
    const started = await owner.post('/api/mindbody/import').expect(202);
    expect(started.body.processState).toBe('running');
    const done = await settled(owner);
    expect(done.processState).toMatch(/^completed \d{4}-\d\d-\d\dT/);
    expect(done.stage).toBe(3);
    expect(done.progress).toEqual({ done: 2_500, total: 2_500 });

    // Until the 'prices' job has read a member's contract, its row says the price is not known
    // (no misleading $0.00 as a price): every running membership on the first page is pending.
    const unpricedPage = (await owner.get('/api/members?pageSize=100').expect(200))
      .body as Page<MemberRow>;
    const endedIds = new Set(
      sandbox.control
        .clients()
        .filter(membershipEnded)
        .map((client) => `${client.FirstName} ${client.LastName}`),
    );
    const running = unpricedPage.items.filter((row) => !endedIds.has(row.memberName));
    expect(running.length).toBeGreaterThan(50);
    for (const row of running) {
      expect(row.membershipPricePending).toBe(true);
      expect(row.newPriceCents).toBe(0);
    }

    const clients = sandbox.control.clients();
    const expected = expectedImport(clients);
    const rows = await members();
    expect(rows).toHaveLength(expected.members.length);
    expect(rows.every((row) => row.mindbody_client_id !== null)).toBe(true);
    expect(new Set(rows.map((row) => emailKey(row.email)))).toEqual(expected.memberKeys);

    // Inactive profiles are read too (request.includeInactive=true), as ended memberships.
    const inactive = clients.filter((client) => !client.Active);
    expect(inactive.length).toBeGreaterThan(10);
    const keys = new Set(rows.map((row) => emailKey(row.email)));
    expect(inactive.every((client) => keys.has(emailKey(client.Email ?? '')))).toBe(true);

    // ReferredBy is a referral-source label ('Friend', 'Instagram'…): stored, never a link.
    const labelled = clients.filter((client) => !client.IsProspect && client.ReferredBy !== null);
    expect(labelled.length).toBeGreaterThan(500);
    const [{ n: sources }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM members WHERE business_id = $1 AND mindbody_referred_by IS NOT NULL`,
      [ownerBusinessId],
    )) as { n: number }[];
    expect(sources).toBe(labelled.length);
    expect(rows.filter((row) => row.referred_by_id !== null)).toEqual([]);
    const prospects = (await owner.get('/api/prospects?pageSize=100').expect(200))
      .body as Page<ProspectRow>;
    expect(prospects.total).toBe(0);
  });

  it("prices follow the import: each member's membership price becomes its membership's autopay amount before tax (the membership item of a contract with an add-on)", async () => {
    const clients = expectedImport(sandbox.control.clients()).members;
    const want = new Map(clients.map((client) => [client.Id, priceCents(client)]));
    const unpriced = async () =>
      (await members()).filter(
        (row) =>
          want.get(row.mindbody_client_id ?? '') !== null &&
          row.membership_price_cents !== want.get(row.mindbody_client_id ?? ''),
      ).length;
    const deadline = Date.now() + 60_000;
    while ((await unpriced()) > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await unpriced()).toBe(0);
    expect([...want.values()].filter((price) => price !== null).length).toBeGreaterThan(1_500);

    // The placeholder has become the price: no row is pending; each shows its membership's amount.
    const rows = (await listAll(owner)) as MemberRow[];
    expect(rows.filter((row) => row.membershipPricePending === true)).toEqual([]);
    const byEmail = new Map(clients.map((client) => [client.Email ?? '', client]));
    let shown = 0;
    for (const row of rows) {
      const client = byEmail.get(row.memberEmail);
      const price = client ? want.get(client.Id) : null;
      if (price === null || price === undefined) continue;
      expect(row.newPriceCents).toBe(price);
      shown += 1;
    }
    expect(shown).toBeGreaterThan(1_500);

    // A membership that has ended shows as such, not as a price (nor a $0.00 one).
    const ended = rows.filter((row) => {
      const client = byEmail.get(row.memberEmail);
      return client !== undefined && membershipEnded(client);
    });
    expect(ended.length).toBeGreaterThan(10);
    for (const row of ended) expect(row.membershipEnded).toBe(true);
    expect(rows.filter((row) => row.membershipEnded === true)).toHaveLength(ended.length);
  });

  it('shows Mindbody rows as managed at the unchanged price and refuses hand changes to them', async () => {
    const list = (await owner.get('/api/members?pageSize=5').expect(200)).body as Page<MemberRow>;
    const row = list.items[0];
    expect(row.managedByIntegration).toBe('Mindbody');
    expect(row.newPriceCents).toBe(row.membershipPriceCents);
    expect(row.discountCents).toBe(0);
    const branch = {
      memberName: 'New Friend',
      memberEmail: 'new.friend@example.com',
      membershipPriceCents: 5000,
      discountCents: 500,
    };
    const added = await owner.post(`/api/members/${row.id}/branches`).send(branch).expect(409);
    expect(added.body.message).toBe(MESSAGES.managedMemberLocked);
    await owner.delete(`/api/members/${row.id}`).expect(409);
    await owner.patch(`/api/members/${row.id}`).send({ memberName: 'Renamed' }).expect(409);
    // Tenancy: the other owner sees none of the imported members, prospects or status.
    expect(((await other.get('/api/members').expect(200)).body as Page<MemberRow>).total).toBe(0);
    expect(((await other.get('/api/prospects').expect(200)).body as Page<ProspectRow>).total).toBe(
      0,
    );
    expect((await mindbodyStatus(other)).stage).toBe(1);
    await other.get(`/api/members/${row.id}`).expect(404);
  });

  it('a second import changes nothing: no duplicates, no branches, no prospects', async () => {
    const before = await members();
    const prospectsBefore = (
      (await owner.get('/api/prospects').expect(200)).body as Page<ProspectRow>
    ).total;
    await owner.post('/api/mindbody/import').expect(202);
    const done = await settled(owner);
    expect(done.processState).toMatch(/^completed /);
    const after = await members();
    expect(after).toHaveLength(before.length);
    const sort = (rows: MemberDbRow[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
    expect(sort(after)).toEqual(sort(before));
    expect(((await owner.get('/api/prospects').expect(200)).body as Page<ProspectRow>).total).toBe(
      prospectsBefore,
    );
  });

  it('refuses invalid discounts with "Please provide valid values." and changes nothing', async () => {
    for (const body of [
      {},
      { discountOnReferralCents: 0 },
      { discountOnReferralCents: null },
      { discountOnReferralCents: -100 },
      { discountOnReferralCents: 'ten' },
      { discountOnReferralCents: '1000' },
      { discountOnReferralCents: 123.4 },
      { discountOnReferralCents: 1000, discountForRefereeCents: -100 },
      { discountOnReferralCents: 1000, discountForRefereeCents: 'x' },
      { discountOnReferralCents: 1000, discountForRefereeCents: null },
    ]) {
      const reply = await owner.put('/api/mindbody/discounts').send(body).expect(400);
      expect(reply.body.message).toBe(MESSAGES.mindbodyInvalidDiscounts);
    }
    const status = await mindbodyStatus(owner);
    expect(status.stage).toBe(3);
    expect(status.discounts).toBeNull();
    await owner.post('/api/mindbody/sync').expect(409);
  });

  it('saving discounts gives stage 4, shows the discount on Mindbody rows and subscribes to webhooks', async () => {
    const reply = await owner
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 1 })
      .expect(200);
    expect(reply.body.discounts).toEqual({
      discountOnReferralCents: 1,
      discountForRefereeCents: 0,
    });
    expect(reply.body.stage).toBe(4);
    const changed = await owner
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 1000, discountForRefereeCents: 550 })
      .expect(200);
    expect(changed.body.discounts).toEqual({
      discountOnReferralCents: 1_000,
      discountForRefereeCents: 550,
    });
    const row = ((await owner.get('/api/members?pageSize=1').expect(200)).body as Page<MemberRow>)
      .items[0];
    expect(row.discountCents).toBe(1_000);
    expect(row.newPriceCents).toBe(row.membershipPriceCents);

    const port = (t.app.getHttpServer().address() as AddressInfo).port;
    const subscriptions = await new MindbodyClient({
      baseUrl: sandbox.url,
      webhooksBaseUrl: sandbox.webhooksUrl,
      apiKey: sandbox.options.apiKey,
      siteId: sandbox.options.siteId,
    }).getSubscriptions();
    expect(subscriptions.items).toEqual([
      expect.objectContaining({
        status: 'Active',
        webhookUrl: `http://127.0.0.1:${port}/api/mindbody/webhooks`,
      }),
    ]);
  });

  it('Grove’s own referrals: friends who joined through managed members’ links are approved, created at the front desk, matched by email; the sync writes each discounted autopay amount (AutopayStartDate = the next autopay, ProductId for a contract with an add-on) once; a second sync writes nothing', async () => {
    // Six managed members each refer two friends through their Grove links.
    const referrers = (await members())
      .filter((row) => {
        const client = sandbox.control.clients().find((item) => item.Id === row.mindbody_client_id);
        return client && !membershipEnded(client) && priceCents(client) !== null;
      })
      .slice(0, 6);
    const friends: string[] = [];
    // No deliveries while the front desk adds them (each would queue a sync of its own): this
    // test runs the sync; the subscription is activated again at the end.
    const [subscription] = sandbox.control.subscriptions();
    sandbox.control.deactivateSubscription(subscription.subscriptionId, 'DeactivatedByUser');
    for (const [index, referrer] of referrers.entries())
      for (const n of [1, 2]) {
        const { clientId } = await referThroughGrove(owner, t, sandbox, referrer.id, {
          name: `Friend ${String.fromCharCode(65 + index)}${n === 1 ? 'one' : 'two'}`,
          email: `friend.${index}.${n}@example.com`,
          autopay: 60 + index,
        });
        friends.push(clientId ?? '');
      }
    // One referrer's contract bills an add-on and is taxed: the write names the membership item.
    const multi = sandbox.control
      .clients()
      .find(
        (client) =>
          referrers.some((row) => row.mindbody_client_id === client.Id) &&
          new Set(
            sandbox.control.contracts(client.Id)[0]?.UpcomingAutopayEvents.map((e) => e.ProductId),
          ).size > 1,
      );
    sandbox.control.clearAutopayWrites();
    await confirmedSync(owner);
    const done = await settled(owner);
    expect(done.processState).toMatch(/^completed /);
    expect(done.lastSyncAt).not.toBeNull();

    // Expected amounts from the sandbox's own data: referrers lose $10 per counting branch, branches $5.50.
    const expected = expectedImport(sandbox.control.clients());
    const rows = await members();
    const branchCount = new Map<string, number>();
    for (const row of rows)
      if (row.referred_by_id)
        branchCount.set(row.referred_by_id, (branchCount.get(row.referred_by_id) ?? 0) + 1);
    const want = new Map<string, number>();
    for (const client of expected.members) {
      const row = rows.find((item) => item.mindbody_client_id === client.Id);
      const price = client.Status === 'Active' ? row?.membership_price_cents : undefined;
      if (
        !row ||
        price === undefined ||
        sandbox.control.contracts(client.Id).every((c) => c.AutopayStatus !== 'Active')
      )
        continue;
      const amount = Math.max(
        0,
        price - 1_000 * (branchCount.get(row.id) ?? 0) - (row.referred_by_id ? 550 : 0),
      );
      if (amount !== price) want.set(client.Id, amount);
    }
    expect(want.size).toBeGreaterThan(10);
    const writes = sandbox.control.autopayWrites();
    expect(
      new Map(writes.map((write) => [write.ClientId, Math.round(write.Amount * 100)])),
    ).toEqual(want);
    expect(writes).toHaveLength(want.size);
    // Every friend was matched by email and counts: each referrer's autopay dropped by $10 twice.
    for (const referrer of referrers)
      expect(want.get(referrer.mindbody_client_id ?? '')).toBe(
        (referrer.membership_price_cents ?? 0) - 2_000,
      );
    for (const friend of friends) expect(want.get(friend)).toBeDefined();
    // Each write starts at the contract's next autopay (Mindbody's AutopayStartDate).
    for (const write of writes) {
      const [contract] = sandbox.control.contracts(write.ClientId);
      const dates = contract.UpcomingAutopayEvents.map((event) => Date.parse(event.ScheduleDate));
      expect(Date.parse(write.AutopayStartDate)).toBe(Math.min(...dates));
    }
    // What Mindbody will charge next, read back after each write: the next date's ChargeAmounts
    // (tax and add-ons included), shown on the member's row.
    const byClientId = new Map(rows.map((row) => [row.mindbody_client_id, row.id]));
    for (const write of writes) {
      const [contract] = sandbox.control.contracts(write.ClientId);
      const next = Math.min(
        ...contract.UpcomingAutopayEvents.map((e) => Date.parse(e.ScheduleDate)),
      );
      const items = contract.UpcomingAutopayEvents.filter(
        (e) => Date.parse(e.ScheduleDate) === next,
      );
      const row = (await owner.get(`/api/members/${byClientId.get(write.ClientId)}`).expect(200))
        .body as MemberRow;
      expect(row.mindbodyNextCharge).toEqual({
        amountCents: Math.round(items.reduce((sum, item) => sum + item.ChargeAmount, 0) * 100),
        on: new Date(next).toISOString(),
      });
    }
    if (multi) {
      const write = writes.find((item) => item.ClientId === multi.Id);
      const [contract] = sandbox.control.contracts(multi.Id);
      const membershipItem = contract.UpcomingAutopayEvents.reduce((a, b) =>
        b.Subtotal > a.Subtotal ? b : a,
      );
      expect(write?.ProductId).toBe(membershipItem.ProductId);
    }

    // Mindbody forgets the staff token: Grove issues a new one from the stored credentials.
    sandbox.control.expireTokens();
    const issuedBefore =
      Object.entries(sandbox.control.requestCounts()).find(([key]) =>
        key.endsWith('/usertoken/issue'),
      )?.[1] ?? 0;
    await confirmedSync(owner);
    expect((await settled(owner)).processState).toMatch(/^completed /);
    expect(sandbox.control.autopayWrites()).toHaveLength(want.size);
    const issuedAfter =
      Object.entries(sandbox.control.requestCounts()).find(([key]) =>
        key.endsWith('/usertoken/issue'),
      )?.[1] ?? 0;
    expect(issuedAfter).toBeGreaterThan(issuedBefore);
    // The Branches screen still shows the unchanged membership price.
    const listed = await listAll(owner);
    const referrer = listed.find(
      (row) => row.branches > 0 && row.managedByIntegration === 'Mindbody',
    );
    expect(referrer?.newPriceCents).toBe(referrer?.membershipPriceCents);

    // An unchanged sync of the 2,500-client site makes only the client-page call (Mindbody bills
    // calls): no contract, purchase, token or autopay request.
    const counts = () => ({ ...sandbox.control.requestCounts() });
    const before = counts();
    await confirmedSync(owner);
    expect((await settled(owner)).processState).toMatch(/^completed /);
    const after = counts();
    const made = Object.fromEntries(
      Object.entries(after)
        .map(([key, n]) => [key, n - (before[key] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    );
    expect(made).toEqual({ 'GET /public/v6/client/clients': 1 });
    expect((await mindbodyStatus(owner)).mindbodyCalls?.lastRun).toBe(1);
    // Deliveries again (Mindbody checks the webhook URL with a HEAD first).
    await new MindbodyClient({
      baseUrl: sandbox.url,
      webhooksBaseUrl: sandbox.webhooksUrl,
      apiKey: sandbox.options.apiKey,
      siteId: sandbox.options.siteId,
    }).activateSubscription(subscription.subscriptionId);
  });

  it('a webhook with a bad signature gets 401 and changes nothing', async () => {
    const body = JSON.stringify({
      messageId: 'forged-1',
      eventId: 'client.updated',
      eventSchemaVersion: 1,
      eventInstanceOriginationDateTime: new Date().toISOString(),
      eventData: { siteId: Number(sandbox.options.siteId), clientId: '200001' },
    });
    for (const signature of [undefined, 'sha256=AAAA', signWebhookBody(body, 'not-the-key')]) {
      const request = t
        .agent()
        .post('/api/mindbody/webhooks')
        .set('Content-Type', 'application/json');
      if (signature) request.set('X-Mindbody-Signature', signature);
      await request.send(body).expect(401);
    }
    const [row] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM mindbody_webhook_messages`,
    )) as { n: number }[];
    expect(row.n).toBe(0);
  });

  it('a cancellation whose lapse email cannot be queued changes nothing and is not recorded, so Mindbody sends it again (issue 31 item 4)', async () => {
    const branch = (await members()).find(
      (row) => row.referred_by_id !== null && row.mindbody_client_id !== null,
    );
    if (!branch?.mindbody_client_id)
      throw new Error('no managed branch: the sync matched no friend');
    const send = jest
      .spyOn(t.app.get(MemberEmails), 'send')
      .mockRejectedValueOnce(new Error('the email queue is down'));
    try {
      const reply = await deliverWebhook(t, sandbox, {
        messageId: 'lapse-email-down-1',
        eventId: 'clientMembershipAssignment.cancelled',
        clientId: branch.mindbody_client_id,
      });
      expect(reply.status).toBeGreaterThanOrEqual(500);
      expect(send).toHaveBeenCalledWith(
        expect.anything(),
        branch.referred_by_id,
        'branch-ended',
        expect.anything(),
        `branch-ended:${branch.id}`,
        expect.objectContaining({ manager: expect.anything() }),
      );
    } finally {
      send.mockRestore();
    }
    const after = (await members()).find((row) => row.id === branch.id);
    expect(after?.referred_by_id).toBe(branch.referred_by_id);
    const [row] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM mindbody_webhook_messages WHERE message_id = 'lapse-email-down-1'`,
    )) as { n: number }[];
    expect(row.n).toBe(0);
  });

  it('webhooks keep Grove in step: a renamed client is renamed; a cancelled branch stops counting, and the referrer’s bill waits for the owner (issue 31)', async () => {
    const rows = await members();
    const branch = rows.find(
      (row) => row.referred_by_id !== null && row.mindbody_client_id !== null,
    );
    const referrer = rows.find((row) => row.id === branch?.referred_by_id);
    if (!branch?.mindbody_client_id || !referrer?.mindbody_client_id)
      throw new Error('no managed branch: the sync matched no friend');
    const renamedId =
      rows.find((row) => row.referred_by_id === null && row.id !== referrer.id)
        ?.mindbody_client_id ?? '';
    sandbox.control.clearAutopayWrites();

    sandbox.control.updateClient(renamedId, { FirstName: 'Webhook' });
    sandbox.control.cancelMembership(branch.mindbody_client_id);
    await sandbox.control.flushWebhooks();
    expect(
      sandbox.control.deliveries().filter((delivery) => delivery.state === 'delivered').length,
    ).toBeGreaterThanOrEqual(2);

    const deadline = Date.now() + 30_000;
    let renamed: MemberDbRow | undefined;
    let status = await mindbodyStatus(owner);
    while (Date.now() < deadline) {
      renamed = (await members()).find((row) => row.mindbody_client_id === renamedId);
      status = await mindbodyStatus(owner);
      if (
        renamed?.name.startsWith('Webhook ') &&
        (await members()).find((row) => row.id === branch.id)?.referred_by_id === null &&
        status.pendingBills &&
        status.processState !== 'running'
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(renamed?.name.startsWith('Webhook ')).toBe(true);
    // Issue 31: the webhooks' syncs write no bill; the referrer's waits for the owner.
    expect(status.pendingBills?.count).toBeGreaterThanOrEqual(1);
    expect(sandbox.control.autopayWrites()).toEqual([]);
    await confirmedSync(owner);
    // The owner's sync has run once the held bills are gone (a webhook's sync still queued may
    // complete first, and 'completed' alone would be its).
    await waitFor(async () => {
      const now = await mindbodyStatus(owner);
      return !now.pendingBills && now.processState?.startsWith('completed ');
    }, 60_000);
    const writes = sandbox.control.autopayWrites();
    // The referrer's autopay goes back up by one referral discount (PreviousAmount is the written
    // item's: a referrer whose contract also bills the $10 add-on used to read +0 here).
    const write = writes.find((item) => item.ClientId === referrer.mindbody_client_id);
    expect(write).toBeDefined();
    expect(
      Math.round((write?.Amount ?? 0) * 100) - Math.round((write?.PreviousAmount ?? 0) * 100),
    ).toBe(1_000);
    const after = (await members()).find((row) => row.id === branch.id);
    expect(after?.referred_by_id).toBeNull();

    // The referrer is told once, with what Mindbody now bills them without that branch.
    const priceNow = Math.round((write?.Amount ?? 0) * 100);
    const subject = `${branch.name}’s membership ended: your price is back to ${formatCents(priceNow)}`;
    await waitFor(async () => smtp.emails.some((mail) => mail.subject === subject));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const told = smtp.emails.filter((mail) => mail.subject?.includes('membership ended'));
    expect(told.map((mail) => [mail.subject, recipient(mail)])).toEqual([
      [subject, referrer.email],
    ]);
  });

  it('processes a redelivered message once', async () => {
    for (let i = 0; i < 3; i++) {
      const reply = await deliverWebhook(t, sandbox, {
        messageId: 'duplicate-message-1',
        eventId: 'client.updated',
        clientId: sandbox.control.clients()[0].Id,
      });
      expect(reply.status).toBe(204);
    }
    const [row] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM mindbody_webhook_messages WHERE message_id = 'duplicate-message-1'`,
    )) as { n: number }[];
    expect(row.n).toBe(1);
    await settled(owner);
  });

  it('remove integration: every overridden autopay restored and reported, stage 1, discounts cleared, subscription deleted, members kept as ordinary trees', async () => {
    const before = await members();
    const webhooksApi = new MindbodyClient({
      baseUrl: sandbox.url,
      webhooksBaseUrl: sandbox.webhooksUrl,
      apiKey: sandbox.options.apiKey,
      siteId: sandbox.options.siteId,
    });
    const [subscription] = (await webhooksApi.getSubscriptions()).items;
    expect(subscription).toBeDefined();

    // Mindbody failing to delete the subscription: 'Something went wrong', nothing changes.
    sandbox.control.addFault({
      path: `/subscriptions/${subscription.subscriptionId}`,
      method: 'DELETE',
      status: 500,
    });
    const failed = await owner.delete('/api/mindbody').expect(502);
    expect(failed.body.message).toBe(MESSAGES.mindbodySomethingWentWrong);
    sandbox.control.clearFaults();
    expect((await mindbodyStatus(owner)).stage).toBe(4);
    expect((await members()).every((row) => row.mindbody_client_id !== null)).toBe(true);
    await other.delete('/api/mindbody').expect(200);
    expect((await mindbodyStatus(owner)).stage).toBe(4);

    // Every autopay Grove overrode goes back to the member's own amount, from its next autopay.
    const overridden = (await t.dataSource.query(
      `SELECT mindbody_client_id, membership_price_cents FROM members
       WHERE business_id = $1 AND mindbody_client_id IS NOT NULL AND mindbody_cancelled_at IS NULL
         AND mindbody_autopay_cents IS NOT NULL AND mindbody_autopay_cents <> membership_price_cents`,
      [ownerBusinessId],
    )) as { mindbody_client_id: string; membership_price_cents: number }[];
    expect(overridden.length).toBeGreaterThan(10);
    sandbox.control.clearAutopayWrites();
    const reply = await owner.delete('/api/mindbody').expect(200);
    expect(reply.body).toEqual({
      stage: 1,
      siteId: null,
      discounts: null,
      processState: null,
      progress: null,
      lastSyncAt: null,
      invalidEmails: null,
      removal: { autopaysRestored: overridden.length, autopaysNotRestored: [] },
    });
    const restored = sandbox.control.autopayWrites();
    expect(
      new Map(restored.map((write) => [write.ClientId, Math.round(write.Amount * 100)])),
    ).toEqual(
      new Map(overridden.map((row) => [row.mindbody_client_id, row.membership_price_cents])),
    );
    // What Mindbody will charge for each membership is its own amount again.
    for (const row of overridden) {
      const client = sandbox.control.clients().find((item) => item.Id === row.mindbody_client_id);
      expect(client && priceCents(client)).toBe(row.membership_price_cents);
    }
    expect((await webhooksApi.getSubscriptions()).items).toEqual([]);
    const after = await members();
    expect(after).toHaveLength(before.length);
    expect(after.every((row) => row.mindbody_client_id === null)).toBe(true);
    const listed = (
      (await owner.get('/api/members?pageSize=3').expect(200)).body as Page<MemberRow>
    ).items;
    expect(listed.every((row) => row.managedByIntegration === null)).toBe(true);
    const prospects = (
      (await owner.get('/api/prospects?pageSize=3').expect(200)).body as Page<ProspectRow>
    ).items;
    expect(prospects.every((row) => row.managedByIntegration === null)).toBe(true);
    const [secrets] = (await t.dataSource.query(
      `SELECT password_enc, staff_token_enc, webhook_signature_key_enc FROM mindbody_integrations WHERE business_id = $1`,
      [ownerBusinessId],
    )) as Record<string, string | null>[];
    expect(secrets).toEqual({
      password_enc: null,
      staff_token_enc: null,
      webhook_signature_key_enc: null,
    });
    // A hand change to a former Mindbody member works now.
    await owner.patch(`/api/members/${listed[0].id}`).send({ discountCents: 300 }).expect(200);
  });
});
