import type TestAgent from 'supertest/lib/agent';
import { MESSAGES, type MemberRow } from '@grove/contracts';
import { treeBody } from '../../../../test/test-app';
import { waitFor } from '../../../../test/stub-servers';
import {
  approveFriends,
  sdkFor,
  startBillingTestBed,
  stripeSignatureHeader,
  TEST_CARD,
  TEST_WEBHOOK_SECRET,
  type BillingTestBed,
} from '../../../../test/stripe-sandbox';
import { StripeClient } from './stripe.client';

interface Summary {
  enabled: boolean;
  state: string;
  membersThroughGrove: number;
  freeMembers: number;
  priceCents: number;
  currency: string;
  graceEndsAt: string | null;
  paused: boolean;
  nextChargeAt: string | null;
  nextChargeCents: number | null;
  cancelAtPeriodEnd: boolean;
  canManage: boolean;
  invoices: { amountCents: number; status: string; url: string | null }[] | null;
}

const summaryOf = async (owner: TestAgent): Promise<Summary> =>
  (await owner.get('/api/billing').expect(200)).body as Summary;

/** Pays a Checkout Session on the stand-in's hosted page with the test card. */
async function payCheckout(url: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card: TEST_CARD, name: 'Siobhán O’Brien' }),
  });
}

/** A signed-up owner with one tree (the referrer), and its id. */
async function ownerWithTree(bed: BillingTestBed, businessName = 'Green Valley Fitness') {
  const { agent, body } = await bed.t.signUp({ businessName, firstName: 'Siobhán' });
  const tree = (
    await agent
      .post('/api/members')
      .send(treeBody("Zoë D'Arcy-Nguyễn", `zoe.${Date.now()}@example.com`))
      .expect(201)
  ).body as MemberRow;
  return { owner: agent, email: body.email, referrerId: tree.id };
}

/** Signs `payload` as Stripe signs a webhook (what `constructEvent` checks). */
function signed(payload: string, secret = TEST_WEBHOOK_SECRET, at = Math.floor(Date.now() / 1000)) {
  return stripeSignatureHeader(payload, secret, at);
}

describe("Grove's own bill on Stripe (integration, issue 30, docs/product.md#billing)", () => {
  let bed: BillingTestBed;
  beforeAll(async () => {
    bed = await startBillingTestBed();
  });
  afterAll(() => bed.close());

  it('is free until the 2nd member arrives through Grove; members added by hand do not count', async () => {
    const { owner, referrerId } = await ownerWithTree(bed);
    await owner
      .post('/api/members')
      .send(treeBody('Mary-Kate Ó Súilleabháin', 'mk@example.com'))
      .expect(201);
    expect(await summaryOf(owner)).toMatchObject({
      enabled: true,
      state: 'free',
      membersThroughGrove: 0,
      freeMembers: 2,
      priceCents: 9_900,
      currency: 'USD',
      graceEndsAt: null,
      paused: false,
      canManage: false,
    });
    expect(await approveFriends(owner, bed.t, referrerId, ['Aoife Byrne'])).toEqual([201]);
    expect(await summaryOf(owner)).toMatchObject({ state: 'free', membersThroughGrove: 1 });
    expect(await approveFriends(owner, bed.t, referrerId, ['José Álvarez'])).toEqual([201]);
    const due = await summaryOf(owner);
    expect(due).toMatchObject({ state: 'card-needed', membersThroughGrove: 2, paused: false });
    const graceDays = (Date.parse(due.graceEndsAt as string) - Date.now()) / 86_400_000;
    expect(graceDays).toBeGreaterThan(13.9);
    expect(graceDays).toBeLessThanOrEqual(14);
  });

  it('Add a card → Checkout → paid: active with the next charge and a paid invoice; Manage billing opens the portal', async () => {
    const { owner, referrerId } = await ownerWithTree(bed, "Ngā Tama's Gym");
    await approveFriends(owner, bed.t, referrerId, ['Chloé Martin', 'Seán Murphy']);
    await owner.post('/api/billing/portal').expect(409, {
      statusCode: 409,
      message: MESSAGES.billingNoCustomer,
    });
    const { url } = (await owner.post('/api/billing/checkout').expect(200)).body as { url: string };
    expect(url).toMatch(new RegExp(`^${bed.stripe.url}/c/pay/cs_test_`));
    const paid = await payCheckout(url);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(
      'https://grove.example.com/dashboard/account-settings/billing?billing=done',
    );
    const active = await waitFor(async () => {
      const summary = await summaryOf(owner);
      return summary.state === 'active' ? summary : null;
    });
    expect(active).toMatchObject({
      paused: false,
      graceEndsAt: null,
      nextChargeCents: 9_900,
      cancelAtPeriodEnd: false,
      canManage: true,
    });
    const days = (Date.parse(active.nextChargeAt as string) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    expect(active.invoices).toEqual([
      expect.objectContaining({ amountCents: 9_900, status: 'paid' }),
    ]);
    // A second Checkout while paying is refused; the portal opens.
    await owner.post('/api/billing/checkout').expect(409);
    const portal = (await owner.post('/api/billing/portal').expect(200)).body as { url: string };
    expect(portal.url).toMatch(new RegExp(`^${bed.stripe.url}/p/session/bps_`));
    expect((await fetch(portal.url)).status).toBe(200);
  });

  it('a failed renewal: past due, one email to the owner however often Stripe delivers; grace over → approving and adding branches answer 402 (friends still join, nothing lost, export works), paying resumes', async () => {
    const { owner, email, referrerId } = await ownerWithTree(bed, 'Åsa’s Pilates');
    await approveFriends(owner, bed.t, referrerId, ['Ana-Lucía Pérez', 'Tomás Ó Briain']);
    const { url } = (await owner.post('/api/billing/checkout').expect(200)).body as { url: string };
    await payCheckout(url);
    await waitFor(async () => (await summaryOf(owner)).state === 'active');
    const [{ stripe_subscription_id: subscription }] = (await bed.t.dataSource.query(
      `SELECT stripe_subscription_id FROM business_billing bb JOIN users u ON u.business_id = bb.business_id WHERE u.email = $1`,
      [email],
    )) as { stripe_subscription_id: string }[];

    await fetch(`${bed.stripe.controlUrl}/subscriptions/${subscription}/fail_next_payment`, {
      method: 'POST',
    });
    const pastDue = await waitFor(async () => {
      const summary = await summaryOf(owner);
      return summary.state === 'past-due' ? summary : null;
    });
    expect(pastDue.paused).toBe(false);
    const mail = await waitFor(async () =>
      bed.smtp.emails.find(
        (m) => m.subject === 'Your Grove payment failed' && m.rcptTo.includes(email),
      ),
    );
    expect(mail.text).toContain('$99.00');
    expect(mail.text).toContain('https://grove.example.com/dashboard/account-settings/billing');
    // Stripe delivers the failure again (a duplicate): still one email.
    const failed = (await (await fetch(`${bed.stripe.controlUrl}/events`)).json()) as {
      id: string;
      type: string;
    }[];
    const failure = failed.find((event) => event.type === 'invoice.payment_failed');
    await fetch(`${bed.stripe.controlUrl}/events/${failure?.id}/deliver`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ times: 3 }),
    });
    await fetch(`${bed.stripe.controlUrl}/idle`, { method: 'POST' });
    expect(
      bed.smtp.emails.filter(
        (m) => m.subject === 'Your Grove payment failed' && m.rcptTo.includes(email),
      ),
    ).toHaveLength(1);

    // The grace period (14 days) is over.
    await bed.t.dataSource.query(
      `UPDATE business_billing SET payment_failed_at = now() - interval '15 days'
        WHERE business_id = (SELECT business_id FROM users WHERE email = $1)`,
      [email],
    );
    expect(await summaryOf(owner)).toMatchObject({ state: 'past-due', paused: true });
    const before = (await owner.get('/api/members?pageSize=100').expect(200)).body as {
      total: number;
    };
    expect(await approveFriends(owner, bed.t, referrerId, ['Paused Friend'])).toEqual([402]);
    const refused = await owner
      .post(`/api/members/${referrerId}/branches`)
      .send(treeBody('Hand Added', 'hand.added@example.com'));
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe(MESSAGES.billingPaused);
    // Nothing lost: the friend waits as a prospective member, the members are all there, export works.
    const prospects = (await owner.get('/api/prospects?pageSize=100').expect(200)).body as {
      total: number;
    };
    expect(prospects.total).toBe(1);
    expect(
      ((await owner.get('/api/members?pageSize=100').expect(200)).body as { total: number }).total,
    ).toBe(before.total);
    await owner.get('/api/members-csv/export').expect(200);

    // Paying the open invoice resumes everything.
    const invoices = await sdkFor(bed.stripe).invoices.list({ subscription, status: 'open' });
    await fetch(`${bed.stripe.controlUrl}/invoices/${invoices.data[0].id}/pay`, { method: 'POST' });
    await waitFor(async () => (await summaryOf(owner)).state === 'active');
    const waiting = (await owner.get('/api/prospects?pageSize=100').expect(200)).body as {
      items: { id: string; email: string; name: string }[];
    };
    await owner
      .post(`/api/prospects/${waiting.items[0].id}/approve`)
      .send({
        memberName: 'Paused Friend',
        memberEmail: waiting.items[0].email,
        membershipPriceCents: 6_000,
        discountCents: 1_000,
      })
      .expect(201);
  });

  it('refuses a forged, re-signed or stale webhook (400) and applies nothing; one business’s event never touches another', async () => {
    const victim = await ownerWithTree(bed, 'Victim Gym');
    await approveFriends(victim.owner, bed.t, victim.referrerId, ['Émile Zola', 'Ines Weiß']);
    const event = JSON.stringify({
      id: 'evt_forged_1',
      object: 'event',
      type: 'customer.subscription.updated',
      data: {
        object: { id: 'sub_x', object: 'subscription', customer: 'cus_x', status: 'active' },
      },
    });
    const post = (body: string, signature?: string) => {
      const request = bed.t
        .agent()
        .post('/api/billing/stripe-webhook')
        .set('content-type', 'application/json');
      return (signature ? request.set('stripe-signature', signature) : request).send(body);
    };
    await post(event).expect(400);
    await post(event, signed(event, 'whsec_not_grove0secret')).expect(400);
    await post(
      event,
      signed(event, TEST_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600),
    ).expect(400);
    await post(`${event} `, signed(event)).expect(400);
    const [{ n }] = (await bed.t.dataSource.query(
      `SELECT count(*)::int AS n FROM stripe_events WHERE id = 'evt_forged_1'`,
    )) as { n: number }[];
    expect(n).toBe(0);

    // A correctly signed event naming a customer of no Grove business (or another business's
    // subscription) changes nobody: the victim still needs a card.
    await post(event, signed(event)).expect(200, { received: true });
    await post(event, signed(event)).expect(200, { received: true });
    const checkout = JSON.stringify({
      id: 'evt_forged_2',
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: 'cs_test_x',
          object: 'checkout.session',
          customer: 'cus_other',
          subscription: 'sub_other',
          client_reference_id: 'not-a-uuid',
        },
      },
    });
    await post(checkout, signed(checkout)).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await summaryOf(victim.owner)).toMatchObject({ state: 'card-needed', canManage: false });
  });

  it('applies the state Stripe has now when events arrive out of order (cancelled in the portal)', async () => {
    const { owner, email, referrerId } = await ownerWithTree(bed, 'Out of Order Gym');
    await approveFriends(owner, bed.t, referrerId, ['Zoë One', 'Zoë Two']);
    const { url } = (await owner.post('/api/billing/checkout').expect(200)).body as { url: string };
    await payCheckout(url);
    await waitFor(async () => (await summaryOf(owner)).state === 'active');
    const [{ stripe_subscription_id: subscription }] = (await bed.t.dataSource.query(
      `SELECT stripe_subscription_id FROM business_billing bb JOIN users u ON u.business_id = bb.business_id WHERE u.email = $1`,
      [email],
    )) as { stripe_subscription_id: string }[];
    const sdk = sdkFor(bed.stripe);
    await sdk.subscriptions.update(subscription, { cancel_at_period_end: true });
    await fetch(`${bed.stripe.controlUrl}/idle`, { method: 'POST' });
    await waitFor(async () => (await summaryOf(owner)).cancelAtPeriodEnd);
    // Every event of this subscription again, newest first: the final state stays "cancels at period end".
    const events = (await (await fetch(`${bed.stripe.controlUrl}/events`)).json()) as {
      id: string;
    }[];
    const ids = events.filter((e) => JSON.stringify(e).includes(subscription)).map((e) => e.id);
    await bed.t.dataSource.query(`DELETE FROM stripe_events WHERE id = ANY($1)`, [ids]);
    await fetch(`${bed.stripe.controlUrl}/events/deliver`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids }),
    });
    await fetch(`${bed.stripe.controlUrl}/idle`, { method: 'POST' });
    await waitFor(async () => {
      const [{ n }] = (await bed.t.dataSource.query(
        `SELECT count(*)::int AS n FROM stripe_events WHERE id = ANY($1)`,
        [ids],
      )) as { n: number }[];
      return n === ids.length;
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await summaryOf(owner)).toMatchObject({
      state: 'active',
      cancelAtPeriodEnd: true,
      nextChargeCents: null,
    });
  });

  it('a burst of one subscription’s events: each recorded once, each applied, Stripe read a few times, not once per event', async () => {
    const { owner, email, referrerId } = await ownerWithTree(bed, 'Burst Gym');
    await approveFriends(owner, bed.t, referrerId, ['Ana-Sofía One', 'Ana-Sofía Two']);
    const { url } = (await owner.post('/api/billing/checkout').expect(200)).body as { url: string };
    await payCheckout(url);
    await waitFor(async () => (await summaryOf(owner)).state === 'active');
    const [{ subscription, customer }] = (await bed.t.dataSource.query(
      `SELECT stripe_subscription_id AS subscription, stripe_customer_id AS customer
       FROM business_billing bb JOIN users u ON u.business_id = bb.business_id WHERE u.email = $1`,
      [email],
    )) as { subscription: string; customer: string }[];
    // Cancelled at period end in Stripe, then 30 events of that subscription at once, each with
    // the object as it was before (the jobs read the subscription as Stripe has it now).
    await sdkFor(bed.stripe).subscriptions.update(subscription, { cancel_at_period_end: true });
    await fetch(`${bed.stripe.controlUrl}/idle`, { method: 'POST' });
    await waitFor(async () => (await summaryOf(owner)).cancelAtPeriodEnd);
    const reads = jest.spyOn(bed.t.app.get(StripeClient).stripe.subscriptions, 'retrieve');
    const ids = Array.from({ length: 30 }, (_, i) => `evt_burst_${Date.now()}_${i}`);
    await Promise.all(
      ids.map((id) => {
        const event = JSON.stringify({
          id,
          object: 'event',
          type: 'customer.subscription.updated',
          data: {
            object: { id: subscription, object: 'subscription', customer, status: 'active' },
          },
        });
        return bed.t
          .agent()
          .post('/api/billing/stripe-webhook')
          .set('content-type', 'application/json')
          .set('stripe-signature', signed(event))
          .send(event)
          .expect(200, { received: true });
      }),
    );
    const [{ recorded }] = (await bed.t.dataSource.query(
      `SELECT count(*)::int AS recorded FROM stripe_events WHERE id = ANY($1)`,
      [ids],
    )) as { recorded: number }[];
    expect(recorded).toBe(30);
    await waitFor(async () => {
      const [{ done }] = (await bed.t.dataSource.query(
        `SELECT count(*)::int AS done FROM pgboss.job
          WHERE name = 'billing.stripe-event' AND data->>'eventId' = ANY($1) AND state = 'completed'`,
        [ids],
      )) as { done: number }[];
      return done === 30;
    });
    expect(reads.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(reads.mock.calls.length).toBeLessThan(30);
    reads.mockRestore();
    expect(await summaryOf(owner)).toMatchObject({ state: 'active', cancelAtPeriodEnd: true });
  });

  it('answers 401 without a session; each business sees and manages only its own bill (tenant isolation)', async () => {
    await bed.t.agent().get('/api/billing').expect(401);
    await bed.t.agent().post('/api/billing/checkout').expect(401);
    await bed.t.agent().post('/api/billing/portal').expect(401);
    const paying = await ownerWithTree(bed, 'Paying Gym');
    await approveFriends(paying.owner, bed.t, paying.referrerId, ['Léa One', 'Léa Two']);
    const { url } = (await paying.owner.post('/api/billing/checkout').expect(200)).body as {
      url: string;
    };
    await payCheckout(url);
    await waitFor(async () => (await summaryOf(paying.owner)).state === 'active');
    const other = await ownerWithTree(bed, 'Other Gym');
    expect(await summaryOf(other.owner)).toMatchObject({
      state: 'free',
      membersThroughGrove: 0,
      canManage: false,
      invoices: [],
      nextChargeAt: null,
    });
    await other.owner.post('/api/billing/portal').expect(409);
  });
});

describe('GROVE_BILLING=off (integration, issue 30)', () => {
  let bed: BillingTestBed;
  beforeAll(async () => {
    bed = await startBillingTestBed({ GROVE_BILLING: 'off', BILLING_GRACE_DAYS: '0' });
  });
  afterAll(() => bed.close());

  it('shows no billing and never pauses, however many members arrive', async () => {
    const { owner, referrerId } = await ownerWithTree(bed);
    expect(await approveFriends(owner, bed.t, referrerId, ['Un', 'Deux', 'Trois'])).toEqual([
      201, 201, 201,
    ]);
    expect(await summaryOf(owner)).toMatchObject({
      enabled: false,
      paused: false,
      graceEndsAt: null,
      canManage: false,
    });
    await owner.post('/api/billing/checkout').expect(503);
  });
});

describe('Checkout and portal sessions: limited per business, and a customer Stripe no longer has (integration, issue 30)', () => {
  let bed: BillingTestBed;
  beforeAll(async () => {
    bed = await startBillingTestBed({ THROTTLE_BILLING_LIMIT: '3' });
  });
  afterAll(() => bed.close());

  const customerOf = async (owner: TestAgent): Promise<string | null> => {
    const me = (await owner.get('/api/auth/me').expect(200)).body as {
      business: { id: string };
    };
    const [row] = (await bed.t.dataSource.query(
      `SELECT stripe_customer_id FROM business_billing WHERE business_id = $1`,
      [me.business.id],
    )) as { stripe_customer_id: string | null }[];
    return row?.stripe_customer_id ?? null;
  };

  it('takes THROTTLE_BILLING_LIMIT sessions a business an hour (Checkout and portal together), then 429; another business is not held back', async () => {
    const { owner } = await ownerWithTree(bed, "O'Malley Strength");
    for (let i = 0; i < 2; i++) await owner.post('/api/billing/checkout').expect(200);
    await owner.post('/api/billing/portal').expect(200);
    const refused = await owner.post('/api/billing/checkout').expect(429);
    expect(refused.body.message).toMatch(/^Too many attempts\. Try again in \d+ minutes\.$/);
    await owner.post('/api/billing/portal').expect(429);
    const other = await ownerWithTree(bed, 'Café Fitness Montréal');
    await other.owner.post('/api/billing/checkout').expect(200);
  });

  it('a stored customer Stripe no longer has: Checkout makes a new one (once) and goes on; the portal asks for a card first', async () => {
    const { owner } = await ownerWithTree(bed, 'Åsa’s Yoga Loft');
    await owner.post('/api/billing/checkout').expect(200);
    const first = await customerOf(owner);
    expect(first).toMatch(/^cus_/);
    // As after keys of another Stripe account, or a customer deleted in Stripe's dashboard.
    await bed.t.dataSource.query(
      `UPDATE business_billing SET stripe_customer_id = 'cus_gone_from_stripe' WHERE stripe_customer_id = $1`,
      [first],
    );
    const checkout = (await owner.post('/api/billing/checkout').expect(200)).body as {
      url: string;
    };
    expect(checkout.url).toMatch(/^http/);
    const replaced = await customerOf(owner);
    expect(replaced).toMatch(/^cus_/);
    expect(replaced).not.toBe('cus_gone_from_stripe');
    expect((await sdkFor(bed.stripe).customers.retrieve(replaced as string)).id).toBe(replaced);

    await bed.t.dataSource.query(
      `UPDATE business_billing SET stripe_customer_id = 'cus_gone_again' WHERE stripe_customer_id = $1`,
      [replaced],
    );
    const portal = await owner.post('/api/billing/portal').expect(409);
    expect(portal.body.message).toBe(MESSAGES.billingNoCustomer);
    expect(await customerOf(owner)).toBeNull();
  });
});
