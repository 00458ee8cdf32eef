import type TestAgent from 'supertest/lib/agent';
import { MESSAGES, type MemberRow, type MembersPage } from '@grove/contracts';
import { autoLinksOff, createTestApp, treeBody, type TestApp } from '../../../../test/test-app';

/**
 * The Branches list as a real gym needs it (issue 25, docs/product.md#branches): sorted by price,
 * status and join date, filtered by status, link, referrer and Mindbody, with the referrers'
 * names — each on PostgreSQL, scoped to the owner's business.
 */
describe('members list filters and sorts (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;
  const ids: Record<string, string> = {};

  const list = async (query: string): Promise<MembersPage> =>
    (await owner.get(`/api/members?${query}`).expect(200)).body as MembersPage;
  const names = (page: MembersPage) => page.items.map((row) => row.memberName);

  beforeAll(async () => {
    t = await createTestApp();
    const signedUp = await t.signUp({ businessName: "O'Brien's Boxing" });
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
    // The link filter needs members with and without a link: only Liam's is made here.
    await autoLinksOff(owner);
    const add = async (body: Record<string, unknown>) => {
      const row = (await owner.post('/api/members').send(body).expect(201)).body as MemberRow;
      ids[row.memberName] = row.id;
      return row;
    };
    const siobhan = await add(treeBody("Siobhán O'Brien", 'siobhan@example.com', 10_000, 1500));
    await add({
      ...treeBody("Ben O'Connor", 'ben@example.com', 8000, 1000),
      referringMemberId: siobhan.id,
    });
    await add({
      ...treeBody('Anne-Marie Dubois', 'anne@example.com', 7000, 1000),
      referringMemberId: siobhan.id,
    });
    const liam = await add(treeBody('Liam Nguyen', 'liam@example.com', 5000, 0));
    await owner.post(`/api/members/${liam.id}/referral-link`).send({}).expect(201);
    // From now on a new branch counts after 30 days: Zoë is pending.
    await owner.put('/api/settings/branches').send({ rule: 'days', days: 30 }).expect(200);
    await add({
      ...treeBody('Zoë Chen', 'zoe@example.com', 9000, 500),
      referringMemberId: liam.id,
    });
    // A member Mindbody manages, whose membership ended there.
    const [managed] = (await t.dataSource.query(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents,
         mindbody_client_id, mindbody_priced_at, mindbody_autopay_cents, mindbody_cancelled_at)
       VALUES ($1, 'Mia Kelly', 'mia@example.com', 'mia@example.com', 6500, 0, '100042', now(), 6500, now())
       RETURNING id`,
      [businessId],
    )) as { id: string }[];
    ids['Mia Kelly'] = managed.id;
  });
  afterAll(() => t.close());

  it('sorts by the price the table shows, both ways, and by join date', async () => {
    const cheapest = await list('sort=newPriceCents&order=asc&pageSize=100');
    expect(cheapest.total).toBe(6);
    const prices = cheapest.items.map((row) => row.newPriceCents);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    // Siobhán's two counting branches take $15 each off $100.
    expect(cheapest.items.find((row) => row.memberName === "Siobhán O'Brien")?.newPriceCents).toBe(
      7000,
    );
    expect(names(await list('sort=newPriceCents&order=desc&pageSize=2'))).toEqual([
      'Zoë Chen',
      "Ben O'Connor",
    ]);
    expect(names(await list('sort=createdAt&order=desc&pageSize=1'))).toEqual(['Mia Kelly']);
  });

  it('sorts by status: Active, Pending, Suspended, Ended', async () => {
    const byStatus = await list('sort=status&order=asc&pageSize=100');
    const statuses = byStatus.items.map((row) => row.status);
    expect(statuses.slice(-2)).toEqual(['Pending', 'Ended']);
    expect(new Set(statuses.slice(0, 4))).toEqual(new Set(['Active']));
  });

  it('filters by status, Mindbody, link and referrer, each with an exact total', async () => {
    const pending = await list('status=Pending');
    expect(names(pending)).toEqual(['Zoë Chen']);
    expect(pending.total).toBe(1);
    expect(names(await list('managed=mindbody'))).toEqual(['Mia Kelly']);
    expect((await list('managed=grove')).total).toBe(5);
    expect(names(await list('hasLink=yes'))).toEqual(['Liam Nguyen']);
    expect((await list('hasLink=no')).total).toBe(5);
    const siobhansBranches = await list(`referredBy=${ids["Siobhán O'Brien"]}&sort=memberName`);
    expect(names(siobhansBranches)).toEqual(['Anne-Marie Dubois', "Ben O'Connor"]);
    expect(siobhansBranches.referrerNames).toEqual({ [ids["Siobhán O'Brien"]]: "Siobhán O'Brien" });
    // Filters combine, with a search too.
    expect(names(await list('status=Active&search=b&sort=memberName'))).toEqual([
      'Anne-Marie Dubois',
      "Ben O'Connor",
      "Siobhán O'Brien",
    ]);
  });

  it('names every tree’s referrer on an unfiltered page too', async () => {
    const page = await list('sort=memberName&pageSize=100');
    expect(page.referrerNames).toEqual({
      [ids["Siobhán O'Brien"]]: "Siobhán O'Brien",
      [ids['Liam Nguyen']]: 'Liam Nguyen',
    });
    expect(page.items.find((row) => row.memberName === 'Zoë Chen')?.referringMemberId).toBe(
      ids['Liam Nguyen'],
    );
  });

  it('answers 400 with a message for a value outside a filter, and changes nothing', async () => {
    for (const query of ['status=Gone', 'managed=maybe', 'hasLink=1', 'referredBy=not-an-id']) {
      const reply = await owner.get(`/api/members?${query}`).expect(400);
      expect(reply.body.message).toBe(MESSAGES.memberFilterInvalid);
    }
    expect((await list('')).total).toBe(6);
  });

  it("shows another business nothing of this one's members through any filter", async () => {
    const other = await t.signUp({ businessName: 'Other Gym' });
    await autoLinksOff(other.agent);
    await other.agent
      .post('/api/members')
      .send(treeBody('Own Member', 'own@example.com'))
      .expect(201);
    const get = async (query: string) =>
      (await other.agent.get(`/api/members?${query}`).expect(200)).body as MembersPage;
    const referred = await get(`referredBy=${ids["Siobhán O'Brien"]}`);
    expect(referred).toEqual({ items: [], total: 0, page: 1, pageSize: 50 });
    for (const query of ['status=Ended', 'managed=mindbody', 'hasLink=yes', 'status=Pending'])
      expect((await get(query)).total).toBe(0);
    expect(names(await get('sort=newPriceCents'))).toEqual(['Own Member']);
  });
});
