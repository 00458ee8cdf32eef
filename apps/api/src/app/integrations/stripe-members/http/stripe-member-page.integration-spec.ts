import type TestAgent from 'supertest/lib/agent';
import { memberBillFormats, type MemberPage } from '@grove/contracts';
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

jest.setTimeout(120_000);

const GYM_KEY = 'rk_test_cork_climbing_key';

/**
 * Issue 32: the member's own page (`GET /api/member/me` and the HTML `/member`, rendered by the
 * API) says "Stripe will charge $X on <date>" from the subscription's upcoming invoice, in its
 * currency, as the dashboard does; nothing when Stripe has no upcoming invoice, and nothing (but
 * the page, in time) when Stripe is slower than the page's budget. Stand-in + real PostgreSQL + SMTP.
 */
describe("the member page's next Stripe charge (integration, stand-in)", () => {
  let stripe: RunningStripeSandbox;
  let proxy: DelayingStripeProxy;
  let t: TestApp;
  let smtp: SmtpCatcher;
  let owner: TestAgent;
  let member: TestAgent;
  let subscriptionId: string;

  const control = async (path: string, body: object = {}) =>
    (await (
      await fetch(`${stripe.controlUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, unknown>;

  beforeAll(async () => {
    stripe = await startStripeSandbox({
      restrictedKeys: {
        [GYM_KEY]: { customer: 'read', subscription: 'write', coupon: 'write', invoice: 'read' },
      },
    });
    proxy = await delayingStripeProxy(stripe.url);
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
    owner = (await t.signUp({ businessName: 'Cork Climbing' })).agent;
    await owner.put('/api/stripe-members/credentials').send({ apiKey: GYM_KEY }).expect(200);
    expect(await stripeRun(owner, 'import')).toMatchObject({ state: 'done', membersWritten: 1 });
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
  });

  it('shows what Stripe will charge next, in the subscription’s currency, as the dashboard words it', async () => {
    const page = (await member.get('/api/member/me').expect(200)).body as MemberPage;
    expect(page.managedBy).toBe('Stripe');
    expect(page.stripeNextCharge).toMatchObject({ amountCents: 5_000, currency: 'eur' });
    const at = page.stripeNextCharge?.at ?? '';
    expect(Date.parse(at)).toBeGreaterThan(Date.now());
    const day = memberBillFormats(page.businessLocale, 'eur').date(at);
    const html = (await member.get('/member').expect(200)).text;
    expect(html).toMatch(new RegExp(`Stripe will charge EUR\\s50\\.00 on ${day}\\.`, 'u'));
    expect(html).not.toContain('€');
  });

  it('leaves the line out, and answers within its budget, when Stripe is slow', async () => {
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
    await control(`/subscriptions/${subscriptionId}/cancel`);
    const page = (await member.get('/api/member/me').expect(200)).body as MemberPage;
    expect(page.stripeNextCharge).toBeUndefined();
    expect((await member.get('/member').expect(200)).text).not.toContain('Stripe will charge');
  });
});
