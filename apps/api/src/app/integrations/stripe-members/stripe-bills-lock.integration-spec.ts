import type TestAgent from 'supertest/lib/agent';
import type Stripe from 'stripe';
import type { AuditLogPage, MemberRow, Page } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { waitFor } from '../../../../test/stub-servers';
import {
  delayingStripeProxy,
  sdkFor,
  startStripeSandbox,
  stripeRun,
  type DelayingStripeProxy,
  type RunningStripeSandbox,
} from '../../../../test/stripe-sandbox';
import { jobScope } from '../../platform/database/business-scope';
import { StripeMembersService } from './stripe-members.service';

jest.setTimeout(120_000);

const GYM_KEY = 'rk_test_galway_rowing_key';

/** The advisory locks of the bills lock's key as PostgreSQL holds and awaits them now. */
const BILLS_LOCKS = `SELECT granted FROM pg_locks
  WHERE locktype = 'advisory' AND objid = (hashtext($1)::bigint & 4294967295)::oid`;

/**
 * Issue 32: a webhook's bills and a confirmed sync of one business decide and write one at a time
 * (docs/decisions/stripe-bills-one-at-a-time.md). Both read the bills that change and write them
 * to Stripe; run together, both would read the same change and write it twice. Here the sync's
 * Stripe write is held in flight (a proxy in front of the stand-in) while a webhook's job asks to
 * write: it waits on the business's advisory lock in its own connection, then finds the bill
 * already written. Stand-in + real PostgreSQL.
 */
describe("a Stripe sync and a webhook's bills, one at a time (integration, stand-in)", () => {
  let stripe: RunningStripeSandbox;
  let proxy: DelayingStripeProxy;
  let admin: Stripe;
  let t: TestApp;
  let owner: TestAgent;
  let ownerIds: { businessId: string; actorUserId: string };
  let referrer: Stripe.Subscription;

  beforeAll(async () => {
    stripe = await startStripeSandbox({
      restrictedKeys: {
        [GYM_KEY]: { customer: 'read', subscription: 'write', coupon: 'write', invoice: 'read' },
      },
    });
    proxy = await delayingStripeProxy(stripe.url);
    admin = sdkFor(stripe);
    referrer = (await (
      await fetch(`${stripe.controlUrl}/members`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'zoe.darcy@example.com',
          name: 'Zoë D’Arcy-Nguyễn',
          amount: 6_000,
          currency: 'eur',
        }),
      })
    ).json()) as Stripe.Subscription;
    t = await createTestApp({ STRIPE_API_URL: proxy.url, THROTTLE_REFERRAL_LIMIT: '1000' });
    const signedUp = await t.signUp({ businessName: 'Galway Rowing' });
    owner = signedUp.agent;
    ownerIds = { businessId: signedUp.user.business.id, actorUserId: signedUp.user.id };
    await owner.put('/api/stripe-members/credentials').send({ apiKey: GYM_KEY }).expect(200);
    expect(await stripeRun(owner, 'import')).toMatchObject({ state: 'done', membersWritten: 1 });
    await owner
      .put('/api/stripe-members/discounts')
      .send({ discountOnReferralCents: 1_500 })
      .expect(200);
    // Ana-Sofía joins through Zoë's link and is approved: Zoë's bill should drop by €15.00.
    const page = (await owner.get('/api/members?search=zoe.darcy%40example.com').expect(200))
      .body as Page<MemberRow>;
    const link = (await owner.post(`/api/members/${page.items[0].id}/referral-link`).expect(201))
      .body as { code: string };
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: 'Ana-Sofía Castillo', email: 'ana-sofia@example.com' })
      .expect(201);
    const prospects = (await owner.get('/api/prospects').expect(200)).body as Page<{ id: string }>;
    await owner
      .post(`/api/prospects/${prospects.items[0].id}/approve`)
      .send({
        memberName: 'Ana-Sofía Castillo',
        memberEmail: 'ana-sofia@example.com',
        membershipPriceCents: 4_000,
        discountCents: 0,
      })
      .expect(201);
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await stripe?.close();
  });

  it('writes the bill once, with the right amount, when a webhook asks while a sync writes it', async () => {
    const preview = (await owner.get('/api/stripe-members/sync/preview').expect(200)).body as {
      items: { memberId: string; newCents: number }[];
      fingerprint: string;
    };
    expect(preview.items).toEqual([expect.objectContaining({ newCents: 6_000 - 1_500 })]);
    // The owner confirmed automatic sync before: a webhook's bills are written, not held.
    await t.dataSource.query(
      `UPDATE stripe_member_integrations SET automatic_sync = true WHERE business_id = $1`,
      [ownerIds.businessId],
    );
    const scope = jobScope(ownerIds);
    const service = t.app.get(StripeMembersService);
    const subscriptionWrite = `POST /v1/subscriptions/${referrer.id}`;
    proxy.delay.match = new RegExp(`^${subscriptionWrite}$`);
    proxy.delay.ms = 1_500;
    const lockKey = `stripe-members:${ownerIds.businessId}`;

    const sync = service.runSync(scope, {
      confirmed: { [preview.items[0].memberId]: preview.items[0].newCents },
      fingerprint: preview.fingerprint,
      automatic: true,
    });
    // The sync's write to Stripe is in flight, its lock held ...
    await waitFor(async () => proxy.seen.includes(subscriptionWrite) || null);
    let webhookSettled = false;
    const webhook = service.applyAccountChanges(scope).finally(() => (webhookSettled = true));
    // ... and the webhook's job waits for it in a connection of its own (read now, checked last).
    const locks = await waitFor(async () => {
      const rows = (await t.dataSource.query(BILLS_LOCKS, [lockKey])) as { granted: boolean }[];
      return rows.length === 2 || webhookSettled ? rows : null;
    });

    expect(await sync).toBe(1);
    expect(await webhook).toEqual({ held: 0, written: 0 });
    proxy.delay.ms = 0;

    // One write to Stripe, one bill in the audit log, and Stripe charges the right amount.
    expect(proxy.seen.filter((line) => line === subscriptionWrite)).toHaveLength(1);
    const written = (
      (await owner.get('/api/audit-log?kind=bill.written').expect(200)).body as AuditLogPage
    ).items;
    expect(written).toEqual([
      expect.objectContaining({
        before: { billing: 'Stripe', billCents: 6_000 },
        after: { billing: 'Stripe', billCents: 4_500 },
      }),
    ]);
    expect((await admin.invoices.createPreview({ subscription: referrer.id })).total).toBe(4_500);
    expect(locks.map((row) => row.granted).sort()).toEqual([false, true]);
    expect((await t.dataSource.query(BILLS_LOCKS, [lockKey])) as unknown[]).toEqual([]);
    expect(
      ((await owner.get('/api/stripe-members/sync/preview').expect(200)).body as { total: number })
        .total,
    ).toBe(0);
  });
});
