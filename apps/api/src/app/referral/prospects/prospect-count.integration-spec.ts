import type TestAgent from 'supertest/lib/agent';
import type { MemberRow, Page, ProspectRow, ReferralLink } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';

/**
 * The Prospective Members page's total is the trigger-kept `businesses.prospect_count`
 * (migration BusinessProspectCount): it must stay the real number through every way a prospect
 * comes and goes, for each business on its own.
 */
describe('prospect count (integration)', () => {
  let t: TestApp;
  let a: { agent: TestAgent; id: string };
  let b: { agent: TestAgent; id: string };

  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_REFERRAL_LIMIT: '10000' });
    const signUp = async (businessName: string) => {
      const owner = await t.signUp({ businessName });
      return { agent: owner.agent, id: owner.user.business.id };
    };
    a = await signUp('Count Gym');
    b = await signUp('Other Count Gym');
  });
  afterAll(() => t.close());

  const tree = async (agent: TestAgent, name: string, email: string) => {
    const member = (
      await agent
        .post('/api/members')
        .send({
          memberName: name,
          memberEmail: email,
          membershipPriceCents: 8000,
          discountCents: 1000,
        })
        .expect(201)
    ).body as MemberRow;
    const link = (await agent.post(`/api/members/${member.id}/referral-link`).expect(201))
      .body as ReferralLink;
    return { member, link };
  };
  const join = (link: ReferralLink, name: string, email: string) =>
    t.agent().post(`/api/referrals/${link.code}/join`).send({ name, email }).expect(201);
  const page = async (agent: TestAgent, query = '?pageSize=100') =>
    (await agent.get(`/api/prospects${query}`).expect(200)).body as Page<ProspectRow>;

  /** [kept counter, real count, the page's total, the total of a page past the end] per business. */
  const counts = async () =>
    Promise.all(
      [a, b].map(async ({ agent, id }) => {
        const [row] = (await t.dataSource.query(
          `SELECT prospect_count AS kept, (SELECT count(*)::int FROM prospects WHERE business_id = $1) AS counted
           FROM businesses WHERE id = $1`,
          [id],
        )) as { kept: number; counted: number }[];
        const past = await page(agent, '?page=1000&pageSize=100');
        return [row.kept, row.counted, (await page(agent)).total, past.total];
      }),
    );
  const expectCounts = async (inA: number, inB: number) =>
    expect(await counts()).toEqual([
      [inA, inA, inA, inA],
      [inB, inB, inB, inB],
    ]);

  it('stays right through joins, an approval, a removal and a tree removed with its prospects', async () => {
    await expectCounts(0, 0);
    const riley = await tree(a.agent, 'Riley Referrer', 'riley@x.com');
    const sam = await tree(a.agent, 'Sam Sharer', 'sam@x.com');
    const other = await tree(b.agent, 'Olive Other', 'olive@x.com');
    await join(riley.link, 'Fran First', 'fran@x.com');
    await join(riley.link, 'Sid Second', 'sid@x.com');
    await join(riley.link, 'Tia Third', 'tia@x.com');
    await join(sam.link, 'Uma Under', 'uma@x.com');
    await join(other.link, 'Vic Visitor', 'vic@x.com');
    await expectCounts(4, 1);

    // Joining twice with one email is one prospect.
    await join(riley.link, 'Fran First', 'fran@x.com');
    await expectCounts(4, 1);

    const byEmail = async (email: string) => {
      const row = (await page(a.agent)).items.find((item) => item.email === email);
      if (!row) throw new Error(`${email} is not listed`);
      return row;
    };
    const fran = await byEmail('fran@x.com');
    await a.agent
      .post(`/api/prospects/${fran.id}/approve`)
      .send({
        memberName: 'Fran First',
        memberEmail: 'fran@x.com',
        membershipPriceCents: 6000,
        discountCents: 500,
      })
      .expect(201);
    await expectCounts(3, 1);

    await a.agent.delete(`/api/prospects/${(await byEmail('sid@x.com')).id}`).expect(204);
    await expectCounts(2, 1);
    // Another business cannot remove it, and the counts do not move.
    await b.agent.delete(`/api/prospects/${(await byEmail('tia@x.com')).id}`).expect(404);
    await expectCounts(2, 1);

    // Removing Riley's tree takes Tia with it; Uma (Sam's) stays.
    await a.agent.delete(`/api/members/${riley.member.id}`).expect(204);
    await expectCounts(1, 1);
    expect((await page(a.agent)).items.map((item) => item.email)).toEqual(['uma@x.com']);
  });
});
