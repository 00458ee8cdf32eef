import type TestAgent from 'supertest/lib/agent';
import type { AuditEntry, AuditKind, AuditLogPage } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import { freePort } from '../../../../../test/local-daemon';
import {
  confirmedSync,
  deliverWebhook,
  reachStageFour,
  referThroughGrove,
  sandboxEnv,
  sandboxLogin,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';

jest.setTimeout(180_000);

/**
 * Issue 34 item 2 for Mindbody (docs/product.md#audit-log): connecting, the import, the owner's
 * sync and each bill it wrote (member, before → after), a membership a webhook ended (author
 * Mindbody) and the removal with the bills it put back, each in the audit log with its author.
 */
describe('Mindbody in the audit log (integration, sandbox)', () => {
  let sandbox: RunningSandbox;
  let t: TestApp;
  let owner: TestAgent;
  let ownerId: string;
  let businessId: string;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 30 });
    // Listening: Mindbody checks the webhook URL before it activates the subscription.
    const port = await freePort();
    t = await createTestApp({ ...sandboxEnv(sandbox), PUBLIC_ORIGIN: `http://127.0.0.1:${port}` });
    await t.app.listen(port, '127.0.0.1');
    const signed = await t.signUp({ firstName: 'Siobhán', lastName: "O'Brien" });
    owner = signed.agent;
    ownerId = signed.user.id;
    businessId = signed.user.business.id;
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  const entries = async (kind: AuditKind): Promise<AuditEntry[]> =>
    ((await owner.get(`/api/audit-log?kind=${kind}&pageSize=100`).expect(200)).body as AuditLogPage)
      .items;
  const referrerWithPrice = async (): Promise<{ id: string; name: string; price: number }> => {
    const [row] = (await t.dataSource.query(
      `SELECT id, name, membership_price_cents AS price FROM members
       WHERE business_id = $1 AND mindbody_client_id IS NOT NULL AND mindbody_autopay_cents IS NOT NULL
         AND mindbody_cancelled_at IS NULL AND mindbody_suspended_at IS NULL AND membership_price_cents >= 3000
       ORDER BY name LIMIT 1`,
      [businessId],
    )) as { id: string; name: string; price: number }[];
    return row;
  };

  it('records the connection and the import with the owner as author', async () => {
    await reachStageFour(owner, sandbox, {
      discountOnReferralCents: 1000,
      discountForRefereeCents: 500,
    });
    const [connected] = await entries('integration.connected');
    expect(connected).toMatchObject({
      actor: 'staff',
      authorUserId: ownerId,
      authorName: "Siobhán O'Brien",
      after: { integration: 'Mindbody', siteId: sandboxLogin(sandbox).siteId },
    });
    const [imported] = await entries('import.run');
    expect(imported).toMatchObject({
      authorName: "Siobhán O'Brien",
      after: { source: 'Mindbody', clients: 30 },
    }); // The wizard's discounts (issue 34): saved once from nothing, by the owner.
    const discounts = async () =>
      (await entries('settings.changed')).filter(
        (entry) => entry.after?.setting === 'Mindbody discounts',
      );
    expect(await discounts()).toEqual([
      expect.objectContaining({
        authorName: "Siobhán O'Brien",
        before: {
          setting: 'Mindbody discounts',
          discountOnReferralCents: null,
          discountForRefereeCents: null,
        },
        after: {
          setting: 'Mindbody discounts',
          discountOnReferralCents: 1000,
          discountForRefereeCents: 500,
        },
      }),
    ]);
    // A refused change records nothing; an unchanged save records nothing; a change only what moved.
    await owner.put('/api/mindbody/discounts').send({ discountOnReferralCents: 0 }).expect(400);
    await owner
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 1000, discountForRefereeCents: 500 })
      .expect(200);
    expect(await discounts()).toHaveLength(1);
    await owner
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 1000, discountForRefereeCents: 750 })
      .expect(200);
    const [changed] = await discounts();
    expect(changed).toMatchObject({
      before: { setting: 'Mindbody discounts', discountForRefereeCents: 500 },
      after: { setting: 'Mindbody discounts', discountForRefereeCents: 750 },
    });
    expect(changed?.after).not.toHaveProperty('discountOnReferralCents');
    await owner
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 1000, discountForRefereeCents: 500 })
      .expect(200);
  });

  it("records the owner's sync and each bill it wrote: member, before → after", async () => {
    const referrer = await referrerWithPrice();
    await referThroughGrove(owner, t, sandbox, referrer.id, {
      name: 'Zoë D’Arcy-Nguyễn',
      email: 'zoe.darcy@example.com',
      autopay: 60,
    });
    // The friend's client is found by the sync, which writes both bills (the friend's and the
    // referrer's). Her client's webhook sets off a sync of its own; the owner confirms the preview
    // once that one has settled and both bills show (a preview taken before would not match).
    await settled(owner);
    const deadline = Date.now() + 60_000;
    while (
      ((await owner.get('/api/mindbody/sync/preview').expect(200)).body as { total: number })
        .total !== 2
    ) {
      if (Date.now() > deadline) throw new Error('the preview never showed both bills');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await confirmedSync(owner);
    const done = await settled(owner);
    expect(done.processState).toMatch(/^completed /);
    expect(done.lastSyncBillsWritten).toBe(2);
    const bills = await entries('bill.written');
    expect(bills).toHaveLength(2);
    const mine = bills.find((entry) => entry.memberId === referrer.id);
    expect(mine).toMatchObject({
      authorName: "Siobhán O'Brien",
      memberName: referrer.name,
      before: { billing: 'Mindbody', billCents: referrer.price },
      after: { billing: 'Mindbody', billCents: referrer.price - 1_000 },
    });
    // The sync a webhook queued (the friend's new client) is Mindbody's, and wrote nothing.
    const synced = await entries('integration.synced');
    expect(synced.map((entry) => [entry.authorName, entry.after?.billsWritten])).toEqual(
      expect.arrayContaining([
        ["Siobhán O'Brien", 2],
        ['Mindbody', undefined],
      ]),
    );
    expect(synced.filter((entry) => entry.authorName === 'Grove')).toEqual([]);
  });

  it('records a membership a webhook ended with Mindbody as author, once', async () => {
    const [member] = (await t.dataSource.query(
      `SELECT id, name, mindbody_client_id FROM members
       WHERE business_id = $1 AND mindbody_client_id IS NOT NULL AND mindbody_cancelled_at IS NULL
       ORDER BY name DESC LIMIT 1`,
      [businessId],
    )) as { id: string; name: string; mindbody_client_id: string }[];
    for (const messageId of ['audit-cancel-1', 'audit-cancel-2'])
      expect(
        (
          await deliverWebhook(t, sandbox, {
            messageId,
            eventId: 'clientMembershipAssignment.cancelled',
            clientId: member.mindbody_client_id,
          })
        ).status,
      ).toBe(204);
    const ended = (await entries('member.updated')).filter((entry) => entry.memberId === member.id);
    expect(ended).toEqual([
      expect.objectContaining({
        actor: 'mindbody',
        authorUserId: null,
        authorName: 'Mindbody',
        memberName: member.name,
        before: { membership: 'running' },
        after: { membership: 'ended' },
      }),
    ]);
  });

  it('records the removal and each bill it put back', async () => {
    const before = (await entries('bill.written')).length;
    const restore = (await owner.get('/api/mindbody/removal/preview').expect(200)).body as {
      items: { memberId: string; currentCents: number; newCents: number }[];
    };
    expect(restore.items.length).toBeGreaterThan(0);
    await owner.delete('/api/mindbody').expect(200);
    const [removed] = await entries('integration.disconnected');
    expect(removed).toMatchObject({
      authorName: "Siobhán O'Brien",
      before: { integration: 'Mindbody' },
      after: { autopaysRestored: restore.items.length, autopaysNotRestored: 0 },
    });
    const bills = await entries('bill.written');
    expect(bills).toHaveLength(before + restore.items.length);
    for (const item of restore.items)
      expect(bills).toContainEqual(
        expect.objectContaining({
          memberId: item.memberId,
          before: { billing: 'Mindbody', billCents: item.currentCents },
          after: { billing: 'Mindbody', billCents: item.newCents },
        }),
      );
  });
});
