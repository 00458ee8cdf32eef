import type { MemberRow, ReferralLink } from '@grove/contracts';
import { ALTCHA_TEST_ENV, solvedCaptcha } from '../../../../test/captcha';
import { createTestApp, type TestApp } from '../../../../test/test-app';

// supertest connects from 127.0.0.1: without TRUST_PROXY that is every client's address.
const login = (t: TestApp, forwardedFor: string) =>
  t
    .agent()
    .post('/api/auth/login')
    .set('X-Forwarded-For', forwardedFor)
    .send({ email: 'who@x.com', password: 'wrong password' });

/** A lead from the landing page, with a solved captcha. */
const lead = async (t: TestApp, email: string) => ({
  fullName: 'Robin Park',
  email,
  phone: '0412 345 678',
  company: 'Park Fitness',
  captcha: await solvedCaptcha(t),
});

/** A lead's stored client address. */
async function leadIp(t: TestApp, email: string): Promise<string | null> {
  const [row] = (await t.dataSource.query(`SELECT client_ip FROM leads WHERE email = $1`, [
    email,
  ])) as { client_ip: string | null }[];
  return row.client_ip;
}

const proxied = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'grove.example.com' };

describe('no TRUST_PROXY (integration): the socket is the client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...ALTCHA_TEST_ENV, THROTTLE_LOGIN_LIMIT: '1' });
  });
  afterAll(() => t.close());

  it('counts requests with different X-Forwarded-For against one limit', async () => {
    expect((await login(t, '203.0.113.1')).status).toBe(401);
    expect((await login(t, '203.0.113.2')).status).toBe(429);
  });

  it('stores the socket address, not X-Forwarded-For, and ignores X-Forwarded-Proto/Host for its own origin', async () => {
    await t
      .agent()
      .post('/api/leads')
      .set('X-Forwarded-For', '203.0.113.7')
      .send(await lead(t, 'direct@x.com'))
      .expect(201);
    expect(await leadIp(t, 'direct@x.com')).toMatch(/127\.0\.0\.1$/);
    await t
      .agent()
      .post('/api/leads')
      .set({ ...proxied, Origin: 'https://grove.example.com' })
      .send(await lead(t, 'spoofed@x.com'))
      .expect(403);
  });
});

describe('TRUST_PROXY=1 (integration): the client is the last X-Forwarded-For address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...ALTCHA_TEST_ENV, THROTTLE_LOGIN_LIMIT: '1', TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());

  it('counts each forwarded client separately', async () => {
    expect((await login(t, '203.0.113.1')).status).toBe(401);
    expect((await login(t, '203.0.113.2')).status).toBe(401);
    expect((await login(t, '203.0.113.1')).status).toBe(429);
    // Only the hop next to the trusted proxy counts: a client cannot pick a new address by
    // prepending one to the header.
    expect((await login(t, '198.51.100.9, 203.0.113.2')).status).toBe(429);
  });

  it('stores the forwarded client address with a lead', async () => {
    await t
      .agent()
      .post('/api/leads')
      .set('X-Forwarded-For', '203.0.113.7')
      .send(await lead(t, 'proxied@x.com'))
      .expect(201);
    expect(await leadIp(t, 'proxied@x.com')).toBe('203.0.113.7');
  });

  it('takes its own origin from X-Forwarded-Proto/Host for the origin check; referral link URLs stay on PUBLIC_ORIGIN', async () => {
    await t
      .agent()
      .post('/api/leads')
      .set({ ...proxied, Origin: 'https://grove.example.com' })
      .send(await lead(t, 'same-origin@x.com'))
      .expect(201);
    const { agent: owner } = await t.signUp();
    const body = {
      memberName: 'Link Owner',
      memberEmail: 'link.owner@x.com',
      membershipPriceCents: 10_000,
      discountCents: 1500,
    };
    const member = (await owner.post('/api/members').send(body).expect(201)).body as MemberRow;
    const link = (
      await owner.post(`/api/members/${member.id}/referral-link`).set(proxied).expect(201)
    ).body as ReferralLink;
    expect(link.url).toBe(`http://localhost:3000/referral/${link.code}`);
  });
});
