import type TestAgent from 'supertest/lib/agent';
import type Stripe from 'stripe';
import {
  WELCOME_OFFER_STRIPE_TEXTS,
  type MemberRow,
  type MoneyReport,
  type Page,
  type ProspectRow,
  type ReferralLink,
  type WelcomeOfferGrant,
} from '@grove/contracts';
import { jobScope } from '../../../platform/database/business-scope';
import { createTestApp, treeBody, type TestApp } from '../../../../../test/test-app';
import {
  sdkFor,
  startStripeSandbox,
  type RunningStripeSandbox,
} from '../../../../../test/stripe-sandbox';
import { waitFor } from '../../../../../test/stub-servers';
import { WelcomeOfferRepository } from '../../../referral/welcome-offer/welcome-offer.repository';
import { StripeWelcomeOffer } from './stripe-welcome-offer';

jest.setTimeout(180_000);

const GYM_KEY = 'rk_test_oconnell_strength_key';

interface Grants {
  items: WelcomeOfferGrant[];
  appliesInStripe: boolean;
}

/**
 * Issue 33 item 1 at a gym billing its members on Stripe: a person's approval writes the friend's
 * welcome offer as a `repeating` coupon on their subscription, once, and records what it costs;
 * a text offer, an automatic approval, another currency or a friend with no subscription yet are
 * listed as they stand. Stand-in + real PostgreSQL.
 */
describe("the welcome offer on the friend's Stripe subscription (integration, stand-in)", () => {
  let stripe: RunningStripeSandbox;
  let admin: Stripe;
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let businessId: string;
  let code: string;

  const seed = async (body: Record<string, unknown>) =>
    (await fetch(`${stripe.controlUrl}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((reply) => reply.json())) as Stripe.Subscription;
  const grants = async (agent: TestAgent = owner) =>
    (await agent.get('/api/welcome-offers').expect(200)).body as Grants;
  const grantOf = async (name: string) =>
    (await grants()).items.find((grant) => grant.memberName === name);
  /** The coupons of a subscription's discounts, as Stripe has them. */
  const couponsOn = async (subscriptionId: string) =>
    (
      await admin.subscriptions.retrieve(subscriptionId, {
        expand: ['discounts.source.coupon'],
      })
    ).discounts.map((discount) => (discount as Stripe.Discount).source.coupon as Stripe.Coupon);
  const couponWrites = () => postsTo('/v1/coupons');
  const postsTo = (path: string) =>
    stripe.sandbox
      .requests()
      .filter((request) => request.method === 'POST' && request.path === path).length;

  /** A friend joins through Siobhán's link and the owner approves them at $50.00 a month. */
  const joinAndApprove = async (name: string, email: string): Promise<MemberRow> => {
    await t.agent().post(`/api/referrals/${code}/join`).send({ name, email }).expect(201);
    const prospect = await waitFor(async () => {
      const page = (await owner.get('/api/prospects?pageSize=100').expect(200))
        .body as Page<ProspectRow>;
      return page.items.find((row) => row.email === email);
    });
    return (
      await owner
        .post(`/api/prospects/${prospect.id}/approve`)
        .send({
          memberName: name,
          memberEmail: email,
          membershipPriceCents: 5000,
          discountCents: 1000,
        })
        .expect(201)
    ).body as MemberRow;
  };

  beforeAll(async () => {
    stripe = await startStripeSandbox({
      restrictedKeys: {
        [GYM_KEY]: { customer: 'read', subscription: 'write', coupon: 'write', invoice: 'read' },
      },
    });
    admin = sdkFor(stripe);
    t = await createTestApp({ STRIPE_API_URL: stripe.url, THROTTLE_REFERRAL_LIMIT: '1000' });
    const signedUp = await t.signUp({ businessName: "O'Connell Strength" });
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
    other = (await t.signUp({ businessName: 'Harbour Pilates' })).agent;
    const siobhan = (
      await owner
        .post('/api/members')
        .send(treeBody("Siobhán O'Brien", 'siobhan@example.ie'))
        .expect(201)
    ).body as MemberRow;
    code = (
      (await owner.post(`/api/members/${siobhan.id}/referral-link`).send({}).expect(201))
        .body as ReferralLink
    ).code;
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('writes nothing to Stripe before the gym connects it: the offer is listed to honour', async () => {
    await owner.put('/api/settings/welcome-offer').send({ kind: 'free', months: 1 }).expect(200);
    expect((await grants()).appliesInStripe).toBe(false);
    await joinAndApprove('Ana-Sofía Núñez', 'ana-sofia@example.es');
    expect(await grantOf('Ana-Sofía Núñez')).toMatchObject({ stripe: null, honouredAt: null });
    expect(couponWrites()).toBe(0);
  });

  it("puts 'first month free' on the friend's subscription as 100% off for one month, once", async () => {
    const friend = await seed({
      email: 'zoe.darcy@example.com',
      name: "Zoë D'Arcy-Nguyễn",
      amount: 6_500,
      currency: 'aud',
    });
    await owner.put('/api/stripe-members/credentials').send({ apiKey: GYM_KEY }).expect(200);
    expect((await grants()).appliesInStripe).toBe(true);
    expect((await grants(other)).appliesInStripe).toBe(false);

    await joinAndApprove("Zoë D'Arcy-Nguyễn", 'zoe.darcy@example.com');
    const applied = await waitFor(async () => {
      const grant = await grantOf("Zoë D'Arcy-Nguyễn");
      return grant?.stripe?.state === 'applied' ? grant : undefined;
    });
    expect(applied.stripe).toEqual({ state: 'applied', subscriptionId: friend.id, note: null });
    expect(applied.honouredAt).not.toBeNull();

    const coupons = await couponsOn(friend.id);
    expect(coupons).toHaveLength(1);
    expect(coupons[0]).toMatchObject({
      duration: 'repeating',
      duration_in_months: 1,
      percent_off: 100,
      amount_off: null,
    });
    expect((await admin.invoices.createPreview({ subscription: friend.id })).total).toBe(0);

    // Again (a job delivered twice): the grant is no longer pending, Stripe is not called.
    const writes = couponWrites();
    const [row] = (await t.dataSource.query(
      `SELECT id FROM welcome_offer_grants WHERE stripe_subscription_id = $1`,
      [friend.id],
    )) as { id: string }[];
    await t.app.get(StripeWelcomeOffer).apply(jobScope({ businessId }), row.id);
    expect(couponWrites()).toBe(writes);
  });

  it('records what the offer cost from the Stripe price, and Analytics sums what was recorded', async () => {
    // Ana-Sofía: a free month at $50.00 (her approval's price); Zoë: her subscription's $65.00.
    const money = (await owner.get('/api/analytics/money?period=30').expect(200))
      .body as MoneyReport;
    expect(money).toMatchObject({ welcomeOffersGranted: 2, welcomeOffersCostCents: 5_000 + 6_500 });
  });

  it('waits for a friend without a subscription, and writes it when their first invoice is paid', async () => {
    await owner
      .put('/api/settings/welcome-offer')
      .send({ kind: 'percent', percent: 50, months: 3 })
      .expect(200);
    await joinAndApprove('Chidi Okonkwo', 'chidi@example.ng');
    await waitFor(async () =>
      (
        await t.dataSource.query(
          `SELECT 1 FROM pgboss.job WHERE name = 'stripe-members.welcome-offer' AND state = 'completed'
          AND data->>'grantId' = (SELECT g.id::text FROM welcome_offer_grants g
            JOIN members m ON m.id = g.member_id WHERE m.email = 'chidi@example.ng')`,
        )
      ).length > 0
        ? true
        : undefined,
    );
    expect((await grantOf('Chidi Okonkwo'))?.stripe).toEqual({
      state: 'pending',
      subscriptionId: null,
      note: null,
    });

    const chidi = await seed({ email: 'chidi@example.ng', name: 'Chidi Okonkwo', amount: 8_000 });
    await t.app.get(StripeWelcomeOffer).applyPending(jobScope({ businessId }));
    expect((await grantOf('Chidi Okonkwo'))?.stripe).toMatchObject({
      state: 'applied',
      subscriptionId: chidi.id,
    });
    expect(await couponsOn(chidi.id)).toMatchObject([
      { percent_off: 50, duration: 'repeating', duration_in_months: 3 },
    ]);
  });

  it('lists an amount offer at a subscription of another currency to honour, writing nothing', async () => {
    await owner
      .put('/api/settings/welcome-offer')
      .send({ kind: 'amount', amountCents: 2_000, months: 2 })
      .expect(200);
    await seed({
      email: 'ben.oconnor@example.com',
      name: "Ben O'Connor",
      amount: 6_500,
      currency: 'usd',
    });
    const writes = couponWrites();
    await joinAndApprove("Ben O'Connor", 'ben.oconnor@example.com');
    const failed = await waitFor(async () => {
      const grant = await grantOf("Ben O'Connor");
      return grant?.stripe?.state === 'failed' ? grant : undefined;
    });
    expect(failed.stripe?.note).toBe(WELCOME_OFFER_STRIPE_TEXTS.otherCurrency('USD', 'AUD'));
    expect(failed.honouredAt).toBeNull();
    expect(couponWrites()).toBe(writes);
  });

  it('never writes a text offer to Stripe', async () => {
    await owner
      .put('/api/settings/welcome-offer')
      .send({ kind: 'text', text: 'a free class' })
      .expect(200);
    await seed({ email: 'aoife@example.ie', name: 'Aoife Ní Bhriain', amount: 6_500 });
    await joinAndApprove('Aoife Ní Bhriain', 'aoife@example.ie');
    expect(await grantOf('Aoife Ní Bhriain')).toMatchObject({ stripe: null, honouredAt: null });
  });

  it('records a coupon Stripe took whose record failed on the retry, writing nothing twice', async () => {
    await owner
      .put('/api/settings/welcome-offer')
      .send({ kind: 'amount', amountCents: 1_500, months: 2 })
      .expect(200);
    const friend = await seed({
      email: 'siobhan.k@example.ie',
      name: 'Siobhán Kavanagh',
      amount: 7_000,
      currency: 'aud',
    });
    const record = jest
      .spyOn(t.app.get(WelcomeOfferRepository), 'recordStripeApplied')
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'));
    const coupons = couponWrites();
    await joinAndApprove('Siobhán Kavanagh', 'siobhan.k@example.ie');
    await waitFor(async () => (record.mock.calls.length > 0 ? true : undefined));
    // Stripe took both writes; Grove's record of them did not happen.
    expect(await couponsOn(friend.id)).toMatchObject([{ amount_off: 1_500, currency: 'aud' }]);
    expect(await grantOf('Siobhán Kavanagh')).toMatchObject({ stripe: { state: 'pending' } });
    const subscriptionWrites = postsTo(`/v1/subscriptions/${friend.id}`);

    const [row] = (await t.dataSource.query(
      `SELECT g.id FROM welcome_offer_grants g JOIN members m ON m.id = g.member_id
        WHERE m.email = 'siobhan.k@example.ie'`,
    )) as { id: string }[];
    await t.app.get(StripeWelcomeOffer).apply(jobScope({ businessId }), row.id);
    expect((await grantOf('Siobhán Kavanagh'))?.stripe).toEqual({
      state: 'applied',
      subscriptionId: friend.id,
      note: null,
    });
    expect(couponWrites()).toBe(coupons + 1);
    expect(postsTo(`/v1/subscriptions/${friend.id}`)).toBe(subscriptionWrites);
    expect(await couponsOn(friend.id)).toHaveLength(1);
    record.mockRestore();
  });
});
