import type TestAgent from 'supertest/lib/agent';
import { parse } from 'csv-parse/sync';
import {
  MEMBER_CSV_MESSAGES,
  MESSAGES,
  type MemberImportDryRun,
  type MemberImportStatus,
  type MemberImportUpload,
  type MemberRow,
  type Page,
} from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { waitFor } from '../../../../test/stub-servers';
import {
  startStripeSandbox,
  stripeRun,
  type RunningStripeSandbox,
} from '../../../../test/stripe-sandbox';

jest.setTimeout(120_000);

/** The restricted key docs/decisions/stripe-member-billing.md asks a gym for. */
const GYM_KEY = 'rk_test_harbour_fitness_key';
const HEADER = 'Full name,E-mail,Membership price,Discount,Referred by (email)';

/**
 * Issue 32: a member billed on the business's Stripe is managed by Stripe, so a CSV import leaves
 * its name, email and price as they are, exactly as a hand edit is refused, and says why on the
 * row; a row naming it as referrer is an error with its reason in the failed-rows file. Against
 * the Stripe stand-in (the member comes from a real import of its subscription) on real PostgreSQL.
 */
describe('members CSV and members billed on Stripe (integration, stand-in)', () => {
  let stripe: RunningStripeSandbox;
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;

  const upload = async (csv: string): Promise<MemberImportUpload> =>
    (
      await owner
        .post('/api/members-csv/imports')
        .set('Content-Type', 'text/csv')
        .send(csv)
        .expect(201)
    ).body as MemberImportUpload;
  const members = async (): Promise<MemberRow[]> =>
    (
      (await owner.get('/api/members?pageSize=100&sort=memberName').expect(200))
        .body as Page<MemberRow>
    ).items;
  const ledgerLines = async (): Promise<number> =>
    (
      await t.dataSource.query(
        `SELECT count(*)::int AS n FROM price_changes WHERE business_id = $1`,
        [businessId],
      )
    )[0].n as number;

  beforeAll(async () => {
    stripe = await startStripeSandbox({
      restrictedKeys: {
        [GYM_KEY]: { customer: 'read', subscription: 'write', coupon: 'write', invoice: 'read' },
      },
    });
    await fetch(`${stripe.controlUrl}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'zoe.darcy@example.com',
        name: "Zoë D'Arcy-Nguyễn",
        amount: 6_000,
        currency: 'eur',
      }),
    });
    t = await createTestApp({ STRIPE_API_URL: stripe.url });
    const signedUp = await t.signUp({ businessName: 'Harbour Fitness' });
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
    await owner.put('/api/stripe-members/credentials').send({ apiKey: GYM_KEY }).expect(200);
    expect(await stripeRun(owner, 'import')).toMatchObject({ state: 'done' });
    await owner
      .post('/api/members')
      .send({
        memberName: "Siobhán O'Brien",
        memberEmail: 'siobhan@example.com',
        membershipPriceCents: 5_000,
        discountCents: 500,
      })
      .expect(201);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it("skips a Stripe member's row with the reason, refuses it as a referrer, and changes nothing of it", async () => {
    const before = await members();
    const zoe = before.find((row) => row.memberEmail === 'zoe.darcy@example.com') as MemberRow;
    expect(zoe).toMatchObject({ managedByIntegration: 'Stripe', membershipPriceCents: 6_000 });
    const lines = await ledgerLines();

    const up = await upload(
      [
        HEADER,
        // The same email key in other case, a new name and price: all Stripe's, so skipped.
        'Zoë Changed,ZOE.DARCY@example.com,10.00,1.00,',
        "Siobhán O'Brien,siobhan@example.com,55.00,5.00,",
        'Ana-Sofía Quispe,ana.sofia@example.com,45.00,5.00,zoe.darcy@example.com',
      ].join('\r\n'),
    );
    const dry = (
      await owner
        .post(`/api/members-csv/imports/${up.importId}/dry-run`)
        .send({ mapping: up.mapping })
        .expect(200)
    ).body as MemberImportDryRun;
    expect(dry.rows.map((row) => [row.line, row.outcome, row.messages])).toEqual([
      [2, 'skipped', [MESSAGES.stripeMemberLocked]],
      [3, 'update', []],
      [4, 'error', [MEMBER_CSV_MESSAGES.referrerStripe]],
    ]);
    expect(dry.counts).toEqual({ add: 0, update: 1, unchanged: 0, skipped: 1, error: 1 });

    // The failed-rows file gives the refused row's line and its reason.
    const failed = await owner
      .get(`/api/members-csv/imports/${up.importId}/failed-rows`)
      .buffer(true)
      .expect(200);
    const records = parse(failed.text, { bom: true }) as string[][];
    expect(records.slice(1)).toEqual([
      [
        'Ana-Sofía Quispe',
        'ana.sofia@example.com',
        '45.00',
        '5.00',
        'zoe.darcy@example.com',
        '4',
        MEMBER_CSV_MESSAGES.referrerStripe,
      ],
    ]);

    await owner
      .post(`/api/members-csv/imports/${up.importId}/run`)
      .send({ mapping: up.mapping })
      .expect(202);
    const done = await waitFor(async () => {
      const status = (await owner.get(`/api/members-csv/imports/${up.importId}`).expect(200))
        .body as MemberImportStatus;
      return status.state === 'done' || status.state === 'failed' ? status : null;
    }, 60_000);
    expect(done).toMatchObject({ state: 'done', counts: dry.counts });

    const after = await members();
    // Zoë is exactly as Stripe's import left her; Siobhán, kept by hand, took the new price.
    expect(after.find((row) => row.id === zoe.id)).toEqual(zoe);
    expect(after.find((row) => row.memberEmail === 'siobhan@example.com')).toMatchObject({
      membershipPriceCents: 5_500,
    });
    expect(after.some((row) => row.memberEmail === 'ana.sofia@example.com')).toBe(false);
    // One ledger line: Siobhán's price; none for Zoë.
    expect(await ledgerLines()).toBe(lines + 1);
  });

  it("exports who manages each member's bill: 'Stripe' for a member billed on the business's Stripe, empty when kept by hand", async () => {
    const reply = await owner.get('/api/members-csv/export').buffer(true).expect(200);
    const [header, ...rows] = parse(reply.text, { bom: true }) as string[][];
    const billing = (header as string[]).indexOf('Billing');
    expect(billing).toBeGreaterThan(0);
    expect(header).not.toContain('Managed by Mindbody');
    const byEmail = new Map(rows.map((row) => [row[1], row[billing]]));
    expect(byEmail.get('zoe.darcy@example.com')).toBe('Stripe');
    expect(byEmail.get('siobhan@example.com')).toBe('');
    // The amount headers name no currency: each row says its own (issue 32).
    expect(header.filter((name) => /dollar/i.test(name))).toEqual([]);
    const currency = new Map(rows.map((row) => [row[1], row[header.indexOf('Currency')]]));
    expect(currency.get('zoe.darcy@example.com')).toBe('EUR');
    expect(currency.get('siobhan@example.com')).toBe('AUD');
  });
});
