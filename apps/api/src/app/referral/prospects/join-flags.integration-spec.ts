import type TestAgent from 'supertest/lib/agent';
import {
  MESSAGES,
  type FlaggedJoinRow,
  type MemberRow,
  type Page,
  type ProspectRow,
  type ReferralLink,
} from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';

const tree = (name: string, email: string) => ({
  memberName: name,
  memberEmail: email,
  membershipPriceCents: 10_000,
  discountCents: 1500,
});

describe('flagged joins: members and referrers joining through a link (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let referrer: MemberRow;
  let link: ReferralLink;

  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_REFERRAL_LIMIT: '10000' });
    owner = (await t.signUp({ businessName: 'Green Valley Fitness' })).agent;
    other = (await t.signUp({ businessName: 'Other Gym' })).agent;
    referrer = (
      await owner.post('/api/members').send(tree('Riley Referrer', 'riley@x.com')).expect(201)
    ).body as MemberRow;
    await owner.post('/api/members').send(tree('Mia Member', 'mia.member@x.com')).expect(201);
    link = (await owner.post(`/api/members/${referrer.id}/referral-link`).expect(201))
      .body as ReferralLink;
  });
  afterAll(() => t.close());

  const join = (name: string, email: string) =>
    t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name, email })
      .expect(201, { message: MESSAGES.referralSuccess });
  const flags = async (agent: TestAgent, query = ''): Promise<Page<FlaggedJoinRow>> =>
    (await agent.get(`/api/prospects/flags${query}`).expect(200)).body as Page<FlaggedJoinRow>;
  const prospects = async (agent: TestAgent): Promise<Page<ProspectRow>> =>
    (await agent.get('/api/prospects?pageSize=100').expect(200)).body as Page<ProspectRow>;

  it('needs a session', async () => {
    await t.agent().get('/api/prospects/flags').expect(401);
    await t.agent().delete('/api/prospects/flags/00000000-0000-4000-8000-000000000000').expect(401);
  });

  it('lists the member and the referrer who joined as flagged lines with their reasons; only the stranger is a prospect', async () => {
    await join('Sam Stranger', 'sam.stranger@x.com');
    await join('Mia Member', 'Mia.Member@x.com');
    await join('Riley Referrer', 'r.i.l.e.y@X.com');
    expect((await prospects(owner)).items.map((row) => row.email)).toEqual(['sam.stranger@x.com']);
    const page = await flags(owner);
    expect(page).toEqual({
      items: [
        {
          id: expect.any(String),
          name: 'Mia Member',
          email: 'Mia.Member@x.com',
          referringMemberId: referrer.id,
          referringMemberName: 'Riley Referrer',
          reasons: ['already_member'],
          attempts: 1,
          createdAt: expect.any(String),
          lastAttemptAt: expect.any(String),
        },
        expect.objectContaining({
          name: 'Riley Referrer',
          email: 'r.i.l.e.y@X.com',
          reasons: ['self_referral'],
          attempts: 1,
        }),
      ],
      total: 2,
      page: 1,
      pageSize: 50,
    });
    const second = await flags(owner, '?page=2&pageSize=1');
    expect(second.items.map((row) => row.reasons)).toEqual([['self_referral']]);
    expect(second.total).toBe(2);
    await owner.get('/api/prospects/flags?pageSize=0').expect(400);
  });

  it('counts a repeat on the same line instead of adding lines', async () => {
    await join('Mia M', 'miamember@x.com');
    const mia = (await flags(owner)).items.filter((row) => row.reasons.includes('already_member'));
    expect(mia).toHaveLength(1);
    expect(mia[0]).toMatchObject({ name: 'Mia M', email: 'miamember@x.com', attempts: 2 });
    expect(Date.parse(mia[0].lastAttemptAt)).toBeGreaterThanOrEqual(Date.parse(mia[0].createdAt));
  });

  it("tenant isolation: another business's owner sees none of them and cannot dismiss them (404)", async () => {
    const [flag] = (await flags(owner)).items;
    expect(await flags(other)).toEqual({ items: [], total: 0, page: 1, pageSize: 50 });
    const reply = await other.delete(`/api/prospects/flags/${flag.id}`).expect(404);
    expect(reply.body).toEqual({ statusCode: 404, message: MESSAGES.joinFlagNotFound });
    expect((await flags(owner)).items.map((row) => row.id)).toContain(flag.id);
  });

  it('answers bad paging and a malformed id with a 4xx, never a 500, and changes nothing', async () => {
    const before = await flags(owner);
    for (const query of ['page=1e21', 'page=0', 'pageSize=101', 'page=99999999999999999999'])
      await owner.get(`/api/prospects/flags?${query}`).expect(400);
    await owner.delete('/api/prospects/flags/%00').expect(404);
    expect(await flags(owner)).toEqual(before);
  });

  it('dismisses a flag → 204, it leaves the list, a second dismiss is 404; the next attempt flags again', async () => {
    const before = await flags(owner);
    const mia = before.items.find((row) => row.reasons.includes('already_member'));
    if (!mia) throw new Error('flag missing');
    await owner.delete(`/api/prospects/flags/${mia.id}`).expect(204);
    const after = await flags(owner);
    expect(after.items.map((row) => row.id)).not.toContain(mia.id);
    expect(after.total).toBe(before.total - 1);
    await owner
      .delete(`/api/prospects/flags/${mia.id}`)
      .expect(404, { statusCode: 404, message: MESSAGES.joinFlagNotFound });
    await owner.delete('/api/prospects/flags/not-a-uuid').expect(404);
    await join('Mia Member', 'mia.member@x.com');
    const again = (await flags(owner)).items.find((row) => row.email === 'mia.member@x.com');
    expect(again).toMatchObject({ reasons: ['already_member'], attempts: 1 });
    expect(again?.id).not.toBe(mia.id);
  });

  it('removing the referring tree removes its flags', async () => {
    const leaving = (
      await owner.post('/api/members').send(tree('Lee Leaving', 'lee@x.com')).expect(201)
    ).body as MemberRow;
    const code = (
      (await owner.post(`/api/members/${leaving.id}/referral-link`).expect(201))
        .body as ReferralLink
    ).code;
    await t
      .agent()
      .post(`/api/referrals/${code}/join`)
      .send({ name: 'Lee Leaving', email: 'lee@x.com' })
      .expect(201);
    expect((await flags(owner)).items.map((row) => row.email)).toContain('lee@x.com');
    await owner.delete(`/api/members/${leaving.id}`).expect(204);
    expect((await flags(owner)).items.map((row) => row.email)).not.toContain('lee@x.com');
  });
});
