import type TestAgent from 'supertest/lib/agent';
import { MESSAGES, memberBillFormats, type MemberPage } from '@grove/contracts';
import { recipient, type SmtpCatcher } from '@grove/testing-smtp';
import type { TestApp } from '../../../../../test/test-app';
import { createMailTestApp } from '../../../../../test/member-mail';
import { waitFor } from '../../../../../test/stub-servers';
import {
  delayingStripeProxy,
  startStripeSandbox,
  stripeRun,
  type DelayingStripeProxy,
  type RunningStripeSandbox,
} from '../../../../../test/stripe-sandbox';
import { MEMBER_PAGE_CHARGE_BUDGET_MS } from '../../../member/member-page/member-next-charges';
import { jobScope } from '../../../platform/database/business-scope';
import { StripeMembersRepository } from '../persistence/stripe-members.repository';

jest.setTimeout(120_000);

const GYM_KEY = 'rk_test_cork_climbing_key';
/** Another gym's key, to its own Stripe account (a stand-in of its own). */
const OTHER_GYM_KEY = 'rk_test_galway_bouldering_key';
const PERMISSIONS = {
  customer: 'read',
  subscription: 'write',
  coupon: 'write',
  invoice: 'read',
} as const;

/**
 * Issue 32: the member's own page (`GET /api/member/me` and the HTML `/member`, rendered by the
 * API) says "Stripe will charge $X on <date>" from the subscription's upcoming invoice, in its
 * currency, as the dashboard does; nothing when Stripe has no upcoming invoice, and nothing (but
 * the page, in time) when Stripe is slower than the page's budget. Stand-in + real PostgreSQL + SMTP.
 */
describe("the member page's next Stripe charge (integration, stand-in)", () => {
  let stripe: RunningStripeSandbox;
  let otherStripe: RunningStripeSandbox;
  let proxy: DelayingStripeProxy;
  let t: TestApp;
  let smtp: SmtpCatcher;
  let owner: TestAgent;
  let member: TestAgent;
  let subscriptionId: string;
  let otherOwner: TestAgent;
  let businessId: string;

  /** The upcoming-invoice previews Cork Climbing's Stripe answered so far. */
  const previews = () =>
    stripe.sandbox.requests().filter((request) => request.path === '/v1/invoices/create_preview')
      .length;
  /** Grove records a discount on Siobhán's subscription, as a sync's write does. */
  const groveWritesDiscount = (cents: number) =>
    t.app
      .get(StripeMembersRepository)
      .setGroveDiscount(jobScope({ businessId }), subscriptionId, cents, null, null);

  const control = async (path: string, body: object = {}) =>
    (await (
      await fetch(`${stripe.controlUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, unknown>;

  beforeAll(async () => {
    stripe = await startStripeSandbox({ restrictedKeys: { [GYM_KEY]: PERMISSIONS } });
    otherStripe = await startStripeSandbox({ restrictedKeys: { [OTHER_GYM_KEY]: PERMISSIONS } });
    proxy = await delayingStripeProxy(stripe.url, { [OTHER_GYM_KEY]: otherStripe.url });
    const subscription = await control('/members', {
      email: 'siobhan.obrien@example.com',
      name: 'Siobhán O’Brien',
      amount: 5_000,
      currency: 'eur',
    });
    subscriptionId = subscription.id as string;
    ({ t, smtp } = await createMailTestApp({
      STRIPE_API_URL: proxy.url,
      THROTTLE_MEMBER_LINK_LIMIT: '100',
    }));
    const cork = await t.signUp({ businessName: 'Cork Climbing' });
    owner = cork.agent;
    businessId = cork.user.business.id;
    await owner.put('/api/stripe-members/credentials').send({ apiKey: GYM_KEY }).expect(200);
    expect(await stripeRun(owner, 'import')).toMatchObject({ state: 'done', membersWritten: 1 });
    // Another gym, its own Stripe account and member.
    await fetch(`${otherStripe.controlUrl}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'zoe.darcy@example.com',
        name: "Zoë D'Arcy-Nguyễn",
        amount: 7_300,
        currency: 'usd',
      }),
    });
    otherOwner = (await t.signUp({ businessName: 'Galway Bouldering' })).agent;
    await otherOwner
      .put('/api/stripe-members/credentials')
      .send({ apiKey: OTHER_GYM_KEY })
      .expect(200);
    expect(await stripeRun(otherOwner, 'import')).toMatchObject({
      state: 'done',
      membersWritten: 1,
    });
    // Siobhán signs in to her page with the link she asks for.
    await t
      .agent()
      .post('/api/member/magic-link')
      .send({ email: 'siobhan.obrien@example.com' })
      .expect(202);
    const mail = await waitFor(async () =>
      smtp.emails.find((entry) => recipient(entry) === 'siobhan.obrien@example.com'),
    );
    const token = /\/member#token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
    member = t.agent();
    await member.post('/api/member/session').send({ token }).expect(204);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await proxy?.close();
    await stripe?.close();
    await otherStripe?.close();
  });

  it('shows what Stripe will charge next, in the subscription’s currency, as the dashboard words it', async () => {
    const asked = previews();
    const page = (await member.get('/api/member/me').expect(200)).body as MemberPage;
    expect(page.managedBy).toBe('Stripe');
    expect(page.stripeNextCharge).toMatchObject({ amountCents: 5_000, currency: 'eur' });
    const at = page.stripeNextCharge?.at ?? '';
    expect(Date.parse(at)).toBeGreaterThan(Date.now());
    const day = memberBillFormats(page.businessLocale, 'eur').date(at);
    const html = (await member.get('/member').expect(200)).text;
    expect(html).toMatch(new RegExp(`Stripe will charge EUR\\s50\\.00 on ${day}\\.`, 'u'));
    expect(html).not.toContain('€');
    // Two views of her page, one question to the gym's Stripe (issue 36).
    expect(previews()).toBe(asked + 1);
  });

  it('asks Stripe again after Grove writes her discount, and reloading the page does not', async () => {
    const asked = previews();
    for (let view = 0; view < 3; view++) await member.get('/member').expect(200);
    expect(previews()).toBe(asked);
    await groveWritesDiscount(500);
    const page = (await member.get('/api/member/me').expect(200)).body as MemberPage;
    expect(page.stripeNextCharge).toMatchObject({ amountCents: 5_000, currency: 'eur' });
    expect(previews()).toBe(asked + 1);
    await member.get('/member').expect(200);
    expect(previews()).toBe(asked + 1);
  });

  it("keeps each gym's next charge to its own members, both gyms on Stripe accounts of their own", async () => {
    const idOf = async (agent: TestAgent, email: string) =>
      (
        (await agent.get(`/api/members?search=${encodeURIComponent(email)}`).expect(200)).body as {
          items: { id: string }[];
        }
      ).items[0]?.id ?? '';
    const siobhan = await idOf(owner, 'siobhan.obrien@example.com');
    const zoe = await idOf(otherOwner, 'zoe.darcy@example.com');
    expect(siobhan).not.toBe('');
    expect(zoe).not.toBe('');
    const next = (agent: TestAgent, id: string) =>
      agent.get(`/api/stripe-members/members/${id}/next-charge`);
    expect((await next(owner, siobhan).expect(200)).body).toMatchObject({
      amountCents: 5_000,
      currency: 'eur',
    });
    expect((await next(otherOwner, zoe).expect(200)).body).toMatchObject({
      amountCents: 7_300,
      currency: 'usd',
    });
    // Neither sees the other's member's charge: the same answer as for no member at all.
    for (const [agent, id] of [
      [owner, zoe],
      [otherOwner, siobhan],
    ] as const) {
      const refused = await next(agent, id).expect(404);
      expect(refused.body.message).toBe(MESSAGES.stripeNoSubscription);
      expect(JSON.stringify(refused.body)).not.toMatch(/7300|5000|eur|usd/i);
    }
    // And neither business's member list holds the other's member.
    expect(await idOf(owner, 'zoe.darcy@example.com')).toBe('');
    expect(await idOf(otherOwner, 'siobhan.obrien@example.com')).toBe('');
  });

  it('leaves the line out, and answers within its budget, when Stripe is slow', async () => {
    // A new discount: the page asks Stripe again (the answer kept before is for the old one).
    await groveWritesDiscount(0);
    proxy.delay.match = /^POST \/v1\/invoices\/create_preview$/;
    proxy.delay.ms = MEMBER_PAGE_CHARGE_BUDGET_MS + 3_000;
    try {
      const started = Date.now();
      const page = (await member.get('/api/member/me').expect(200)).body as MemberPage;
      expect(Date.now() - started).toBeLessThan(MEMBER_PAGE_CHARGE_BUDGET_MS + 2_000);
      expect(page.stripeNextCharge).toBeUndefined();
      expect(page.priceNowCents).toBe(5_000);
      const html = (await member.get('/member').expect(200)).text;
      expect(html).not.toContain('Stripe will charge');
      expect(html).toContain('Your Stripe subscription price. ');
    } finally {
      proxy.delay.ms = 0;
    }
  });

  it('leaves the line out when Stripe has no upcoming invoice (the subscription was cancelled)', async () => {
    // No answer is kept from the slow reads above (a failed read is not), so the page asks.
    await control(`/subscriptions/${subscriptionId}/cancel`);
    const page = (await member.get('/api/member/me').expect(200)).body as MemberPage;
    expect(page.stripeNextCharge).toBeUndefined();
    expect((await member.get('/member').expect(200)).text).not.toContain('Stripe will charge');
  });
});
