import type TestAgent from 'supertest/lib/agent';
import type { MemberRow, Page } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { MemberSearchIndexes } from './member-search-indexes.repository';

// The members search answered from the API's in-memory index (MemberSearchIndexes): the same
// pages as the SQL search, an exact total, and never a stale answer after another instance wrote.
describe('members search from the in-memory index (integration)', () => {
  let t: TestApp;
  let second: TestApp;
  let owner: TestAgent;
  let businessId: string;
  let otherBusinessId: string;
  const quokka = (n: number) => `Quokka Member ${String(n).padStart(4, '0')}`;

  beforeAll(async () => {
    t = await createTestApp();
    // A second API instance on the same database, with its own indexes.
    second = await createTestApp({}, { database: t.db });
    const signedUp = await t.signUp();
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
    otherBusinessId = (await t.signUp()).user.business.id;
    // 520 quokkas a minute apart, 10 wombats, a branch of the first quokka; 600 quokkas in
    // another business, which no search of this one may show or count.
    const insert = (id: string, prefix: string, count: number) =>
      t.dataSource.query(
        `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, created_at)
         SELECT $1, $2 || ' Member ' || lpad(n::text, 4, '0'), lower($2) || n || '@x.com', lower($2) || n || '@xcom',
                5000, 500, timestamptz '2026-01-01' + n * interval '1 minute'
         FROM generate_series(1, $3::int) AS n`,
        [id, prefix, count],
      );
    await insert(businessId, 'Quokka', 520);
    await insert(businessId, 'Wombat', 10);
    await insert(otherBusinessId, 'Quokka', 600);
    const [{ id: first }] = (await t.dataSource.query(
      `SELECT id FROM members WHERE business_id = $1 AND name = $2`,
      [businessId, quokka(1)],
    )) as { id: string }[];
    await owner
      .post(`/api/members/${first}/branches`)
      .send({
        memberName: 'Wombat Friend',
        memberEmail: 'friend@x.com',
        membershipPriceCents: 5000,
        discountCents: 500,
      })
      .expect(201);
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  const list = async (query: string): Promise<Page<MemberRow>> =>
    (await owner.get(`/api/members${query}`).expect(200)).body as Page<MemberRow>;
  const names = (page: Page<MemberRow>) => page.items.map((row) => row.memberName);
  const indexes = () => t.app.get(MemberSearchIndexes);

  it('counts every match exactly, past 500, and pages through them', async () => {
    const first = await list('?search=quokka');
    expect(first.total).toBe(520);
    expect(first.totalCapped).toBeUndefined();
    expect(names(first)).toEqual(Array.from({ length: 50 }, (_, i) => quokka(i + 1)));
    const last = await list('?search=QUOKKA&page=11');
    expect(names(last)).toEqual(Array.from({ length: 20 }, (_, i) => quokka(501 + i)));
    expect((await list('?search=quokka&page=12')).items).toEqual([]);
  });

  it('answers every sort, order, page and text exactly as the SQL search', async () => {
    const queries = [
      '?search=quokka&sort=memberName&order=desc&pageSize=7&page=3',
      '?search=QUOKKA%20MEMBER%2000&sort=memberEmail&order=asc&pageSize=25',
      '?search=wombat&sort=createdAt&order=desc',
      '?search=1%40x&sort=memberEmail&order=desc&pageSize=10&page=2',
      '?search=friend',
      '?search=ka%20m&pageSize=3',
      '?search=%25&pageSize=5',
      '?search=nobody-has-this',
    ];
    const fromIndex = await Promise.all(queries.map(list));
    indexes().maxMembers = 100; // this business is now too large: searched in SQL
    try {
      const fromSql = await Promise.all(queries.map(list));
      fromIndex.forEach((page, i) => {
        expect({ query: queries[i], items: page.items }).toEqual({
          query: queries[i],
          items: fromSql[i].items,
        });
        // SQL counts up to 500; the index counts every match.
        if (!fromSql[i].totalCapped) expect(page.total).toBe(fromSql[i].total);
      });
    } finally {
      indexes().maxMembers = 50_000;
    }
    const withBranch = fromIndex[4].items;
    expect(withBranch.map((row) => row.memberName)).toEqual(['Wombat Friend']);
    const [quokkaOne] = (await list('?search=quokka%20member%200001')).items;
    expect(quokkaOne).toMatchObject({ branches: 1, newPriceCents: 4500 });
    expect(quokkaOne.branchDetails.map((branch) => branch.branchName)).toEqual(['Wombat Friend']);
  });

  it("finds what another instance added, renamed or removed at once, and never another business's members", async () => {
    expect((await list('?search=platypus')).total).toBe(0);
    // The second instance's connections write (as its owner, a Mindbody sync or a CSV import
    // would); this instance is not told.
    await second.dataSource.query(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents)
       VALUES ($1, 'Platypus Newcomer', 'platy@x.com', 'platy@xcom', 5000, 500)`,
      [businessId],
    );
    expect(names(await list('?search=platypus'))).toEqual(['Platypus Newcomer']);
    await second.dataSource.query(
      `UPDATE members SET name = 'Platypus Renamed' WHERE business_id = $1 AND name = $2`,
      [businessId, quokka(7)],
    );
    const renamed = await list('?search=platypus&sort=memberName');
    expect(names(renamed)).toEqual(['Platypus Newcomer', 'Platypus Renamed']);
    expect((await list('?search=quokka%20member%200007')).total).toBe(0);
    await second.dataSource.query(`DELETE FROM members WHERE business_id = $1 AND name = $2`, [
      businessId,
      'Platypus Newcomer',
    ]);
    expect(names(await list('?search=platypus'))).toEqual(['Platypus Renamed']);
    // A price change is not something the search reads: the version (and the index) stay, the
    // page shows the new price.
    const version = async () =>
      (
        (await t.dataSource.query(`SELECT member_search_version FROM businesses WHERE id = $1`, [
          businessId,
        ])) as { member_search_version: string }[]
      )[0].member_search_version;
    const before = await version();
    await second.dataSource.query(
      `UPDATE members SET membership_price_cents = 6100 WHERE business_id = $1 AND name = 'Platypus Renamed'`,
      [businessId],
    );
    expect((await list('?search=platypus')).items[0].membershipPriceCents).toBe(6100);
    expect(await version()).toBe(before);
    // The other business's 600 quokkas: never shown, never counted.
    await second.dataSource.query(
      `UPDATE members SET name = 'Platypus Elsewhere' WHERE business_id = $1 AND name = $2`,
      [otherBusinessId, quokka(3)],
    );
    expect(names(await list('?search=platypus'))).toEqual(['Platypus Renamed']);
    expect(await version()).toBe(before);
  });
});
