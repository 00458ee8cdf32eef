import type { MemberRow, ReferralLink } from '@grove/contracts';
import { createTestApp, treeBody, type TestApp } from '../../../../../test/test-app';

/**
 * Issue 24 part 6: a join page visit counts once per visitor per link per UTC day (the visitor
 * known only by a keyed digest of the day, the code and the client address), so reloading the
 * page, or a script fetching it 50 times, does not inflate the funnel.
 */
describe('join page visits: once per visitor per link per day (integration, issue 24 part 6)', () => {
  let t: TestApp;
  let links: ReferralLink[];
  let businessId: string;

  beforeAll(async () => {
    // One proxy in front: each X-Forwarded-For address is another visitor.
    t = await createTestApp({ TRUST_PROXY: '1' });
    const signed = await t.signUp();
    businessId = signed.user.business.id;
    links = [];
    for (const [name, email] of [
      ['Ana Ruiz', 'ana@example.com'],
      ['Ben Stone', 'ben@example.com'],
    ]) {
      const member = (
        await signed.agent.post('/api/members').send(treeBody(name, email)).expect(201)
      ).body as MemberRow;
      links.push(
        (await signed.agent.post(`/api/members/${member.id}/referral-link`).send({}).expect(201))
          .body as ReferralLink,
      );
    }
  });
  afterAll(() => t.close());

  const visits = async (link: ReferralLink): Promise<number> => {
    const [row] = (await t.dataSource.query(
      `SELECT COALESCE(sum(v.visits), 0)::int AS n FROM join_page_visits v
         JOIN referral_links l ON l.id = v.referral_link_id WHERE l.code = $1`,
      [link.code],
    )) as { n: number }[];
    return row.n;
  };

  it('50 visits from one browser count once; its fetches of the page data too', async () => {
    const browser = t.agent();
    for (let i = 0; i < 50; i += 1)
      await browser
        .get(`/referral/${links[0].code}`)
        .set('X-Forwarded-For', '203.0.113.5')
        .expect(200);
    await browser
      .get(`/api/referrals/${links[0].code}`)
      .set('X-Forwarded-For', '203.0.113.5')
      .expect(200);
    expect(await visits(links[0])).toBe(1);
  });

  it('another visitor counts, and the same visitor on another link counts there', async () => {
    await t
      .agent()
      .get(`/referral/${links[0].code}`)
      .set('X-Forwarded-For', '198.51.100.7')
      .expect(200);
    await t
      .agent()
      .get(`/referral/${links[1].code}`)
      .set('X-Forwarded-For', '203.0.113.5')
      .expect(200);
    await t
      .agent()
      .get(`/referral/${links[1].code}`)
      .set('X-Forwarded-For', '203.0.113.5')
      .expect(200);
    expect(await visits(links[0])).toBe(2);
    expect(await visits(links[1])).toBe(1);
  });

  it('keeps only a keyed digest of today, never the address; earlier days are swept', async () => {
    const rows = (await t.dataSource.query(
      `SELECT v.visitor_digest, v.day = (now() AT TIME ZONE 'UTC')::date AS today
         FROM join_page_visitors v JOIN referral_links l ON l.id = v.referral_link_id
        WHERE l.business_id = $1`,
      [businessId],
    )) as { visitor_digest: Buffer; today: boolean }[];
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.visitor_digest).toHaveLength(32);
      expect(row.today).toBe(true);
      expect(row.visitor_digest.toString('latin1')).not.toMatch(/203\.0\.113|198\.51\.100/);
    }
    // Two visitors' digests of one day differ; a row from yesterday goes with the next visit.
    expect(new Set(rows.map((row) => row.visitor_digest.toString('hex'))).size).toBe(3);
    await t.dataSource.query(
      `INSERT INTO join_page_visitors (referral_link_id, day, visitor_digest)
       SELECT id, (now() AT TIME ZONE 'UTC')::date - 1, '\\x00'::bytea FROM referral_links WHERE code = $1`,
      [links[1].code],
    );
    await t
      .agent()
      .get(`/referral/${links[1].code}`)
      .set('X-Forwarded-For', '203.0.113.5')
      .expect(200);
    const [{ old }] = (await t.dataSource.query(
      `SELECT count(*)::int AS old FROM join_page_visitors v JOIN referral_links l ON l.id = v.referral_link_id
        WHERE l.code = $1 AND v.day < (now() AT TIME ZONE 'UTC')::date`,
      [links[1].code],
    )) as { old: number }[];
    expect(old).toBe(0);
    expect(await visits(links[1])).toBe(1);
  });

  it('an IPv6 visitor rotating addresses within its /64 counts once; another /64 counts (issue 31)', async () => {
    const before = await visits(links[1]);
    for (const address of ['2001:db8:7:8::1', '2001:db8:7:8:a:b:c:d', '2001:db8:7:8:ffff::9'])
      await t.agent().get(`/referral/${links[1].code}`).set('X-Forwarded-For', address).expect(200);
    expect(await visits(links[1])).toBe(before + 1);
    await t
      .agent()
      .get(`/referral/${links[1].code}`)
      .set('X-Forwarded-For', '2001:db8:7:9::1')
      .expect(200);
    expect(await visits(links[1])).toBe(before + 2);
  });
});
