import type TestAgent from 'supertest/lib/agent';
import type { AuditEntry, AuditLogPage } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import { jobScope } from '../../../platform/database/business-scope';
import { StripeMembersRepository } from '../persistence/stripe-members.repository';
import {
  startStripeSandbox,
  stripeRun,
  type RunningStripeSandbox,
} from '../../../../../test/stripe-sandbox';

jest.setTimeout(120_000);

const GYM_KEY = 'rk_test_galway_links_key';

/**
 * Issue 36: the Stripe member import gives its new members their automatic referral links in each
 * page's own statement (`automaticLinksSql`, as the Mindbody import does), not in a pass after the
 * run: with the business's setting on every member it adds has a live link (its fact and its
 * 'automatic' audit entry), with it off none; a member who already had a link keeps it. Against
 * the Stripe stand-in on the real PostgreSQL.
 */
describe('Stripe import: automatic referral links in the page statement (integration, stand-in)', () => {
  let stripe: RunningStripeSandbox;
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;

  const seed = async (email: string, name: string, amount = 6_000) => {
    const reply = await fetch(`${stripe.controlUrl}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, name, amount }),
    });
    expect(reply.status).toBe(200);
  };
  /** Each member's live link code (null without one), by email. */
  const liveLinks = async (): Promise<Record<string, string | null>> => {
    const rows = (await t.dataSource.query(
      `SELECT m.email, l.code FROM members m
       LEFT JOIN referral_links l ON l.member_id = m.id AND l.revoked_at IS NULL
       WHERE m.business_id = $1 ORDER BY m.email`,
      [businessId],
    )) as { email: string; code: string | null }[];
    return Object.fromEntries(rows.map((row) => [row.email, row.code]));
  };
  const linkEntries = async (): Promise<AuditEntry[]> =>
    ((await owner.get('/api/audit-log?kind=link.created').expect(200)).body as AuditLogPage).items;
  const linkFacts = async (): Promise<number> =>
    Number(
      (
        await t.dataSource.query(
          `SELECT count(*) AS n FROM lifecycle_facts WHERE business_id = $1 AND kind = 'link_created'`,
          [businessId],
        )
      )[0].n,
    );

  beforeAll(async () => {
    stripe = await startStripeSandbox({
      restrictedKeys: {
        [GYM_KEY]: { customer: 'read', subscription: 'write', coupon: 'write', invoice: 'read' },
      },
    });
    t = await createTestApp({ STRIPE_API_URL: stripe.url, THROTTLE_REFERRAL_LIMIT: '1000' });
    const signedUp = await t.signUp({ businessName: 'Galway Strength' });
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
    await owner.put('/api/stripe-members/credentials').send({ apiKey: GYM_KEY }).expect(200);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('gives every member the import adds a live link (fact, audit entry), and a member with a link keeps it', async () => {
    // A new business has the setting on: Chloé, added by hand, has her link already.
    expect((await owner.get('/api/referral-links/settings').expect(200)).body).toEqual({
      autoCreate: true,
    });
    await owner
      .post('/api/members')
      .send({
        memberName: 'Chloé Zhang',
        memberEmail: 'chloe.zhang@example.com',
        membershipPriceCents: 5_500,
        discountCents: 0,
      })
      .expect(201);
    const chloesCode = (await liveLinks())['chloe.zhang@example.com'];
    expect(chloesCode).toEqual(expect.any(String));
    await seed('chloe.zhang@example.com', 'Chloé Zhang');
    await seed('sean.omurchu@example.ie', 'Seán Ó Murchú');
    await seed('priya.patel-rao@example.in', 'Priya Patel-Rao');

    expect(await stripeRun(owner, 'import')).toMatchObject({ state: 'done', membersWritten: 3 });
    const links = await liveLinks();
    expect(links).toEqual({
      'chloe.zhang@example.com': chloesCode,
      'priya.patel-rao@example.in': expect.any(String),
      'sean.omurchu@example.ie': expect.any(String),
    });
    expect(new Set(Object.values(links)).size).toBe(3);
    // One 'automatic' entry and one fact per link: Chloé's from her adding, the others' from the import.
    const entries = await linkEntries();
    expect(entries.map((entry) => [entry.memberName, entry.after?.source]).sort()).toEqual([
      ['Chloé Zhang', 'automatic'],
      ['Priya Patel-Rao', 'automatic'],
      ['Seán Ó Murchú', 'automatic'],
    ]);
    expect(await linkFacts()).toBe(3);

    // The page's own statement writes them (no pass after the run): one page, straight.
    await t.app.get(StripeMembersRepository).importPage(jobScope({ businessId }), [
      {
        subscriptionId: 'sub_webhook_amara',
        customerId: 'cus_webhook_amara',
        email: 'amara.okafor@example.ng',
        name: 'Amara Okafor',
        currency: 'aud',
        priceCents: 6_000,
        discountIds: [],
        referredBy: null,
      },
    ]);
    expect((await liveLinks())['amara.okafor@example.ng']).toEqual(expect.any(String));
    expect(await linkFacts()).toBe(4);
  });

  it('with the setting off, adds members without links and leaves the links there are', async () => {
    const before = await liveLinks();
    await owner.put('/api/referral-links/settings').send({ autoCreate: false }).expect(200);
    await seed('mateus.conceicao@example.com.br', 'Mateus Conceição');

    expect(await stripeRun(owner, 'import')).toMatchObject({ state: 'done', membersWritten: 1 });
    expect(await liveLinks()).toEqual({ ...before, 'mateus.conceicao@example.com.br': null });
    expect(await linkEntries()).toHaveLength(4);
  });
});
