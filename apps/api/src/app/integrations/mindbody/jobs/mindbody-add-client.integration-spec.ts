import type TestAgent from 'supertest/lib/agent';
import type { AuditEntry, AuditLogPage, MemberRow, Page } from '@grove/contracts';
import { MESSAGES } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import {
  reachStageFour,
  sandboxEnv,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';

jest.setTimeout(180_000);

/** A friend joining through a referral link, as the approval dialog then approves them. */
interface Friend {
  name: string;
  email: string;
}

/**
 * 'Add to Mindbody' at an approval (issue 33 item 4, docs/decisions/mindbody-add-client.md) on the
 * Mindbody sandbox: the friend is added as a client (or the client of their email linked), its Id
 * and UniqueId kept on the member; what Mindbody refuses, or what Grove cannot send, shows on the
 * member with a 'Try again'; another business sees and changes nothing.
 */
describe("'Add to Mindbody' at an approval (integration, sandbox)", () => {
  let sandbox: RunningSandbox;
  let t: TestApp;
  let owner: TestAgent;
  let ownerId: string;
  let businessId: string;
  let referrerId: string;
  let other: TestAgent;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 20 });
    t = await createTestApp(sandboxEnv(sandbox));
    const signed = await t.signUp({ firstName: 'Siobhán', lastName: "O'Brien" });
    owner = signed.agent;
    ownerId = signed.user.id;
    businessId = signed.user.business.id;
    await reachStageFour(owner, sandbox);
    const [referrer] = (await t.dataSource.query(
      `SELECT id FROM members WHERE business_id = $1 AND mindbody_client_id IS NOT NULL
         AND mindbody_cancelled_at IS NULL ORDER BY name LIMIT 1`,
      [businessId],
    )) as { id: string }[];
    referrerId = referrer.id;
    other = (await t.signUp({ firstName: 'Ana-Sofía', lastName: 'Reyes' })).agent;
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  /** Expects `request` to answer `status` with `message`. */
  const refused = async (
    request: PromiseLike<{ status: number; body: { message?: string } }>,
    status: number,
    message: string,
  ) => {
    const answer = await request;
    expect([answer.status, answer.body.message]).toEqual([status, message]);
  };
  /** The friend joins through a link of `referrer` of `agent`'s business; → the prospect's id. */
  const join = async (agent: TestAgent, referrer: string, friend: Friend): Promise<string> => {
    const link = (await agent.post(`/api/members/${referrer}/referral-link`).expect(201)).body as {
      code: string;
    };
    await t.agent().post(`/api/referrals/${link.code}/join`).send(friend).expect(201);
    const queued = (await agent.get('/api/prospects?pageSize=100').expect(200)).body as Page<{
      id: string;
      email: string;
    }>;
    const prospect = queued.items.find((item) => item.email === friend.email);
    if (!prospect) throw new Error(`${friend.email} was not queued`);
    return prospect.id;
  };
  const approval = (friend: Friend, extra: Record<string, unknown> = { addToMindbody: true }) => ({
    memberName: friend.name,
    memberEmail: friend.email,
    membershipPriceCents: 8_900,
    discountCents: 0,
    ...extra,
  });
  /** Approves with 'Add to Mindbody'; → the new member's row. */
  const approveIntoMindbody = async (friend: Friend): Promise<MemberRow> => {
    const prospectId = await join(owner, referrerId, friend);
    return (
      await owner.post(`/api/prospects/${prospectId}/approve`).send(approval(friend)).expect(201)
    ).body as MemberRow;
  };
  const row = async (memberId: string): Promise<MemberRow> =>
    (await owner.get(`/api/members/${memberId}`).expect(200)).body as MemberRow;
  /** Waits until the member's job is done: linked to a client, or failed. */
  const settledRow = async (memberId: string, timeoutMs = 60_000): Promise<MemberRow> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const now = await row(memberId);
      if (now.mindbodyClientRequest?.state !== 'pending') return now;
      if (Date.now() > deadline) throw new Error(`still pending: ${JSON.stringify(now)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const stored = async (memberId: string) =>
    (
      (await t.dataSource.query(
        `SELECT mindbody_client_id AS "clientId", mindbody_unique_id AS "uniqueId" FROM members WHERE id = $1`,
        [memberId],
      )) as { clientId: string | null; uniqueId: number | null }[]
    )[0];
  const clientsWithEmail = (email: string) =>
    sandbox.control
      .site(sandbox.options.siteId)
      .clients()
      .filter((client) => client.Email?.toLowerCase() === email.toLowerCase());
  const addClientCalls = () => sandbox.control.operationCounts().addClient ?? 0;
  const clientAddedEntries = async (): Promise<AuditEntry[]> =>
    (
      (await owner.get('/api/audit-log?kind=integration.client_added&pageSize=100').expect(200))
        .body as AuditLogPage
    ).items;

  it("lists the site's referral types and keeps the owner's pick, refusing one the site lacks", async () => {
    const listed = (await owner.get('/api/mindbody/referral-types').expect(200)).body;
    expect(listed).toEqual({
      referralTypes: expect.arrayContaining(['Friend', 'Walk-in']),
      selected: null,
    });
    await refused(
      owner.put('/api/mindbody/referral-type').send({ referralType: 'Billboard' }),
      400,
      MESSAGES.mindbodyReferralTypeUnknown,
    );
    for (const body of [{}, { referralType: '' }, { referralType: 7 }])
      expect(
        (await owner.put('/api/mindbody/referral-type').send(body).expect(400)).body.message,
      ).toBe(MESSAGES.mindbodyReferralTypeUnknown);
    expect((await owner.get('/api/mindbody/referral-types').expect(200)).body.selected).toBeNull();
    const saved = (
      await owner.put('/api/mindbody/referral-type').send({ referralType: 'Friend' }).expect(200)
    ).body;
    expect(saved.selected).toBe('Friend');
    expect((await owner.get('/api/mindbody/referral-types').expect(200)).body.selected).toBe(
      'Friend',
    );
  });

  it('adds the friend as a Mindbody client with the referral type, keeps its Id and UniqueId, and audits it', async () => {
    const friend = { name: "Zoë D'Arcy-Nguyễn", email: 'zoe.darcy@example.com' };
    const before = addClientCalls();
    const approved = await approveIntoMindbody(friend);
    expect(approved.mindbodyClientRequest).toEqual({ state: 'pending' });
    const done = await settledRow(approved.id);
    expect(done.mindbodyClientRequest).toBeUndefined();
    expect(done.managedByIntegration).toBe('Mindbody');
    const [client] = clientsWithEmail(friend.email);
    expect(client).toMatchObject({
      FirstName: 'Zoë',
      LastName: "D'Arcy-Nguyễn",
      ReferredBy: 'Friend',
    });
    expect(await stored(approved.id)).toEqual({ clientId: client.Id, uniqueId: client.UniqueId });
    expect(addClientCalls()).toBe(before + 1);
    const entry = (await clientAddedEntries()).find((e) => e.memberId === approved.id);
    expect(entry).toMatchObject({
      authorUserId: ownerId,
      memberName: friend.name,
      after: { integration: 'Mindbody', clientId: client.Id, client: 'added' },
    });
  });

  it('links the client a timed-out AddClient did make instead of adding it twice', async () => {
    const friend = { name: 'Ngozi Okonkwo-Adebayo', email: 'ngozi.ok@example.com' };
    // Mindbody adds the client, and its reply is lost: the job retries and looks the email up.
    sandbox.control.addFault({
      path: '/client/addclient',
      drop: true,
      afterHandling: true,
      times: 1,
    });
    const approved = await approveIntoMindbody(friend);
    const done = await settledRow(approved.id, 90_000);
    expect(done.managedByIntegration).toBe('Mindbody');
    const clients = clientsWithEmail(friend.email);
    expect(clients).toHaveLength(1);
    expect((await stored(approved.id)).clientId).toBe(clients[0].Id);
  });

  it('links a friend who already is a Mindbody client (by email) and adds no one', async () => {
    const friend = { name: "Ben O'Connor", email: 'Ben.OConnor@example.com' };
    const existing = sandbox.control.addClient({
      FirstName: 'Benjamin',
      LastName: "O'Connor",
      Email: 'ben.oconnor@example.com',
    });
    const before = addClientCalls();
    const approved = await approveIntoMindbody(friend);
    const done = await settledRow(approved.id);
    expect(done.managedByIntegration).toBe('Mindbody');
    expect(await stored(approved.id)).toEqual({
      clientId: existing.Id,
      uniqueId: existing.UniqueId,
    });
    expect(addClientCalls()).toBe(before);
    expect(clientsWithEmail(friend.email)).toHaveLength(1);
    const entry = (await clientAddedEntries()).find((e) => e.memberId === approved.id);
    expect(entry?.after).toMatchObject({ client: 'existing client linked' });
  });

  it('reports a field Mindbody requires that Grove lacks on the member, and adds nothing', async () => {
    // One name only: Mindbody requires a last name.
    const friend = { name: 'Ana-Sofía', email: 'ana.sofia@example.com' };
    const before = addClientCalls();
    const approved = await approveIntoMindbody(friend);
    const done = await settledRow(approved.id);
    expect(done.mindbodyClientRequest).toEqual({
      state: 'failed',
      message: `${MESSAGES.mindbodyAddMissingFields} LastName. ${MESSAGES.mindbodyAddInMindbody}`,
    });
    expect(done.managedByIntegration).toBeNull();
    expect(addClientCalls()).toBe(before);
    expect(clientsWithEmail(friend.email)).toHaveLength(0);
    // 'Try again' runs the job again (it fails the same way); a member that did not fail is refused.
    await owner.post(`/api/mindbody/clients/${approved.id}/retry`).expect(204);
    expect((await settledRow(approved.id)).mindbodyClientRequest?.state).toBe('failed');
    await refused(
      owner.post(`/api/mindbody/clients/${referrerId}/retry`),
      409,
      MESSAGES.mindbodyAddNotFailed,
    );
  });

  it("shows Mindbody's refusal on the member, and 'Try again' adds them once the owner fixed it", async () => {
    // The site no longer lists the referral type the owner had picked.
    await t.dataSource.query(
      `UPDATE mindbody_integrations SET add_client_referral_type = 'Billboard' WHERE business_id = $1`,
      [businessId],
    );
    const friend = { name: 'Mei-Ling Zhāng', email: 'mei.ling@example.com' };
    const approved = await approveIntoMindbody(friend);
    const failed = await settledRow(approved.id);
    expect(failed.mindbodyClientRequest?.state).toBe('failed');
    expect(failed.mindbodyClientRequest?.message).toMatch(
      new RegExp(`^${MESSAGES.mindbodyAddRefused} .*Billboard`),
    );
    expect(clientsWithEmail(friend.email)).toHaveLength(0);
    await owner.put('/api/mindbody/referral-type').send({ referralType: 'Walk-in' }).expect(200);
    await owner.post(`/api/mindbody/clients/${approved.id}/retry`).expect(204);
    const done = await settledRow(approved.id);
    expect(done.managedByIntegration).toBe('Mindbody');
    expect(clientsWithEmail(friend.email)).toEqual([
      expect.objectContaining({ ReferredBy: 'Walk-in' }),
    ]);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const friend = { name: 'Aoife Ní Bhriain', email: 'aoife.nb@example.com' };
    const prospectId = await join(owner, referrerId, friend);
    const refused = await owner
      .post(`/api/prospects/${prospectId}/approve`)
      .send(approval(friend, { addToMindbody: 'yes' }))
      .expect(400);
    expect(refused.body.message).toBe(MESSAGES.mindbodyAddAsBoolean);
    const still = (await owner.get('/api/prospects?pageSize=100').expect(200)).body as Page<{
      id: string;
    }>;
    expect(still.items.map((item) => item.id)).toContain(prospectId);
    expect(clientsWithEmail(friend.email)).toHaveLength(0);
    await owner.post('/api/mindbody/clients/not-a-member/retry').expect(404);
  });

  it("keeps businesses apart: another business cannot retry this one's member, and without Mindbody its approval is refused whole", async () => {
    const [failed] = (await t.dataSource.query(
      `SELECT id FROM members WHERE business_id = $1 AND mindbody_add_state = 'failed' LIMIT 1`,
      [businessId],
    )) as { id: string }[];
    await other.post(`/api/mindbody/clients/${failed.id}/retry`).expect(404);
    expect((await row(failed.id)).mindbodyClientRequest?.state).toBe('failed');
    await refused(other.get('/api/mindbody/referral-types'), 409, MESSAGES.mindbodyAddNotConnected);
    await refused(
      other.put('/api/mindbody/referral-type').send({ referralType: 'Friend' }),
      409,
      MESSAGES.mindbodyAddNotConnected,
    );
    // The other business has no Mindbody: 'Add to Mindbody' rolls the whole approval back.
    const tree = (
      await other
        .post('/api/members')
        .send({
          memberName: 'Tomás Ó Briain',
          memberEmail: 'tomas.ob@example.com',
          membershipPriceCents: 7_000,
          discountCents: 1_000,
        })
        .expect(201)
    ).body as MemberRow;
    const friend = { name: 'Priya Raghunathan', email: 'priya.r@example.com' };
    const prospectId = await join(other, tree.id, friend);
    await refused(
      other.post(`/api/prospects/${prospectId}/approve`).send(approval(friend)),
      409,
      MESSAGES.mindbodyAddNotConnected,
    );
    const members = (await other.get('/api/members?pageSize=100').expect(200))
      .body as Page<MemberRow>;
    expect(members.items.map((item) => item.memberEmail)).not.toContain(friend.email);
    expect(clientsWithEmail(friend.email)).toHaveLength(0);
  });
});
