import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type TestAgent from 'supertest/lib/agent';
import type Stripe from 'stripe';
import {
  MESSAGES,
  type AuditEntry,
  type AuditLogPage,
  type MemberRow,
  type Page,
} from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import {
  sdkFor,
  startStripeSandbox,
  stripeRun,
  stripeSignatureHeader,
  type RunningStripeSandbox,
} from '../../../../../test/stripe-sandbox';

jest.setTimeout(180_000);

const GYM_KEY = 'rk_test_harbour_fitness_key';
const SIGNING_SECRET = 'whsec_harbour0fitness0members';
const OWNER_EMAIL = 'owner@harbour-fitness.example.com';
const HELD_SUBJECT = '1 bill would change in Stripe: review';

interface Status {
  connected: boolean;
  webhookUrl: string | null;
  webhookConfigured: boolean;
  automaticSync: boolean;
  pendingBillsSince: string | null;
  discountedSubscriptions: number;
}
interface BillChanges {
  items: { memberId: string; name: string; currentCents: number; newCents: number }[];
  total: number;
  fingerprint: string;
}

/** Polls `read` until `done` holds (a webhook's job runs in the background). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Issue 32: the gym's own Stripe account tells Grove when a friend's first invoice is paid (the
 * branch counts under the business's first payment rule) and when a subscription ends (the branch
 * lapses, the price returns). The deliveries are signed with the gym's endpoint secret, which the
 * owner pastes; replays and events out of order change nothing twice; the bills a webhook changes
 * are held for the owner until they confirm with automatic sync on. Stand-in + real PostgreSQL.
 */
describe('Stripe member billing webhooks (integration, stand-in)', () => {
  let stripe: RunningStripeSandbox;
  let admin: Stripe;
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let port: number;
  let webhookPath: string;
  let zoe: Stripe.Subscription;
  let siobhan: Stripe.Subscription;

  const status = async () => (await owner.get('/api/stripe-members').expect(200)).body as Status;
  const preview = async () =>
    (await owner.get('/api/stripe-members/sync/preview').expect(200)).body as BillChanges;
  const upcoming = async (subscription: string) =>
    (await admin.invoices.createPreview({ subscription })).total;
  const control = async (path: string, body: object = {}) =>
    (await fetch(`${stripe.controlUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((reply) => reply.json())) as Record<string, unknown>;
  const subscriptionWrites = () =>
    stripe.sandbox
      .requests()
      .filter(
        (request) => request.method === 'POST' && request.path.startsWith('/v1/subscriptions/'),
      ).length;
  const recordedEvents = async () =>
    (await t.dataSource.query(`SELECT count(*)::int AS n FROM stripe_member_events`))[0]
      .n as number;
  const eventOf = async (type: string, customer: string) => {
    const events = (await (await fetch(`${stripe.controlUrl}/events`)).json()) as Stripe.Event[];
    const found = events.find(
      (event) =>
        event.type === type && (event.data.object as { customer?: string }).customer === customer,
    );
    if (!found) throw new Error(`no ${type} of ${customer}`);
    return found;
  };
  const memberByEmail = async (email: string) => {
    const page = (await owner.get(`/api/members?search=${encodeURIComponent(email)}`).expect(200))
      .body as Page<MemberRow>;
    const found = page.items.find((item) => item.memberEmail === email);
    if (!found) throw new Error(`${email} is not a member`);
    return found;
  };
  /** Emails to `to` with `subject` (no SMTP here: they wait in outbox_emails). */
  const outbox = async (to: string, subject: string) =>
    (
      (await t.dataSource.query(`SELECT text FROM outbox_emails WHERE "to" = $1 AND subject = $2`, [
        to,
        subject,
      ])) as { text: string }[]
    ).map((row) => row.text);
  /** Every queued email has been handed on (none waiting, retrying or being sent). */
  const mailQueueEmpty = async () =>
    (
      (await t.dataSource.query(
        `SELECT count(*)::int AS n FROM pgboss.job
         WHERE name = 'mail.send' AND state IN ('created', 'retry', 'active')`,
      )) as { n: number }[]
    )[0].n === 0;
  /** The member's `member_ended` lifecycle facts (docs/architecture.md#lifecycle-facts). */
  const endedFacts = async (memberId: string) =>
    (await t.dataSource.query(
      `SELECT source, event_key FROM lifecycle_facts WHERE member_id = $1 AND kind = 'member_ended'`,
      [memberId],
    )) as { source: string; event_key: string }[];
  const countingSince = async (email: string) =>
    (
      await t.dataSource.query(`SELECT branch_counting_since FROM members WHERE email = $1`, [
        email,
      ])
    )[0].branch_counting_since as Date | null;

  beforeAll(async () => {
    stripe = await startStripeSandbox({
      webhookRetryDelayMs: 20,
      restrictedKeys: {
        [GYM_KEY]: { customer: 'read', subscription: 'write', coupon: 'write', invoice: 'read' },
      },
    });
    admin = sdkFor(stripe);
    zoe = (await control('/members', {
      email: 'zoe.obrien@example.com',
      name: 'Zoë O’Brien',
      amount: 6_500,
      currency: 'usd',
    })) as unknown as Stripe.Subscription;
    t = await createTestApp({
      STRIPE_API_URL: stripe.url,
      THROTTLE_REFERRAL_LIMIT: '1000',
      THROTTLE_WEBHOOK_SIGNATURE_LIMIT: '5',
      THROTTLE_MINDBODY_CREDENTIALS_LIMIT: '4',
      PUBLIC_ORIGIN: 'https://grove.example.com',
    });
    const server = t.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    owner = (await t.signUp({ businessName: 'Harbour Fitness', email: OWNER_EMAIL })).agent;
    other = (await t.signUp({ businessName: 'Other Gym' })).agent;
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('gives the endpoint URL at connection and stores the pasted signing secret sealed', async () => {
    await owner.put('/api/stripe-members/credentials').send({ apiKey: GYM_KEY }).expect(200);
    const connected = await status();
    expect(connected).toMatchObject({ webhookConfigured: false, automaticSync: false });
    expect(connected.webhookUrl).toMatch(
      /^https:\/\/grove\.example\.com\/api\/stripe-members\/webhooks\/[A-Za-z0-9_-]{32}$/,
    );
    webhookPath = new URL(connected.webhookUrl as string).pathname;

    for (const body of [{}, { signingSecret: 'sk_test_nope' }, { signingSecret: ['whsec_a'] }]) {
      const refused = await owner.put('/api/stripe-members/webhook').send(body).expect(400);
      expect(refused.body.message).toBe(MESSAGES.stripeInvalidWebhookSecret);
    }
    const elsewhere = await other
      .put('/api/stripe-members/webhook')
      .send({ signingSecret: SIGNING_SECRET })
      .expect(409);
    expect(elsewhere.body.message).toBe(MESSAGES.stripeNotConnected);
    await t
      .agent()
      .put('/api/stripe-members/webhook')
      .send({ signingSecret: SIGNING_SECRET })
      .expect(401);

    const saved = await owner
      .put('/api/stripe-members/webhook')
      .send({ signingSecret: ` ${SIGNING_SECRET} ` })
      .expect(200);
    expect(saved.body.webhookConfigured).toBe(true);
    expect(JSON.stringify(saved.body)).not.toContain(SIGNING_SECRET);
    const [row] = await t.dataSource.query(
      `SELECT webhook_secret_sealed FROM stripe_member_integrations`,
    );
    expect(row.webhook_secret_sealed).toMatch(/^v1\./);
    expect(row.webhook_secret_sealed).not.toContain(SIGNING_SECRET);
    expect((await other.get('/api/stripe-members').expect(200)).body).toMatchObject({
      webhookUrl: null,
      webhookConfigured: false,
    });

    await fetch(`${stripe.controlUrl}/webhook_endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        url: `http://127.0.0.1:${port}${webhookPath}`,
        secret: SIGNING_SECRET,
      }),
    });
  });

  it('throttles key checks: a business past the limit waits, and nothing is stored', async () => {
    // 4 checks a window from this address: the owner's connection was the first.
    for (const apiKey of ['rk_test_guess_one', 'rk_test_guess_two', 'rk_test_guess_three'])
      await other.put('/api/stripe-members/credentials').send({ apiKey }).expect(400);
    const calls = stripe.sandbox.requests().length;
    await other.put('/api/stripe-members/credentials').send({ apiKey: GYM_KEY }).expect(429);
    expect(stripe.sandbox.requests().length).toBe(calls);
    expect((await other.get('/api/stripe-members').expect(200)).body.connected).toBe(false);
  });

  it('refuses a delivery that does not verify, before any other work, and throttles the sender', async () => {
    const payload = JSON.stringify({
      id: 'evt_forged',
      type: 'invoice.paid',
      data: { object: {} },
    });
    const now = Math.floor(Date.now() / 1000);
    const before = await recordedEvents();
    const send = (path: string, signature?: string) =>
      t
        .agent()
        .post(path)
        .set('content-type', 'application/json')
        .set(signature ? { 'stripe-signature': signature } : {})
        .send(payload);
    await send(webhookPath).expect(400);
    await send(webhookPath, stripeSignatureHeader(payload, 'whsec_someone_else', now)).expect(400);
    await send(webhookPath, stripeSignatureHeader(payload, SIGNING_SECRET, now - 3_600)).expect(
      400,
    );
    const unknown = await send(
      '/api/stripe-members/webhooks/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      stripeSignatureHeader(payload, SIGNING_SECRET, now),
    ).expect(400);
    expect(unknown.body.message).toBe('Webhook signature verification failed');
    await send(
      '/api/stripe-members/webhooks/x',
      stripeSignatureHeader(payload, SIGNING_SECRET, now),
    ).expect(400);
    expect(await recordedEvents()).toBe(before);
    // Past THROTTLE_WEBHOOK_SIGNATURE_LIMIT failures in a minute the client waits.
    await send(webhookPath).expect(429);
    // A signed delivery still passes (only failures are counted).
    const signed = await send(
      webhookPath,
      stripeSignatureHeader(payload, SIGNING_SECRET, now),
    ).expect(200);
    expect(signed.body).toEqual({ received: true });
  });

  it("holds the bill a friend's first paid invoice changes until the owner confirms it", async () => {
    await owner.put('/api/settings/branches').send({ rule: 'first_payment' }).expect(200);
    await stripeRun(owner, 'import');
    await owner
      .put('/api/stripe-members/discounts')
      .send({ discountOnReferralCents: 1_500 })
      .expect(200);

    // Siobhán joins through Zoë's link and is approved: pending until her first paid invoice.
    const referrer = await memberByEmail('zoe.obrien@example.com');
    const link = (await owner.post(`/api/members/${referrer.id}/referral-link`).expect(201))
      .body as { code: string };
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: 'Siobhán O’Brien', email: 'siobhan@example.com' })
      .expect(201);
    const prospects = (await owner.get('/api/prospects?pageSize=100').expect(200)).body as Page<{
      id: string;
    }>;
    await owner
      .post(`/api/prospects/${prospects.items[0].id}/approve`)
      .send({
        memberName: 'Siobhán O’Brien',
        memberEmail: 'siobhan@example.com',
        membershipPriceCents: 4_000,
        discountCents: 0,
      })
      .expect(201);
    expect(await countingSince('siobhan@example.com')).toBeNull();
    expect((await preview()).total).toBe(0);
    // Billed on the gym's Stripe: Zoë (imported); Siobhán, approved by hand, not yet.
    expect((await memberByEmail('zoe.obrien@example.com')).stripeBilling).toBe('running');
    expect((await memberByEmail('siobhan@example.com')).stripeBilling).toBeUndefined();

    // She subscribes at the front desk in the gym's Stripe: her first invoice is paid.
    const writes = subscriptionWrites();
    siobhan = (await control('/members', {
      email: 'siobhan@example.com',
      name: 'Siobhán O’Brien',
      amount: 4_000,
      currency: 'usd',
    })) as unknown as Stripe.Subscription;
    const held = await until(status, (s) => s.pendingBillsSince !== null);
    expect(held.discountedSubscriptions).toBe(0);
    expect(await countingSince('siobhan@example.com')).not.toBeNull();
    expect(subscriptionWrites()).toBe(writes);
    expect(await upcoming(zoe.id)).toBe(6_500);

    // The owner is told once: 'N bills would change in Stripe: review', with the page's link.
    const [mail] = await until(
      () => outbox(OWNER_EMAIL, HELD_SUBJECT),
      (found) => found.length > 0,
    );
    expect(mail).toContain('Stripe told Grove of changes at Harbour Fitness.');
    expect(mail).toContain('nothing reaches Stripe until you review the changes and confirm them');
    expect(mail).toContain('Review them: https://grove.example.com/stripe-setup');
    // Another event of the same batch (her next month's invoice paid) while the bill waits: still
    // held, nothing written, no second email.
    const eventsBefore = await recordedEvents();
    await control(`/subscriptions/${siobhan.id}/end_period`);
    await until(recordedEvents, (n) => n > eventsBefore);
    await control('/idle');
    await until(mailQueueEmpty, (empty) => empty);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await outbox(OWNER_EMAIL, HELD_SUBJECT)).toHaveLength(1);
    expect(subscriptionWrites()).toBe(writes);
    expect((await status()).pendingBillsSince).toBe(held.pendingBillsSince);

    const changes = await preview();
    expect(changes.items).toMatchObject([
      { memberId: referrer.id, currentCents: 6_500, newCents: 5_000 },
    ]);
    await owner
      .post('/api/stripe-members/sync')
      .send({ confirm: changes.fingerprint, automatic: 'yes' })
      .expect(400);
    expect(
      await stripeRun(owner, 'sync', { confirm: changes.fingerprint, automatic: true }),
    ).toMatchObject({ state: 'done', billsWritten: 1 });
    expect((await owner.get('/api/stripe-members').expect(200)).body).toMatchObject({
      automaticSync: true,
      pendingBillsSince: null,
    });
    expect(await upcoming(zoe.id)).toBe(5_000);
  });

  it('records a replayed event once and changes nothing twice', async () => {
    const paid = await eventOf('invoice.paid', siobhan.customer as string);
    await control('/idle');
    const events = await recordedEvents();
    const writes = subscriptionWrites();
    await control(`/events/${paid.id}/deliver`, { times: 3 });
    await control('/idle');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await recordedEvents()).toBe(events);
    expect(subscriptionWrites()).toBe(writes);
    expect(await upcoming(zoe.id)).toBe(5_000);
  });

  it("lapses the branch when the friend's subscription ends: with automatic sync, the price returns", async () => {
    expect((await memberByEmail('zoe.obrien@example.com')).branches).toBe(1);
    await control(`/subscriptions/${siobhan.id}/cancel`);
    await until(
      () => upcoming(zoe.id),
      (total) => total === 6_500,
    );
    // Grove records the write once Stripe has taken it (with its audit entry, one transaction).
    expect(await until(status, (s) => s.discountedSubscriptions === 0)).toMatchObject({
      discountedSubscriptions: 0,
      pendingBillsSince: null,
    });
    expect((await preview()).total).toBe(0);
    // The audit log (issue 34 item 2): what the gym's Stripe event changed, Stripe its author.
    const friend = await memberByEmail('siobhan@example.com');
    const referrer = await memberByEmail('zoe.obrien@example.com');
    const byStripe = await until(
      async () =>
        ((await owner.get('/api/audit-log?author=stripe').expect(200)).body as AuditLogPage).items,
      (items: AuditEntry[]) => items.some((entry) => entry.kind === 'bill.written'),
    );
    expect(byStripe).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'member.updated',
          actor: 'stripe',
          authorName: 'Stripe',
          memberId: friend.id,
          before: { membership: 'running' },
          after: { membership: 'ended' },
        }),
        expect.objectContaining({
          kind: 'bill.written',
          actor: 'stripe',
          memberId: referrer.id,
          after: { billing: 'Stripe', billCents: 6_500 },
        }),
      ]),
    );
    // Branches: she shows 'Ended' (her subscription, not a price); her referrer still runs.
    expect(await memberByEmail('siobhan@example.com')).toMatchObject({
      status: 'Ended',
      stripeBilling: 'ended',
    });
    expect(await memberByEmail('zoe.obrien@example.com')).toMatchObject({
      status: 'Active',
      stripeBilling: 'running',
      // Grove's own count follows, as for a Mindbody friend's lapse (the counting rule decides).
      branches: 0,
    });
    // The price ledgers, as a Mindbody friend's lapse writes them: the referrer's 'branch_lapsed'
    // line naming the friend ($50.00 → $65.00), the friend's own 'membership_ended' at $0.00.
    const ledgerOf = async (id: string) =>
      (
        (await owner.get(`/api/members/${id}/profile`).expect(200)).body as {
          ledger: {
            reason: string;
            oldPriceCents: number | null;
            newPriceCents: number;
            branchName: string | null;
          }[];
        }
      ).ledger;
    const referrerLedger = await ledgerOf(referrer.id);
    expect(referrerLedger[0]).toMatchObject({
      reason: 'branch_lapsed',
      oldPriceCents: 5_000,
      newPriceCents: 6_500,
      branchName: 'Siobhán O’Brien',
    });
    expect(referrerLedger.filter((line) => line.reason === 'branch_lapsed')).toHaveLength(1);
    expect((await ledgerOf(friend.id))[0]).toMatchObject({
      reason: 'membership_ended',
      newPriceCents: 0,
    });
    // Her history, as a Mindbody cancellation records it: one member_ended fact, from Stripe, at
    // the time her membership ended (Analytics' retention and a later join's 'former member' read it).
    const [{ stripe_ended_at: endedAt }] = (await t.dataSource.query(
      `SELECT to_char(stripe_ended_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS stripe_ended_at
       FROM members WHERE id = $1`,
      [friend.id],
    )) as { stripe_ended_at: string }[];
    expect(await endedFacts(friend.id)).toEqual([
      { source: 'stripe', event_key: `member_ended:${friend.id}:${endedAt}` },
    ]);
    // Zoë's email names her price in her subscription's currency (US dollars), not the gym's
    // Australian dollars ("$65.00" would read as AUD). Intl writes a no-break space after 'USD'.
    const usd65 = 'USD\u00a065.00';
    const lapseEmails = await until(
      async () =>
        (await t.dataSource.query(
          `SELECT subject, text FROM outbox_emails WHERE "to" = $1 AND subject LIKE $2`,
          ['zoe.obrien@example.com', '%membership ended%'],
        )) as { subject: string; text: string }[],
      (rows) => rows.length > 0,
    );
    expect(lapseEmails.map((email) => email.subject)).toEqual([
      `Siobhán O’Brien’s membership ended: your price is back to ${usd65}`,
    ]);
    expect(lapseEmails[0]?.text).toContain(`Your price is back to ${usd65} a month.`);
    // The lapse shows in the Status filter, and a refresh later changes nothing more.
    const ended = (await owner.get('/api/members?status=Ended').expect(200))
      .body as Page<MemberRow>;
    expect(ended.items.map((item) => item.memberEmail)).toEqual(['siobhan@example.com']);
    const linesBefore = (await ledgerOf(referrer.id)).length;
    await owner.put('/api/settings/branches').send({ rule: 'first_payment' }).expect(200);
    expect(await ledgerOf(referrer.id)).toHaveLength(linesBefore);
  });

  it('an invoice.paid arriving after the subscription ended does not count the branch again', async () => {
    const paid = await eventOf('invoice.paid', siobhan.customer as string);
    const deleted = await eventOf('customer.subscription.deleted', siobhan.customer as string);
    // As if neither had arrived: both now delivered, the deletion first.
    await t.dataSource.query(`DELETE FROM stripe_member_events WHERE event_id = ANY($1)`, [
      [paid.id, deleted.id],
    ]);
    const writes = subscriptionWrites();
    await control('/events/deliver', { ids: [paid.id, deleted.id] });
    await until(
      async () =>
        (
          await t.dataSource.query(
            `SELECT count(*)::int AS n FROM stripe_member_events WHERE event_id = ANY($1)`,
            [[paid.id, deleted.id]],
          )
        )[0].n as number,
      (n) => n === 2,
    );
    await until(
      async () =>
        (
          await t.dataSource.query(
            `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'stripe-members.event' AND state IN ('created', 'retry', 'active')`,
          )
        )[0].n as number,
      (n) => n === 0,
    );
    expect(subscriptionWrites()).toBe(writes);
    expect(await upcoming(zoe.id)).toBe(6_500);
    expect((await preview()).total).toBe(0);
    // The deletion delivered again ends nothing twice: still one member_ended fact.
    expect(await endedFacts((await memberByEmail('siobhan@example.com')).id)).toHaveLength(1);
  });
});
