import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { MESSAGES, type MemberRow, type ReferralLink } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';

const tree = (name: string, email: string) => ({
  memberName: name,
  memberEmail: email,
  membershipPriceCents: 10_000,
  discountCents: 1500,
});

/** Signs up, adds one member and gives it a link. */
async function memberWithLink(
  t: TestApp,
): Promise<{ owner: TestAgent; member: MemberRow; link: ReferralLink }> {
  const { agent: owner } = await t.signUp();
  const member = (
    await owner.post('/api/members').send(tree('Link Owner', 'link.owner@x.com')).expect(201)
  ).body as MemberRow;
  const link = (await owner.post(`/api/members/${member.id}/referral-link`).expect(201))
    .body as ReferralLink;
  return { owner, member, link };
}

describe('referral join throttling (integration, default THROTTLE_REFERRAL_LIMIT=10)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_ORIGIN: 'https://grove.example.com/' });
  });
  afterAll(() => t.close());

  it('answers the 11th join from one client within a minute with 429', async () => {
    const { link } = await memberWithLink(t);
    expect(link.url).toBe(`https://grove.example.com/referral/${link.code}`);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const reply = await t
        .agent()
        .post(`/api/referrals/${link.code}/join`)
        .send({ name: 'Friend Person', email: `f${i}@x.com` });
      statuses.push(reply.status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(201), 429]);
    // The join page's info and the owner endpoints are not throttled by it.
    await t.agent().get(`/api/referrals/${link.code}`).expect(200);
    const [{ n }] = (await t.dataSource.query(`SELECT count(*)::int AS n FROM prospects`)) as {
      n: number;
    }[];
    expect(n).toBe(10);
  });
});

describe('join page form throttling (integration, THROTTLE_REFERRAL_LIMIT=3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_REFERRAL_LIMIT: '3' });
  });
  afterAll(() => t.close());

  it('counts the JSON join and the no-JavaScript form together and answers the form over the limit with a page (429)', async () => {
    const { member, link } = await memberWithLink(t);
    const formPost = (email: string) =>
      t.agent().post(`/referral/${link.code}`).type('form').send({ name: 'Friend Person', email });
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: 'Friend Person', email: 'json@x.com' })
      .expect(201);
    await formPost('form1@x.com').expect(200);
    await formPost('form2@x.com').expect(200);
    const refused = await formPost('form3@x.com').expect(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.text).toContain(MESSAGES.referralFailed);
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: 'Friend Person', email: 'json2@x.com' })
      .expect(429);
    const rows: unknown[] = await t.dataSource.query(
      `SELECT 1 FROM prospects WHERE referring_member_id = $1`,
      [member.id],
    );
    expect(rows).toHaveLength(3);
  });
});

describe('THROTTLE_DISABLED=true (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      THROTTLE_DISABLED: 'true',
      THROTTLE_LOGIN_LIMIT: '2',
      THROTTLE_REFERRAL_LIMIT: '2',
    });
  });
  afterAll(() => t.close());

  it('switches off the referral, login and signup throttles', async () => {
    const { link } = await memberWithLink(t);
    for (let i = 0; i < 5; i += 1) {
      await t
        .agent()
        .post(`/api/referrals/${link.code}/join`)
        .send({ name: 'Friend Person', email: `d${i}@x.com` })
        .expect(201);
      await t
        .agent()
        .post('/api/auth/login')
        .send({ email: 'nobody@x.com', password: 'wrong password' })
        .expect(401);
      await t.agent().post('/api/auth/signup').send({}).expect(400);
    }
  });

  it('200 concurrent joins on one link from 100 emails (each twice) → exactly 100 prospects, no 5xx', async () => {
    const { link, member } = await memberWithLink(t);
    const server = request(t.app.getHttpServer());
    const bodies = Array.from({ length: 200 }, (_, i) => ({
      name: 'Crowd Friend',
      // The second copy differs in case and dots: the same email key.
      email: i < 100 ? `crowd${i}@x.com` : `Crowd${i - 100}@X.com`,
    }));
    const replies = await Promise.all(
      bodies.map((body) => server.post(`/api/referrals/${link.code}/join`).send(body)),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([201]));
    expect(replies[0].body).toEqual({ message: MESSAGES.referralSuccess });
    const [{ n, keys }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n, count(DISTINCT email_key)::int AS keys FROM prospects WHERE referring_member_id = $1`,
      [member.id],
    )) as { n: number; keys: number }[];
    expect(n).toBe(100);
    expect(keys).toBe(100);
  });
});
