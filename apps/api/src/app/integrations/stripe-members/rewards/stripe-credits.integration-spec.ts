import type TestAgent from 'supertest/lib/agent';
import type Stripe from 'stripe';
import {
  DEFAULT_REFERRER_REWARD,
  MESSAGES,
  type MemberRow,
  type Page,
  type ProspectRow,
  type ReferralLink,
} from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import {
  sdkFor,
  startStripeSandbox,
  stripeRun,
  type RunningStripeSandbox,
} from '../../../../../test/stripe-sandbox';
import { waitFor } from '../../../../../test/stub-servers';

jest.setTimeout(180_000);

const GYM_KEY = 'rk_test_harbour_credit_key';
const PREVIEW = '/api/stripe-members/credits/preview';
const CONFIRM = '/api/stripe-members/credits';

interface Credits {
  items: {
    rewardId: string;
    referrerName: string;
    branchName: string;
    amountCents: number;
    currency: string;
  }[];
  totalCents: number;
  fingerprint: string;
}

/**
 * Issue 33 item 2 at a gym billing its members on Stripe: a referrer's one-off credit per counting
 * branch is previewed, then written once the owner confirms, as one customer-balance credit per
 * owed reward, never twice. Stand-in + real PostgreSQL.
 */
describe("referrers' one-off credits on the gym's Stripe (integration, stand-in)", () => {
  let stripe: RunningStripeSandbox;
  let admin: Stripe;
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let siobhanSubscription: Stripe.Subscription;
  let code: string;

  const creditWrites = () =>
    stripe.sandbox
      .requests()
      .filter(
        (request) => request.method === 'POST' && request.path.endsWith('/balance_transactions'),
      ).length;
  const balance = async () =>
    ((await admin.customers.retrieve(siobhanSubscription.customer as string)) as Stripe.Customer)
      .balance;
  const preview = async () => (await owner.get(PREVIEW).expect(200)).body as Credits;

  /** A friend joins through Siobhán's link and the owner approves them at $50.00 a month. */
  const joinAndApprove = async (name: string, email: string): Promise<void> => {
    await t.agent().post(`/api/referrals/${code}/join`).send({ name, email }).expect(201);
    const prospect = await waitFor(async () => {
      const page = (await owner.get('/api/prospects?pageSize=100').expect(200))
        .body as Page<ProspectRow>;
      return page.items.find((row) => row.email === email);
    });
    await owner
      .post(`/api/prospects/${prospect.id}/approve`)
      .send({ memberName: name, memberEmail: email, membershipPriceCents: 5000, discountCents: 0 })
      .expect(201);
  };

  beforeAll(async () => {
    stripe = await startStripeSandbox({
      restrictedKeys: {
        [GYM_KEY]: { customer: 'write', subscription: 'write', coupon: 'write', invoice: 'read' },
      },
    });
    admin = sdkFor(stripe);
    siobhanSubscription = (await fetch(`${stripe.controlUrl}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'siobhan@example.ie',
        name: "Siobhán O'Brien",
        amount: 6_500,
        currency: 'aud',
      }),
    }).then((reply) => reply.json())) as Stripe.Subscription;
    t = await createTestApp({ STRIPE_API_URL: stripe.url, THROTTLE_REFERRAL_LIMIT: '1000' });
    owner = (await t.signUp({ businessName: 'Harbour Strength' })).agent;
    other = (await t.signUp({ businessName: 'Other Gym' })).agent;
    await owner.put('/api/stripe-members/credentials').send({ apiKey: GYM_KEY }).expect(200);
    expect((await stripeRun(owner, 'import')).state).toBe('done');
    await owner
      .put('/api/settings/referrer-reward')
      .send({ ...DEFAULT_REFERRER_REWARD, kind: 'credit', creditCents: 2_500 })
      .expect(200);
    const page = (await owner.get('/api/members?search=siobhan').expect(200))
      .body as Page<MemberRow>;
    const siobhan = page.items.find((row) => row.memberEmail === 'siobhan@example.ie');
    code = (
      (await owner.post(`/api/members/${siobhan?.id}/referral-link`).send({}).expect(201))
        .body as ReferralLink
    ).code;
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('previews one credit per counting branch, and writes nothing before the owner confirms', async () => {
    await joinAndApprove("Ben O'Connor", 'ben@example.com');
    await joinAndApprove("Zoë D'Arcy-Nguyễn", 'zoe@example.com');
    const credits = await preview();
    expect(
      credits.items.map((item) => [
        item.referrerName,
        item.branchName,
        item.amountCents,
        item.currency,
      ]),
    ).toEqual([
      ["Siobhán O'Brien", "Ben O'Connor", 2_500, 'AUD'],
      ["Siobhán O'Brien", "Zoë D'Arcy-Nguyễn", 2_500, 'AUD'],
    ]);
    expect(credits.totalCents).toBe(5_000);
    expect(creditWrites()).toBe(0);
  });

  it('refuses a confirmation without the fingerprint, or of another preview, writing nothing', async () => {
    for (const body of [{}, { confirm: 'nope' }, { confirm: ['a'] }]) {
      const refused = await owner.post(CONFIRM).send(body).expect(400);
      expect(refused.body.message).toBe(MESSAGES.mindbodySyncConfirmRequired);
    }
    const stale = await owner
      .post(CONFIRM)
      .send({ confirm: '0'.repeat(32) })
      .expect(409);
    expect(stale.body.message).toBe(MESSAGES.mindbodySyncPreviewStale);
    expect(creditWrites()).toBe(0);
  });

  it("keeps each business's credits its own, and needs a session", async () => {
    const theirs = await other.get(PREVIEW).expect(409);
    expect(theirs.body.message).toBe(MESSAGES.stripeNotConnected);
    await other
      .post(CONFIRM)
      .send({ confirm: (await preview()).fingerprint })
      .expect(409);
    await t.agent().get(PREVIEW).expect(401);
    await t.agent().post(CONFIRM).send({}).expect(401);
    expect(creditWrites()).toBe(0);
  });

  it('writes one credit per owed reward once confirmed, and never twice', async () => {
    const { fingerprint } = await preview();
    expect((await owner.post(CONFIRM).send({ confirm: fingerprint }).expect(200)).body).toEqual({
      credited: 2,
    });
    expect(await balance()).toBe(-5_000);
    expect(creditWrites()).toBe(2);

    // Nothing left: the same confirmation is stale, and an empty one writes nothing.
    await owner.post(CONFIRM).send({ confirm: fingerprint }).expect(409);
    const empty = await preview();
    expect(empty).toMatchObject({ items: [], totalCents: 0 });
    expect(
      (await owner.post(CONFIRM).send({ confirm: empty.fingerprint }).expect(200)).body,
    ).toEqual({
      credited: 0,
    });
    expect(await balance()).toBe(-5_000);
    expect(creditWrites()).toBe(2);

    // The owner's list shows both honoured.
    const owed = (await owner.get('/api/referrer-rewards').expect(200)).body as {
      items: { branchName: string; honouredAt: string | null }[];
    };
    expect(owed.items.every((item) => item.honouredAt !== null)).toBe(true);
  });
});
