import type TestAgent from 'supertest/lib/agent';
import type { MemberRow, Page } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import {
  startStripeSandbox,
  stripeRun,
  type RunningStripeSandbox,
} from '../../../../../test/stripe-sandbox';

jest.setTimeout(120_000);

const GYM_KEY = 'rk_test_ballsbridge_referrers_key';
const PERMISSIONS = {
  customer: 'read',
  subscription: 'write',
  coupon: 'write',
  invoice: 'read',
} as const;

interface Waiting {
  memberName: string;
  referredByNote: string;
}

/**
 * The Stripe import names the referrer (issue 33 item 4, docs/decisions/stripe-import-referrer.md)
 * through the Stripe stand-in: a customer's `metadata.referred_by` that is one member's email or
 * one member's name makes the new member that member's branch; anything else waits in Referrals
 * to match; a second import changes nothing, and a dismissed note stays dismissed; another
 * business's members are never matched.
 */
describe('Stripe import: metadata.referred_by names the referrer (integration, stand-in)', () => {
  let stripe: RunningStripeSandbox;
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;

  const seed = async (
    email: string,
    name: string,
    referredBy?: string,
    account: 'gym' | 'other' = 'gym',
  ) => {
    const reply = await fetch(`${stripe.controlUrl}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: account === 'gym' ? email : `${account}.${email}`,
        name,
        amount: 6_000,
        ...(referredBy ? { metadata: { referred_by: referredBy } } : {}),
      }),
    });
    expect(reply.status).toBe(200);
  };
  const member = async (agent: TestAgent, email: string): Promise<MemberRow> => {
    const page = (await agent.get(`/api/members?search=${encodeURIComponent(email)}`).expect(200))
      .body as Page<MemberRow>;
    const found = page.items.find((item) => item.memberEmail === email);
    if (!found) throw new Error(`${email} is not a member`);
    return found;
  };
  const referrerOf = async (email: string): Promise<string | null> => {
    const [row] = (await t.dataSource.query(
      `SELECT r.name FROM members m LEFT JOIN members r ON r.id = m.referred_by_id WHERE m.email = $1`,
      [email],
    )) as { name: string | null }[];
    return row?.name ?? null;
  };
  const waiting = async (agent: TestAgent): Promise<Waiting[]> =>
    ((await agent.get('/api/referrals-to-match').expect(200)).body as { items: Waiting[] }).items
      .map(({ memberName, referredByNote }) => ({ memberName, referredByNote }))
      .sort((a, b) => a.memberName.localeCompare(b.memberName));

  beforeAll(async () => {
    stripe = await startStripeSandbox({
      webhookRetryDelayMs: 20,
      restrictedKeys: { [GYM_KEY]: PERMISSIONS },
    });
    t = await createTestApp({
      STRIPE_API_URL: stripe.url,
      THROTTLE_REFERRAL_LIMIT: '1000',
      THROTTLE_MINDBODY_CREDENTIALS_LIMIT: '100',
    });
    owner = (await t.signUp({ businessName: 'Ballsbridge Barbell' })).agent;
    other = (await t.signUp({ businessName: 'Harbour Yoga' })).agent;
    // Members kept by hand before the gym connected Stripe: the referrers.
    for (const [memberName, memberEmail] of [
      ["Siobhán O'Brien", 'siobhan@example.ie'],
      ['Ana Silva', 'ana.silva@example.pt'],
      ['Ana Silva', 'ana.silva2@example.br'],
    ])
      await owner
        .post('/api/members')
        .send({ memberName, memberEmail, membershipPriceCents: 6_000, discountCents: 1_000 })
        .expect(201);
    // Another business's member with a name a customer gives: never matched across businesses.
    await other
      .post('/api/members')
      .send({
        memberName: 'Priya Raman',
        memberEmail: 'priya@example.in',
        membershipPriceCents: 5_000,
        discountCents: 500,
      })
      .expect(201);
    await seed('ben.oconnor@example.ie', "Ben O'Connor", ' SIOBHAN@example.ie ');
    await seed('zoe@example.fr', 'Zoë D’Arcy-Nguyễn', 'siobhán  o’brien');
    await seed('jenny.walsh@example.ie', 'Jenny Walsh', 'Jenny (spin class)');
    await seed('marta@example.es', 'Marta López', 'Ana Silva');
    await seed('kwame@example.gh', 'Kwame Mensah', 'Priya Raman');
    await seed('liam@example.ie', 'Liam Byrne');
    await owner.put('/api/stripe-members/credentials').send({ apiKey: GYM_KEY }).expect(200);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('makes the named member the referrer when the email or the name is one member’s; the rest waits in Referrals to match', async () => {
    expect(await stripeRun(owner, 'import')).toMatchObject({ kind: 'import' });
    expect(await referrerOf('ben.oconnor@example.ie')).toBe("Siobhán O'Brien");
    expect(await referrerOf('zoe@example.fr')).toBe("Siobhán O'Brien");
    expect(await referrerOf('jenny.walsh@example.ie')).toBeNull();
    expect(await referrerOf('marta@example.es')).toBeNull(); // two members are named Ana Silva
    expect(await referrerOf('kwame@example.gh')).toBeNull(); // Priya is another gym's member
    expect(await referrerOf('liam@example.ie')).toBeNull();
    expect((await member(owner, 'siobhan@example.ie')).branches).toBe(2);
    expect(await waiting(owner)).toEqual([
      { memberName: 'Jenny Walsh', referredByNote: 'Jenny (spin class)' },
      { memberName: 'Kwame Mensah', referredByNote: 'Priya Raman' },
      { memberName: 'Marta López', referredByNote: 'Ana Silva' },
    ]);
    expect(await waiting(other)).toEqual([]);
  });

  it('a second import changes nothing, and a note the owner dismissed does not come back', async () => {
    const jenny = await member(owner, 'jenny.walsh@example.ie');
    await owner.post(`/api/referrals-to-match/${jenny.id}/dismiss`).expect(204);
    await stripeRun(owner, 'import');
    expect((await member(owner, 'siobhan@example.ie')).branches).toBe(2);
    expect((await waiting(owner)).map((item) => item.memberName)).toEqual([
      'Kwame Mensah',
      'Marta López',
    ]);
    const [facts] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM lifecycle_facts f JOIN members m ON m.id = f.member_id
        WHERE f.kind = 'branch_added' AND m.email IN ('ben.oconnor@example.ie', 'zoe@example.fr')`,
    )) as { n: number }[];
    expect(facts.n).toBe(2);
  });

  it('the stand-in refuses customer metadata Stripe refuses (a value that is not a string, a key over 40 characters)', async () => {
    for (const metadata of [{ referred_by: 5 }, { ['k'.repeat(41)]: 'x' }, ['x']]) {
      const reply = await fetch(`${stripe.controlUrl}/members`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'x@example.com', name: 'X', amount: 100, metadata }),
      });
      expect(reply.status).toBe(400);
    }
  });

  it('never reaches another business: its members gain no branch and nothing waits there', async () => {
    expect(await waiting(other)).toEqual([]);
    expect((await member(other, 'priya@example.in')).branches).toBe(0);
  });
});
