import type TestAgent from 'supertest/lib/agent';
import {
  MEMBER_CSV_MESSAGES,
  MESSAGES,
  type MemberDefaults,
  type MemberImportDryRun,
  type MemberImportUpload,
  type MemberRow,
  type Page,
  type ProspectRow,
  type ReferralLink,
} from '@grove/contracts';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';
import { waitFor } from '../../../../test/stub-servers';
import { jobScope } from '../../platform/database/business-scope';
import { ProspectsService } from '../../referral/prospects/prospects.service';

/**
 * Defaults instead of retyping (issue 25, "An owner's ordinary day", Build 4;
 * docs/product.md#member-defaults): the business's default discount per referral and membership
 * price, and where they are used: a CSV import without a discount column, the approval form's
 * prefill (the referrer's values first) and automatic approval.
 */
describe('member defaults (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;
  let other: TestAgent;

  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_REFERRAL_LIMIT: '10000' });
    const signedUp = await t.signUp({ businessName: 'Green Valley Fitness' });
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
    other = (await t.signUp({ businessName: 'Harbour Pilates' })).agent;
  });
  afterAll(() => t.close());

  const defaults = async (agent: TestAgent): Promise<MemberDefaults> =>
    (await agent.get('/api/settings/member-defaults').expect(200)).body as MemberDefaults;
  const saveDefaults = (agent: TestAgent, body: MemberDefaults) =>
    agent.put('/api/settings/member-defaults').send(body).expect(200);
  const addTree = async (name: string, email: string, price: number, discount: number) =>
    (
      await owner
        .post('/api/members')
        .send(treeBody(name, email, price, discount))
        .expect(201)
    ).body as MemberRow;
  const prospects = async (): Promise<ProspectRow[]> =>
    ((await owner.get('/api/prospects?pageSize=100').expect(200)).body as Page<ProspectRow>).items;
  /** A prospect of `referrerId` queued as a join would (source null, no flags). */
  const queueProspect = async (referrerId: string, name: string, email: string) =>
    (
      (await t.dataSource.query(
        `INSERT INTO prospects (business_id, referring_member_id, name, email, email_key)
         VALUES ($1, $2, $3, $4, lower(replace($4, '.', ''))) RETURNING id`,
        [businessId, referrerId, name, email],
      )) as { id: string }[]
    )[0]!.id;
  /** Makes a member Mindbody-managed whose price Grove has not read yet ('Pricing…'). */
  const makeUnpricedMindbodyMember = (id: string, clientId: string) =>
    t.dataSource.query(
      `UPDATE members SET mindbody_client_id = $2, membership_price_cents = 0 WHERE id = $1`,
      [id, clientId],
    );

  describe('GET/PUT /api/settings/member-defaults', () => {
    it('is unset for a new business and needs a session', async () => {
      expect(await defaults(owner)).toEqual({ discountCents: null, membershipPriceCents: null });
      await t.agent().get('/api/settings/member-defaults').expect(401);
      await t
        .agent()
        .put('/api/settings/member-defaults')
        .send({ discountCents: 1500, membershipPriceCents: 8900 })
        .expect(401);
    });

    it('saves cents, clears with null, and refuses bad input with the add-member form’s messages', async () => {
      const saved = await saveDefaults(owner, { discountCents: 1500, membershipPriceCents: 8900 });
      expect(saved.body).toEqual({ discountCents: 1500, membershipPriceCents: 8900 });
      expect(await defaults(owner)).toEqual({ discountCents: 1500, membershipPriceCents: 8900 });

      const bad: [unknown, string, string][] = [
        [
          { discountCents: -1, membershipPriceCents: 8900 },
          'discountCents',
          MESSAGES.invalidDiscount,
        ],
        [
          { discountCents: 12.5, membershipPriceCents: 8900 },
          'discountCents',
          MESSAGES.invalidDiscount,
        ],
        [
          { discountCents: '15.00', membershipPriceCents: 8900 },
          'discountCents',
          MESSAGES.invalidDiscount,
        ],
        [{ membershipPriceCents: 8900 }, 'discountCents', MESSAGES.invalidDiscount],
        [
          { discountCents: 1500, membershipPriceCents: 100_000_001 },
          'membershipPriceCents',
          MESSAGES.invalidAmount,
        ],
        [
          { discountCents: 1500, membershipPriceCents: 'eighty-nine' },
          'membershipPriceCents',
          MESSAGES.invalidAmount,
        ],
        [{ discountCents: 1500 }, 'membershipPriceCents', MESSAGES.invalidAmount],
        [{ discountCents: 1500, membershipPriceCents: 8900, extra: true }, '', ''],
      ];
      for (const [body, field, message] of bad) {
        const reply = await owner
          .put('/api/settings/member-defaults')
          .send(body as object)
          .expect(400);
        if (field) expect(reply.body.fieldErrors?.[field] ?? reply.body.message).toBe(message);
      }
      await owner
        .put('/api/settings/member-defaults')
        .set('Content-Type', 'application/json')
        .send('{"discountCents": 15')
        .expect(400);
      expect(await defaults(owner)).toEqual({ discountCents: 1500, membershipPriceCents: 8900 });

      await saveDefaults(owner, { discountCents: 1500, membershipPriceCents: null });
      expect(await defaults(owner)).toEqual({ discountCents: 1500, membershipPriceCents: null });
      await saveDefaults(owner, { discountCents: 0, membershipPriceCents: 100_000_000 });
      expect(await defaults(owner)).toEqual({
        discountCents: 0,
        membershipPriceCents: 100_000_000,
      });
    });

    it("tenant isolation: another business's defaults neither show nor change this one's", async () => {
      await saveDefaults(owner, { discountCents: 1500, membershipPriceCents: 8900 });
      expect(await defaults(other)).toEqual({ discountCents: null, membershipPriceCents: null });
      await saveDefaults(other, { discountCents: 700, membershipPriceCents: 4500 });
      expect(await defaults(owner)).toEqual({ discountCents: 1500, membershipPriceCents: 8900 });
      expect(await defaults(other)).toEqual({ discountCents: 700, membershipPriceCents: 4500 });
    });
  });

  describe('CSV import without a discount column', () => {
    const csv = [
      'Name,Email,Price',
      "Siobhán O'Brien,siobhan@example.ie,89",
      'Anne-Marie Dubois,anne-marie@example.fr,75',
    ].join('\n');
    const upload = async (agent: TestAgent): Promise<MemberImportUpload> =>
      (
        await agent
          .post('/api/members-csv/imports')
          .set('Content-Type', 'text/csv')
          .send(csv)
          .expect(201)
      ).body as MemberImportUpload;

    it('gives every row the business’s default discount per referral; a typed one still wins', async () => {
      await saveDefaults(owner, { discountCents: 1500, membershipPriceCents: 8900 });
      const up = await upload(owner);
      expect(up.mapping.discount).toBeNull();
      const dry = (
        await owner
          .post(`/api/members-csv/imports/${up.importId}/dry-run`)
          .send({ mapping: up.mapping })
          .expect(200)
      ).body as MemberImportDryRun;
      expect(dry.counts.add).toBe(2);
      expect(dry.counts.error).toBe(0);

      await owner
        .post(`/api/members-csv/imports/${up.importId}/run`)
        .send({ mapping: up.mapping })
        .expect(202);
      const rows = await waitFor(async () => {
        const found: { email: string; discount_cents: number }[] = await t.dataSource.query(
          `SELECT email, discount_cents FROM members
           WHERE business_id = $1 AND email IN ('siobhan@example.ie', 'anne-marie@example.fr')
           ORDER BY email`,
          [businessId],
        );
        return found.length === 2 ? found : null;
      });
      expect(rows.map((row) => [row.email, row.discount_cents])).toEqual([
        ['anne-marie@example.fr', 1500],
        ['siobhan@example.ie', 1500],
      ]);

      const typed = await upload(owner);
      const withTyped = (
        await owner
          .post(`/api/members-csv/imports/${typed.importId}/dry-run`)
          .send({ mapping: typed.mapping, discountForEveryRow: '5' })
          .expect(200)
      ).body as MemberImportDryRun;
      // Typed $5 differs from the stored $15: both rows would change.
      expect(withTyped.counts.update).toBe(2);
    });

    it('without a default, the mapping is still incomplete (400)', async () => {
      const up = await upload(other);
      await saveDefaults(other, { discountCents: null, membershipPriceCents: 4500 });
      const reply = await other
        .post(`/api/members-csv/imports/${up.importId}/dry-run`)
        .send({ mapping: up.mapping })
        .expect(400);
      expect(reply.body.message).toBe(MEMBER_CSV_MESSAGES.mappingIncomplete);
    });
  });

  describe('approval prefill and automatic approval', () => {
    it("prefills the approval with the referrer's price and discount (a friend who joined through the link)", async () => {
      await saveDefaults(owner, { discountCents: 1000, membershipPriceCents: 5900 });
      const riley = await addTree('Riley Byrne', 'riley.byrne@example.ie', 8900, 1500);
      const code = (
        (await owner.post(`/api/members/${riley.id}/referral-link`).expect(201))
          .body as ReferralLink
      ).code;
      await t
        .agent()
        .post(`/api/referrals/${code}/join`)
        .send({ name: 'Aoife Kelly', email: 'aoife.kelly@gmail.com' })
        .expect(201);
      const row = (await prospects()).find(
        (prospect) => prospect.email === 'aoife.kelly@gmail.com',
      );
      expect(row?.approvalPrefill).toEqual({ membershipPriceCents: 8900, discountCents: 1500 });
    });

    it("falls back to the defaults for a price Grove does not know; another business's prospects show nothing of these", async () => {
      await saveDefaults(owner, { discountCents: 1000, membershipPriceCents: 5900 });
      const mindy = await addTree('Mindy Ó Súilleabháin', 'mindy@example.ie', 100, 200);
      await makeUnpricedMindbodyMember(mindy.id, 'MB-71');
      await t.dataSource.query(
        `INSERT INTO mindbody_integrations (business_id, stage, discount_on_referral_cents, discount_for_referee_cents)
         VALUES ($1, 4, 750, 0)`,
        [businessId],
      );
      await queueProspect(mindy.id, 'Ciarán Walsh', 'ciaran.walsh@gmail.com');
      const row = (await prospects()).find(
        (prospect) => prospect.email === 'ciaran.walsh@gmail.com',
      );
      // Unknown price → the default $59.00; the referrer's discount is the integration's $7.50.
      expect(row?.approvalPrefill).toEqual({ membershipPriceCents: 5900, discountCents: 750 });

      const theirs = (
        (await other.get('/api/prospects?pageSize=100').expect(200)).body as Page<ProspectRow>
      ).items;
      expect(theirs.map((prospect) => prospect.email)).not.toContain('ciaran.walsh@gmail.com');
    });

    it("automatic approval uses the referrer's values, else the defaults, and leaves the prospect when neither is known", async () => {
      await owner.put('/api/settings/prospects').send({ autoApprove: true }).expect(200);
      const service = t.app.get(ProspectsService);
      const scope = jobScope({ businessId });
      const mindy = (
        (await owner.get('/api/members?search=mindy%40example.ie').expect(200))
          .body as Page<MemberRow>
      ).items[0]!;

      await saveDefaults(owner, { discountCents: 1000, membershipPriceCents: 5900 });
      const niamh = await queueProspect(mindy.id, 'Niamh Byrne', 'niamh.byrne@gmail.com');
      await service.followUpJoin(scope, niamh, true);
      const approved = (
        (await owner.get('/api/members?search=niamh.byrne').expect(200)).body as Page<MemberRow>
      ).items[0];
      expect([approved?.membershipPriceCents, approved?.discountCents]).toEqual([5900, 750]);

      await saveDefaults(owner, { discountCents: 1000, membershipPriceCents: null });
      const sean = await queueProspect(mindy.id, 'Seán Murphy', 'sean.murphy@gmail.com');
      await service.followUpJoin(scope, sean, true);
      expect((await prospects()).map((prospect) => prospect.email)).toContain(
        'sean.murphy@gmail.com',
      );
      const row = (await prospects()).find(
        (prospect) => prospect.email === 'sean.murphy@gmail.com',
      );
      expect(row?.approvalPrefill).toEqual({ membershipPriceCents: null, discountCents: 750 });
    });
  });
});
