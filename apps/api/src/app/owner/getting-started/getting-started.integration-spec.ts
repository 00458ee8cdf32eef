import type TestAgent from 'supertest/lib/agent';
import { GETTING_STARTED_INVALID, type GettingStarted, type MemberRow } from '@grove/contracts';
import { autoLinksOff, createTestApp, treeBody, type TestApp } from '../../../../test/test-app';

/**
 * The 'Getting started' checklist on Branches (issue 25, "An owner's ordinary day", Build 4;
 * docs/product.md#getting-started): each step done only when the data says so, and its dismissal,
 * per business.
 */
describe('getting started checklist (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;
  let other: TestAgent;

  beforeAll(async () => {
    t = await createTestApp();
    const signedUp = await t.signUp({ businessName: 'Green Valley Fitness' });
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
    other = (await t.signUp({ businessName: 'Harbour Pilates' })).agent;
  });
  afterAll(() => t.close());

  const checklist = async (agent: TestAgent): Promise<GettingStarted> =>
    (await agent.get('/api/getting-started').expect(200)).body as GettingStarted;
  const nothingDone: GettingStarted = {
    steps: { discount: false, members: false, billing: false, links: false },
    dismissed: false,
  };

  it('needs a session', async () => {
    await t.agent().get('/api/getting-started').expect(401);
    await t.agent().put('/api/getting-started').send({ dismissed: true }).expect(401);
  });

  it('starts with nothing done for a new business, then ticks each step from the data', async () => {
    expect(await checklist(owner)).toEqual(nothingDone);
    // Links by hand here: with automatic links (on for new businesses) the first member's link
    // would tick 'Share links' together with 'Add or import members'.
    await autoLinksOff(owner);

    await owner
      .put('/api/settings/member-defaults')
      .send({ discountCents: 1500, membershipPriceCents: null })
      .expect(200);
    expect((await checklist(owner)).steps).toEqual({
      discount: true,
      members: false,
      billing: false,
      links: false,
    });

    const tree = (
      await owner
        .post('/api/members')
        .send(treeBody("Siobhán O'Brien", 'siobhan@example.ie', 8900, 1500))
        .expect(201)
    ).body as MemberRow;
    expect((await checklist(owner)).steps.members).toBe(true);
    expect((await checklist(owner)).steps.links).toBe(false);

    await owner.post(`/api/members/${tree.id}/referral-link`).expect(201);
    expect((await checklist(owner)).steps.links).toBe(true);
    // A revoked link is nothing to share.
    await owner.delete(`/api/members/${tree.id}/referral-link`).expect(204);
    expect((await checklist(owner)).steps.links).toBe(false);
    await owner.post(`/api/members/${tree.id}/referral-link`).expect(201);

    // Stage 1 (credentials not checked) is not connected; stage 2 is.
    await t.dataSource.query(
      `INSERT INTO mindbody_integrations (business_id, stage) VALUES ($1, 1)`,
      [businessId],
    );
    expect((await checklist(owner)).steps.billing).toBe(false);
    await t.dataSource.query(`UPDATE mindbody_integrations SET stage = 2 WHERE business_id = $1`, [
      businessId,
    ]);
    expect(await checklist(owner)).toEqual({
      steps: { discount: true, members: true, billing: true, links: true },
      dismissed: false,
    });
  });

  it("ticks 'Connect Mindbody or Stripe' for a Stripe member-billing key as for Mindbody, per business", async () => {
    const { agent, user } = await t.signUp({ businessName: 'Zoë’s Yoga Loft' });
    expect((await checklist(agent)).steps.billing).toBe(false);
    // The row Stripe's connection saves (its key checked against Stripe, sealed).
    await t.dataSource.query(
      `INSERT INTO stripe_member_integrations (business_id, api_key_sealed, key_last4, livemode, webhook_token)
       VALUES ($1, 'v1.sealed', 'x4f2', false, 'token-zoe-yoga-loft')`,
      [user.business.id],
    );
    expect((await checklist(agent)).steps.billing).toBe(true);
    expect((await checklist(other)).steps.billing).toBe(false);
  });

  it('is dismissed and shown again per business; a bad body is refused and changes nothing', async () => {
    for (const body of [{ dismissed: 'yes' }, {}, { dismissed: 1 }, { dismissed: null }]) {
      const reply = await other.put('/api/getting-started').send(body).expect(400);
      expect(reply.body.message).toBe(GETTING_STARTED_INVALID);
    }
    await other
      .put('/api/getting-started')
      .set('Content-Type', 'application/json')
      .send('{"dismissed":')
      .expect(400);
    expect((await checklist(other)).dismissed).toBe(false);

    const hidden = (await other.put('/api/getting-started').send({ dismissed: true }).expect(200))
      .body as GettingStarted;
    expect(hidden).toEqual({ ...nothingDone, dismissed: true });
    expect((await checklist(other)).dismissed).toBe(true);
    // Tenant isolation: the first business's checklist is neither hidden nor ticked by the other's.
    expect((await checklist(owner)).dismissed).toBe(false);
    expect((await checklist(other)).steps).toEqual(nothingDone.steps);

    await other.put('/api/getting-started').send({ dismissed: false }).expect(200);
    expect(await checklist(other)).toEqual(nothingDone);
  });
});
