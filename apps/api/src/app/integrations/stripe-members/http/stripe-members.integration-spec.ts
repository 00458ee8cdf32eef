import { randomUUID } from 'node:crypto';
import type TestAgent from 'supertest/lib/agent';
import type Stripe from 'stripe';
import {
  MESSAGES,
  type AuditEntry,
  type AuditKind,
  type AuditLogPage,
  type MemberRow,
  type Page,
} from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import { jobScope } from '../../../platform/database/business-scope';
import {
  STRIPE_RUN_INTERRUPTED,
  StripeMemberRunsService,
} from '../jobs/stripe-member-runs.service';
import { StripeMemberRunsRepository } from '../persistence/stripe-member-runs.repository';
import { waitFor } from '../../../../../test/stub-servers';
import {
  sdkFor,
  startStripeSandbox,
  stripeRun,
  type RunningStripeSandbox,
} from '../../../../../test/stripe-sandbox';

jest.setTimeout(120_000);

/** The restricted key docs/decisions/stripe-member-billing.md asks a gym for. */
const GYM_KEY = 'rk_test_harbour_fitness_key';
/** A restricted key without Coupons (and Customers). */
const NARROW_KEY = 'rk_test_harbour_subscriptions_only';

interface Status {
  connected: boolean;
  keyLast4: string | null;
  discountOnReferralCents: number | null;
  subscriptions: number;
  discountedSubscriptions: number;
  lastSyncBillsWritten: number | null;
  run: Record<string, unknown> | null;
}
interface BillChanges {
  items: {
    memberId: string;
    name: string;
    currency: string;
    currentCents: number;
    newCents: number;
    differenceCents: number;
  }[];
  total: number;
  monthlyDifferenceCents: number;
  fingerprint: string;
}

/**
 * Issue 32: a gym that bills its members on Stripe connects a restricted key, imports its
 * customers with active subscriptions as members, previews the bills a sync changes, confirms, and
 * the referral discount lands on the real subscription as an `amount_off`, `duration: forever`
 * coupon in its currency; disconnecting takes Grove's discounts off and reports the count. Against
 * the Stripe stand-in on the real PostgreSQL.
 */
describe('Stripe member billing (integration, stand-in)', () => {
  let stripe: RunningStripeSandbox;
  let admin: Stripe;
  let t: TestApp;
  let owner: TestAgent;
  let ownerIds: { businessId: string; actorUserId: string };
  let other: TestAgent;
  let zoe: Stripe.Subscription;
  let amelie: Stripe.Subscription;
  let gymCoupon: Stripe.Coupon;

  const seed = async (email: string, name: string, amount: number, currency = 'aud') =>
    (await (
      await fetch(`${stripe.controlUrl}/members`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, name, amount, currency }),
      })
    ).json()) as Stripe.Subscription;
  const upcoming = async (subscription: string) =>
    (await admin.invoices.createPreview({ subscription })).total;
  const status = async (agent: TestAgent) =>
    (await agent.get('/api/stripe-members').expect(200)).body as Status;
  const preview = async (agent: TestAgent) =>
    (await agent.get('/api/stripe-members/sync/preview').expect(200)).body as BillChanges;
  const audit = async (kind: AuditKind): Promise<AuditEntry[]> =>
    ((await owner.get(`/api/audit-log?kind=${kind}`).expect(200)).body as AuditLogPage).items;
  const discountEntries = async () =>
    (await audit('settings.changed')).filter(
      (entry) => entry.after?.setting === 'Stripe discounts',
    );
  const couponWrites = () =>
    stripe.sandbox.requests().filter((request) => request.path === '/v1/coupons').length;
  const memberByEmail = async (agent: TestAgent, email: string) => {
    const page = (await agent.get(`/api/members?search=${encodeURIComponent(email)}`).expect(200))
      .body as Page<MemberRow>;
    const found = page.items.find((item) => item.memberEmail === email);
    if (!found) throw new Error(`${email} is not a member`);
    return found;
  };

  beforeAll(async () => {
    stripe = await startStripeSandbox({
      webhookRetryDelayMs: 20,
      restrictedKeys: {
        [GYM_KEY]: { customer: 'read', subscription: 'write', coupon: 'write', invoice: 'read' },
        [NARROW_KEY]: { subscription: 'read' },
      },
    });
    admin = sdkFor(stripe);
    zoe = await seed('zoe.obrien@example.com', 'Zoë O’Brien', 6_500, 'usd');
    amelie = await seed('amelie@example.com', 'Amélie Dubois', 5_000);
    // The gym's own discount on Zoë's subscription: Grove keeps it.
    gymCoupon = await admin.coupons.create({ percent_off: 10, duration: 'forever' });
    zoe = await admin.subscriptions.update(zoe.id, { discounts: [{ coupon: gymCoupon.id }] });
    t = await createTestApp({
      STRIPE_API_URL: stripe.url,
      THROTTLE_REFERRAL_LIMIT: '1000',
      THROTTLE_MINDBODY_CREDENTIALS_LIMIT: '100',
    });
    const signedUp = await t.signUp({ businessName: 'Harbour Fitness' });
    owner = signedUp.agent;
    ownerIds = { businessId: signedUp.user.business.id, actorUserId: signedUp.user.id };
    other = (await t.signUp({ businessName: 'Other Gym' })).agent;
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('refuses a key that is not a restricted key, one Stripe refuses, and one without the permissions; stores nothing', async () => {
    const secret = await owner
      .put('/api/stripe-members/credentials')
      .send({ apiKey: 'sk_test_grove_sandbox' })
      .expect(400);
    expect(secret.body.message).toBe(MESSAGES.stripeInvalidKey);
    await owner.put('/api/stripe-members/credentials').send({}).expect(400);
    await owner
      .put('/api/stripe-members/credentials')
      .send({ apiKey: ['rk_test_x'] })
      .expect(400);
    const refused = await owner
      .put('/api/stripe-members/credentials')
      .send({ apiKey: 'rk_test_revoked_key' })
      .expect(400);
    expect(refused.body.message).toBe(MESSAGES.stripeKeyRefused);
    const narrow = await owner
      .put('/api/stripe-members/credentials')
      .send({ apiKey: NARROW_KEY })
      .expect(400);
    expect(narrow.body.message).toBe(MESSAGES.stripeKeyMissingPermissions);
    expect(await status(owner)).toMatchObject({ connected: false, keyLast4: null });
    const before = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM stripe_member_integrations`,
    );
    expect(before[0].n).toBe(0);
  });

  it('needs a connected account for every other step', async () => {
    for (const [method, path] of [
      ['post', '/api/stripe-members/import'],
      ['get', '/api/stripe-members/sync/preview'],
      ['post', '/api/stripe-members/sync'],
    ] as const) {
      const reply = await owner[method](path).expect(409);
      expect(reply.body.message).toBe(MESSAGES.stripeNotConnected);
    }
    await owner
      .put('/api/stripe-members/discounts')
      .send({ discountOnReferralCents: 1_500 })
      .expect(409);
  });

  it('connects, stores the key sealed, and imports the active subscriptions as members with their prices', async () => {
    const connected = await owner
      .put('/api/stripe-members/credentials')
      .send({ apiKey: ` ${GYM_KEY} ` })
      .expect(200);
    expect(connected.body).toMatchObject({ connected: true, keyLast4: GYM_KEY.slice(-4) });
    expect(JSON.stringify(connected.body)).not.toContain(GYM_KEY);
    const [row] = await t.dataSource.query(`SELECT api_key_sealed FROM stripe_member_integrations`);
    expect(row.api_key_sealed).toMatch(/^v1\./);
    expect(row.api_key_sealed).not.toContain(GYM_KEY);

    // Amélie was kept by hand at $40.00 before: the import adopts her at her subscription's price.
    await owner
      .post('/api/members')
      .send({
        memberName: 'Amélie Dubois',
        memberEmail: 'amelie@example.com',
        membershipPriceCents: 4_000,
        discountCents: 0,
      })
      .expect(201);
    const imported = await stripeRun(owner, 'import');
    expect(imported).toMatchObject({
      kind: 'import',
      state: 'done',
      listed: 2,
      membersWritten: 2,
      ended: 0,
      // Progress: the subscriptions listed (Stripe's listing has no count until it ends).
      done: 2,
      total: 2,
    });
    expect((await owner.get('/api/stripe-members').expect(200)).body.subscriptions).toBe(2);
    const zoeRow = await memberByEmail(owner, 'zoe.obrien@example.com');
    const amelieRow = await memberByEmail(owner, 'amelie@example.com');
    expect(zoeRow.membershipPriceCents).toBe(6_500);
    expect(amelieRow.membershipPriceCents).toBe(5_000);
    // Their price history, as Mindbody's import writes it: Zoë added, Amélie's price changed.
    const ledger = async () =>
      (await t.dataSource.query(
        `SELECT member_id, reason, old_price_cents, new_price_cents FROM price_changes
         WHERE member_id = ANY($1) ORDER BY id`,
        [[zoeRow.id, amelieRow.id]],
      )) as {
        member_id: string;
        reason: string;
        old_price_cents: number | null;
        new_price_cents: number;
      }[];
    const lines = [
      {
        member_id: amelieRow.id,
        reason: 'member_added',
        old_price_cents: null,
        new_price_cents: 4_000,
      },
      {
        member_id: amelieRow.id,
        reason: 'membership_price_changed',
        old_price_cents: 4_000,
        new_price_cents: 5_000,
      },
      {
        member_id: zoeRow.id,
        reason: 'member_added',
        old_price_cents: null,
        new_price_cents: 6_500,
      },
    ];
    expect(await ledger()).toEqual(expect.arrayContaining(lines));
    expect(await ledger()).toHaveLength(3);

    const again = await stripeRun(owner, 'import');
    expect(again).toMatchObject({ listed: 2, membersWritten: 0, ended: 0 });
    expect(await ledger()).toHaveLength(3);

    // The audit log (issue 34 item 2): the connection (the key's last four only) and each import.
    expect(await audit('integration.connected')).toEqual([
      expect.objectContaining({
        actor: 'staff',
        after: { integration: 'Stripe', key: `…${GYM_KEY.slice(-4)}` },
      }),
    ]);
    expect((await audit('import.run')).map((entry) => entry.after)).toEqual([
      { source: 'Stripe', listed: 2, membersWritten: 0, ended: 0 },
      { source: 'Stripe', listed: 2, membersWritten: 2, ended: 0 },
    ]);
  });

  it("refuses a second business's claim on the same Stripe account", async () => {
    const claimed = await other
      .put('/api/stripe-members/credentials')
      .send({ apiKey: GYM_KEY })
      .expect(409);
    expect(claimed.body.message).toBe(MESSAGES.stripeAccountClaimed);
    expect(claimed.body.message).not.toContain('Harbour');
    expect(await status(other)).toMatchObject({ connected: false });
    // The holder's people are told; the claimant is not named.
    const told = await waitFor(async () => {
      const rows = (await t.dataSource.query(
        `SELECT o."to", o.subject, o.text FROM outbox_emails o
         JOIN users u ON u.email = o."to" JOIN businesses b ON b.id = u.business_id
         WHERE b.name = 'Harbour Fitness' AND o.subject LIKE 'Someone tried%'`,
      )) as { to: string; subject: string; text: string }[];
      return rows[0];
    });
    expect(told.subject).toBe(
      'Someone tried to connect your Stripe account to another Grove account',
    );
    expect(told.text).toContain(
      'the account stays connected to Harbour Fitness, and nothing changed',
    );
    expect(told.text).not.toContain('Other Gym');
  });

  it('previews, then writes one amount_off forever coupon in the currency, keeping the gym’s own discount', async () => {
    await owner
      .put('/api/stripe-members/discounts')
      .send({ discountOnReferralCents: 'ten' })
      .expect(400);
    expect(await discountEntries()).toEqual([]);
    // A preview page out of range is refused with the reason, never a 500.
    for (const query of ['page=0', 'pageSize=0', 'pageSize=abc'])
      await owner.get(`/api/stripe-members/sync/preview?${query}`).expect(400);
    for (let i = 0; i < 2; i++)
      await owner
        .put('/api/stripe-members/discounts')
        .send({ discountOnReferralCents: 1_500 })
        .expect(200);
    // Saved once in the audit log (issue 34), only what moved (the referee's stays 0); the second,
    // unchanged save records nothing.
    expect(await discountEntries()).toEqual([
      expect.objectContaining({
        actor: 'staff',
        before: { setting: 'Stripe discounts', discountOnReferralCents: null },
        after: { setting: 'Stripe discounts', discountOnReferralCents: 1_500 },
      }),
    ]);
    expect((await preview(owner)).total).toBe(0);

    // A friend joins through Zoë's link and is approved: a counting branch.
    const referrer = await memberByEmail(owner, 'zoe.obrien@example.com');
    const link = (await owner.post(`/api/members/${referrer.id}/referral-link`).expect(201))
      .body as { code: string };
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: "Siobhán D'Arcy", email: 'siobhan@example.com' })
      .expect(201);
    const prospects = (await owner.get('/api/prospects?pageSize=100').expect(200)).body as Page<{
      id: string;
    }>;
    await owner
      .post(`/api/prospects/${prospects.items[0].id}/approve`)
      .send({
        memberName: "Siobhán D'Arcy",
        memberEmail: 'siobhan@example.com',
        membershipPriceCents: 4_000,
        discountCents: 0,
      })
      .expect(201);

    const changes = await preview(owner);
    expect(changes.items).toEqual([
      {
        memberId: referrer.id,
        name: 'Zoë O’Brien',
        currency: 'usd',
        currentCents: 6_500,
        newCents: 5_000,
        differenceCents: -1_500,
      },
    ]);

    const couponsBefore = couponWrites();
    const unconfirmed = await owner.post('/api/stripe-members/sync').send({}).expect(400);
    expect(unconfirmed.body.message).toBe(MESSAGES.mindbodySyncConfirmRequired);
    await owner.post('/api/stripe-members/sync').send({ confirm: 'nope' }).expect(400);
    const stale = await owner
      .post('/api/stripe-members/sync')
      .send({ confirm: '0'.repeat(32) })
      .expect(409);
    expect(stale.body.message).toBe(MESSAGES.mindbodySyncPreviewStale);
    expect(couponWrites()).toBe(couponsBefore);

    // The owner's confirmed sync is a job. A deploy stops it before its first bill (its `stopping`
    // signal): the run stays 'running', nothing is written, and a click meanwhile starts nothing;
    // pg-boss's retry writes the confirmed bill once, and a duplicate of the job does nothing.
    const runs = t.app.get(StripeMemberRunsService);
    const job = {
      ...ownerIds,
      runId: randomUUID(),
      kind: 'sync' as const,
      fingerprint: changes.fingerprint,
    };
    await t.app
      .get(StripeMemberRunsRepository)
      .start(jobScope(ownerIds), job.runId, 'sync', { [referrer.id]: 5_000 }, 1, 3_600);
    const deploy = new AbortController();
    deploy.abort(new Error('the API is shutting down'));
    await expect(runs.run(job, deploy.signal, false)).rejects.toThrow('shutting down');
    expect((await status(owner)).run).toMatchObject({ state: 'running', done: 0, total: 1 });
    expect(couponWrites()).toBe(couponsBefore);
    await owner.post('/api/stripe-members/import').expect(202);
    expect((await status(owner)).run).toMatchObject({ kind: 'sync', state: 'running' });
    await runs.run(job, new AbortController().signal, false);
    const afterRetry = stripe.sandbox.requests().length;
    await runs.run(job, new AbortController().signal, false);
    expect(stripe.sandbox.requests().length).toBe(afterRetry);
    expect((await status(owner)).run).toMatchObject({
      kind: 'sync',
      state: 'done',
      billsWritten: 1,
      done: 1,
      total: 1,
      error: null,
    });
    // A run whose last attempt fails ends 'failed' with its reason, and a new run may start.
    const lost = { ...ownerIds, runId: randomUUID(), kind: 'import' as const };
    await t.app
      .get(StripeMemberRunsRepository)
      .start(jobScope(ownerIds), lost.runId, 'import', null, null, 3_600);
    await expect(runs.run(lost, deploy.signal, true)).rejects.toThrow('shutting down');
    expect((await status(owner)).run).toMatchObject({
      kind: 'import',
      state: 'failed',
      error: STRIPE_RUN_INTERRUPTED,
    });
    // The bill written, in the audit log: the member, what Stripe billed before → after Grove's discount.
    expect(await audit('bill.written')).toEqual([
      expect.objectContaining({
        actor: 'staff',
        memberId: referrer.id,
        before: { billing: 'Stripe', billCents: 6_500 },
        after: { billing: 'Stripe', billCents: 6_500 - 1_500 },
      }),
    ]);
    const written = await admin.subscriptions.retrieve(zoe.id, { expand: ['discounts'] });
    const coupons = (written.discounts as Stripe.Discount[]).map(
      (discount) => discount.source.coupon,
    );
    expect(coupons[0]).toBe(gymCoupon.id);
    // The stand-in serves no coupon retrieve: the coupon the sync created, from its store.
    const made = stripe.sandbox.store.get('coupon', coupons[1] as string);
    expect(made).toMatchObject({ amount_off: 1_500, currency: 'usd', duration: 'forever' });
    // $65 − 10 % − $15 off.
    expect(await upcoming(zoe.id)).toBe(6_500 - 650 - 1_500);
    expect(await upcoming(amelie.id)).toBe(5_000);
    const next = await owner
      .get(`/api/stripe-members/members/${referrer.id}/next-charge`)
      .expect(200);
    expect(next.body).toMatchObject({ amountCents: 6_500 - 650 - 1_500, currency: 'usd' });
    expect(Date.parse(next.body.at)).toBeGreaterThan(Date.now());
    const elsewhere = await other
      .get(`/api/stripe-members/members/${referrer.id}/next-charge`)
      .expect(409);
    expect(elsewhere.body.message).toBe(MESSAGES.stripeNotConnected);
    const friend = await memberByEmail(owner, 'siobhan@example.com');
    const none = await owner
      .get(`/api/stripe-members/members/${friend.id}/next-charge`)
      .expect(404);
    expect(none.body.message).toBe(MESSAGES.stripeNoSubscription);
    await owner.get('/api/stripe-members/members/not-a-uuid/next-charge').expect(404);

    // Nothing left to change: a confirmed empty preview writes nothing and calls Stripe for nothing.
    const empty = await preview(owner);
    expect(empty.total).toBe(0);
    const calls = stripe.sandbox.requests().length;
    expect(await stripeRun(owner, 'sync', { confirm: empty.fingerprint })).toMatchObject({
      state: 'done',
      billsWritten: 0,
    });
    expect(stripe.sandbox.requests().length).toBe(calls);
  });

  it('marks members billed on Stripe as managed: in their currency with the Stripe discount, filtered, their price and discount not changed by hand', async () => {
    const zoeRow = await memberByEmail(owner, 'zoe.obrien@example.com');
    const amelieRow = await memberByEmail(owner, 'amelie@example.com');
    const friend = await memberByEmail(owner, 'siobhan@example.com');
    // Zoë's bill is in US dollars, Amélie's in Australian dollars; the discount is the Stripe sync's.
    expect(zoeRow).toMatchObject({
      managedByIntegration: 'Stripe',
      currency: 'USD',
      membershipPriceCents: 6_500,
      newPriceCents: 6_500,
      discountCents: 1_500,
      branches: 1,
    });
    expect(amelieRow).toMatchObject({ managedByIntegration: 'Stripe', currency: 'AUD' });
    // Siobhán, approved by hand and not on the gym's Stripe, is the business's own.
    expect(friend.managedByIntegration).toBeNull();
    expect(friend.currency).toBeUndefined();

    // Grove's own price of Zoë follows the Stripe rule: her ledger took the $15.00 off.
    const [profileLine] = (
      (await owner.get(`/api/members/${zoeRow.id}/profile`).expect(200)).body as {
        ledger: { reason: string; oldPriceCents: number | null; newPriceCents: number }[];
      }
    ).ledger;
    expect(profileLine).toMatchObject({
      reason: 'branch_added',
      oldPriceCents: 6_500,
      newPriceCents: 5_000,
    });

    // The Managed by filter: Stripe, Grove's own, Mindbody; an unknown value is refused.
    const listed = async (agent: TestAgent, managed: string) =>
      (
        (await agent.get(`/api/members?managed=${managed}`).expect(200)).body as Page<MemberRow>
      ).items
        .map((item) => item.memberEmail)
        .sort();
    expect(await listed(owner, 'stripe')).toEqual(['amelie@example.com', 'zoe.obrien@example.com']);
    expect(await listed(owner, 'grove')).toEqual(['siobhan@example.com']);
    expect(await listed(owner, 'mindbody')).toEqual([]);
    await owner.get('/api/members?managed=paypal').expect(400);
    // Another business sees none of them.
    expect(await listed(other, 'stripe')).toEqual([]);

    // No hand changes: price, discount, name, a branch added by hand, removal (409, nothing changed).
    const ledgerLines = async () =>
      (
        await t.dataSource.query(
          `SELECT count(*)::int AS n FROM price_changes WHERE member_id = $1`,
          [zoeRow.id],
        )
      )[0].n as number;
    const linesBefore = await ledgerLines();
    for (const body of [
      { membershipPriceCents: 1_000 },
      { discountCents: 9_900 },
      { memberName: 'Zoë Changed' },
    ]) {
      const refused = await owner.patch(`/api/members/${zoeRow.id}`).send(body).expect(409);
      expect(refused.body.message).toBe(MESSAGES.stripeMemberLocked);
    }
    const branchByHand = await owner
      .post('/api/members')
      .send({
        memberName: 'Ana-Sofía Quispe',
        memberEmail: 'ana.sofia@example.com',
        membershipPriceCents: 5_000,
        discountCents: 0,
        referringMemberId: zoeRow.id,
      })
      .expect(409);
    expect(branchByHand.body.message).toBe(MESSAGES.stripeMemberLocked);
    await owner.delete(`/api/members/${zoeRow.id}`).expect(409);
    expect(await memberByEmail(owner, 'zoe.obrien@example.com')).toEqual(zoeRow);
    expect(await ledgerLines()).toBe(linesBefore);
    // Another business's session cannot reach her at all.
    await other
      .patch(`/api/members/${zoeRow.id}`)
      .send({ membershipPriceCents: 1_000 })
      .expect(404);
    // A member kept by hand is still edited by hand.
    await owner.patch(`/api/members/${friend.id}`).send({ discountCents: 500 }).expect(200);
  });

  it('never writes a discount larger than the price', async () => {
    await owner
      .put('/api/stripe-members/discounts')
      .send({ discountOnReferralCents: 10_000 })
      .expect(200);
    const changes = await preview(owner);
    expect(changes.items).toMatchObject([{ currentCents: 5_000, newCents: 0 }]);
    await stripeRun(owner, 'sync', { confirm: changes.fingerprint });
    const written = await admin.subscriptions.retrieve(zoe.id, { expand: ['discounts'] });
    const groveCoupon = stripe.sandbox.store.get(
      'coupon',
      (written.discounts as Stripe.Discount[])[1].source.coupon as string,
    );
    expect(groveCoupon.amount_off).toBe(6_500);
    expect(await upcoming(zoe.id)).toBe(0);
  });

  it('an import that no longer lists a subscription ends its member, in her history as a Mindbody cancellation is', async () => {
    const amelieRow = await memberByEmail(owner, 'amelie@example.com');
    // Cancelled in the gym's Stripe with no webhook endpoint: the next import finds it gone.
    await fetch(`${stripe.controlUrl}/subscriptions/${amelie.id}/cancel`, { method: 'POST' });
    const imported = await stripeRun(owner, 'import');
    expect(imported).toMatchObject({ listed: 1, ended: 1 });
    expect(await memberByEmail(owner, 'amelie@example.com')).toMatchObject({ status: 'Ended' });
    const endedFacts = async () =>
      (await t.dataSource.query(
        `SELECT source, event_key LIKE 'member_ended:' || member_id || ':%' AS keyed
         FROM lifecycle_facts WHERE member_id = $1 AND kind = 'member_ended'`,
        [amelieRow.id],
      )) as { source: string; keyed: boolean }[];
    expect(await endedFacts()).toEqual([{ source: 'import', keyed: true }]);
    // A second import ends nothing again.
    expect(await stripeRun(owner, 'import')).toMatchObject({ ended: 0 });
    expect(await endedFacts()).toHaveLength(1);
  });

  it('matches by email key: an ended member who subscribes again runs again, a Mindbody client is neither adopted nor added twice', async () => {
    const amelieRow = await memberByEmail(owner, 'amelie@example.com');
    // Siobhán's bill is Mindbody's: her Stripe subscription with the same email is not Grove's to take.
    const siobhan = await owner
      .post('/api/members')
      .send({
        memberName: "Siobhán O'Brien",
        memberEmail: 'siobhan.obrien@example.com',
        membershipPriceCents: 7_200,
        discountCents: 0,
      })
      .expect(201);
    await t.dataSource.query(`UPDATE members SET mindbody_client_id = '100234' WHERE id = $1`, [
      (siobhan.body as { id: string }).id,
    ]);
    await seed('Siobhan.OBrien@example.com', "Siobhán O'Brien", 9_900);
    // Amélie subscribes again, her email written otherwise (the same key), at her old price.
    const again = await seed('AMELIE@example.com', 'Amélie Dubois', 5_000);
    const membersBefore = (await owner.get('/api/members').expect(200)).body.total as number;

    const imported = await stripeRun(owner, 'import');
    expect(imported).toMatchObject({ listed: 3, membersWritten: 1, ended: 0 });
    expect(await memberByEmail(owner, 'amelie@example.com')).toMatchObject({
      id: amelieRow.id,
      status: 'Active',
      membershipPriceCents: 5_000,
    });
    expect(await memberByEmail(owner, 'siobhan.obrien@example.com')).toMatchObject({
      membershipPriceCents: 7_200,
    });
    expect((await owner.get('/api/members').expect(200)).body.total).toBe(membersBefore);
    const linked = (await t.dataSource.query(
      `SELECT s.stripe_subscription_id, m.email FROM stripe_member_subscriptions s
       JOIN members m ON m.id = s.member_id WHERE s.ended_at IS NULL ORDER BY m.email`,
    )) as { stripe_subscription_id: string; email: string }[];
    expect(linked).toEqual([
      { stripe_subscription_id: again.id, email: 'amelie@example.com' },
      { stripe_subscription_id: zoe.id, email: 'zoe.obrien@example.com' },
    ]);
  });

  it("keeps every route to the session's business", async () => {
    // The owner's import and sync runs are not another business's to see.
    expect((await status(owner)).run).not.toBeNull();
    expect(await status(other)).toMatchObject({ connected: false, subscriptions: 0, run: null });
    await other
      .put('/api/stripe-members/webhook')
      .send({ signingSecret: 'whsec_other0gym0secret' })
      .expect(409);
    await other.get('/api/stripe-members/sync/preview').expect(409);
    await other
      .post('/api/stripe-members/sync')
      .send({ confirm: '0'.repeat(32) })
      .expect(409);
    await other.post('/api/stripe-members/import').expect(409);
    await other
      .put('/api/stripe-members/discounts')
      .send({ discountOnReferralCents: 100 })
      .expect(409);
    const removal = await other.delete('/api/stripe-members').expect(200);
    expect(removal.body.discountsRemoved).toBe(0);
    expect(await upcoming(zoe.id)).toBe(0);
    expect((await status(owner)).discountedSubscriptions).toBe(1);
    await t.agent().get('/api/stripe-members').expect(401);
  });

  it("disconnecting removes every discount Grove added, keeps the gym's own, and reports the count", async () => {
    const removal = await owner.delete('/api/stripe-members').expect(200);
    expect(removal.body).toMatchObject({ discountsRemoved: 1, status: { connected: false } });
    const [disconnected] = await audit('integration.disconnected');
    expect(disconnected).toMatchObject({
      actor: 'staff',
      before: { integration: 'Stripe', key: `…${GYM_KEY.slice(-4)}` },
      after: { discountsRemoved: 1 },
    });
    // The discount taken off is a bill written back to the full price.
    const [restored] = await audit('bill.written');
    expect(restored).toMatchObject({ after: { billing: 'Stripe', billCents: 6_500 } });
    const after = await admin.subscriptions.retrieve(zoe.id, { expand: ['discounts'] });
    expect((after.discounts as Stripe.Discount[]).map((d) => d.source.coupon)).toEqual([
      gymCoupon.id,
    ]);
    expect(await upcoming(zoe.id)).toBe(6_500 - 650);
    // Members stay.
    expect((await memberByEmail(owner, 'amelie@example.com')).membershipPriceCents).toBe(5_000);
  });
});
