import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type TestAgent from 'supertest/lib/agent';
import {
  MEMBER_PAGE_MESSAGES,
  emailKey,
  type MemberPage,
  type MemberRow,
  type ReferralEmailRun,
  type ReferralLink,
} from '@grove/contracts';
import { runUntilDone } from '../../../../test/background-run';
import { autoLinksOff, createTestApp, treeBody, type TestApp } from '../../../../test/test-app';
import { writeWebBuild } from '../../../../test/web-build';
import { createMailTestApp, memberEmailsSettled } from '../../../../test/member-mail';
import { recipient, type ParsedMail, type SmtpCatcher } from '@grove/testing-smtp';
import { waitFor } from '../../../../test/stub-servers';
import { ACCESS_COOKIE } from '../../platform/auth/auth-tokens';
import { MEMBER_COOKIE } from '../member-auth/member-auth.service';
import { JOBS_SCHEMA } from '../../platform/jobs/jobs-schema';
import { MEMBER_LINK_REQUEST_QUEUE } from './member-page.service';

const ORIGIN = 'https://grove.example.com';

describe('member page and "Your referral link" (integration, real SMTP server)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  let owner: TestAgent;
  let businessId: string;
  let ana: MemberRow;
  let link: ReferralLink;

  const addMember = async (
    agent: TestAgent,
    name: string,
    email: string,
    referringMemberId?: string,
  ): Promise<MemberRow> =>
    (
      await agent
        .post('/api/members')
        .send({
          memberName: name,
          memberEmail: email,
          membershipPriceCents: 10_000,
          discountCents: 1500,
          ...(referringMemberId ? { referringMemberId } : {}),
        })
        .expect(201)
    ).body as MemberRow;

  /** Waits for the next email to `address` after `from` emails, returns it. */
  const nextEmailTo = (address: string, from: number): Promise<ParsedMail> =>
    waitFor(async () => smtp.emails.slice(from).find((mail) => recipient(mail) === address));
  const tokenOf = (mail: ParsedMail): string => {
    const match = /\/member#token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '');
    if (!match) throw new Error(`no magic link in: ${mail.text}`);
    return match[1];
  };
  const cookieValue = (reply: { headers: Record<string, unknown> }, name: string): string => {
    const cookies = (reply.headers['set-cookie'] as string[] | undefined) ?? [];
    const cookie = cookies.find((line) => line.startsWith(`${name}=`));
    if (!cookie) throw new Error(`no ${name} cookie`);
    return cookie.split(';')[0];
  };

  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp({
      // Every request of this file comes from one address; the per-client limit has its own test.
      THROTTLE_MEMBER_LINK_LIMIT: '1000',
    }));
    const signedUp = await t.signUp({ businessName: 'Peak Fitness' });
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
    // Only the links made here: members without one are part of this file's subject.
    await autoLinksOff(owner);
    ana = await addMember(owner, 'Ana Ruiz', 'ana@example.com');
    link = (await owner.post(`/api/members/${ana.id}/referral-link`).send({}).expect(201))
      .body as ReferralLink;
    await addMember(owner, 'Ben Stone', 'ben@example.com', ana.id);
    const join = await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: 'Cleo Park', email: 'cleo@example.com' });
    expect(join.status).toBeLessThan(300);
    // Ana is told about Cleo (issue 15 part 2) before the tests count her emails.
    await waitFor(async () =>
      smtp.emails.some((mail) => mail.subject === 'Cleo Park joined with your link'),
    );
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('the owner emails a member their link once; the magic link opens their page once', async () => {
    const before = smtp.emails.length;
    const sent = await owner.post(`/api/members/${ana.id}/referral-link/email`).expect(202);
    expect(sent.body).toEqual({ queued: 1, skipped: 0 });
    const again = await owner.post(`/api/members/${ana.id}/referral-link/email`).expect(429);
    expect(again.body.message).toBe(MEMBER_PAGE_MESSAGES.referralEmailTooSoon);
    const mail = await nextEmailTo('ana@example.com', before);
    expect(mail.from?.value[0]).toEqual({ name: 'Peak Fitness', address: 'no-reply@grove.test' });
    expect(mail.html).toContain(`${ORIGIN}/referral/${link.code}`);
    expect(mail.text).toContain(`${ORIGIN}/referral/${link.code}`);
    // $100 membership, one counting branch at $15 off.
    expect(mail.text).toContain('Your price now: $85.00 a month.');
    // The ledger (written by the owner flows): Ana joined at $100, then Ben's branch took $15
    // off. Both lines moved 10 days back: $15 off a month for 10 days so far.
    await t.dataSource.query(
      `UPDATE price_changes SET occurred_at = occurred_at - interval '10 days'
        WHERE business_id = $1 AND member_id = $2`,
      [businessId, ana.id],
    );

    const member = t.agent();
    const token = tokenOf(mail);
    await member.post('/api/member/session').send({ token }).expect(204);
    const page = (await member.get('/api/member/me').expect(200)).body as MemberPage;
    expect(page).toMatchObject({
      businessName: 'Peak Fitness',
      memberFirstName: 'Ana',
      referralUrl: `${ORIGIN}/referral/${link.code}`,
      referralQrSvg: expect.stringMatching(/^<svg [^>]*viewBox/),
      membershipPriceCents: 10_000,
      priceNowCents: 8_500,
      discountPerBranchCents: 1_500,
      managedBy: null,
      billCurrency: null,
      projections: [
        { friends: 1, priceCents: 7_000 },
        { friends: 2, priceCents: 5_500 },
        { friends: 3, priceCents: 4_000 },
      ],
    });
    // 10 days of $15 a month: 1500 × 10 / 30.4375 = 492.8 → 493 cents (plus the test's seconds).
    expect(page.savedSoFarCents).toBeGreaterThanOrEqual(493);
    expect(page.savedSoFarCents).toBeLessThan(495);
    expect(page.branches.map((branch) => [branch.firstName, branch.status]).sort()).toEqual([
      ['Ben', 'counting'],
      ['Cleo', 'pending'],
    ]);
    expect(page.ledger).toEqual([
      expect.objectContaining({
        reason: 'branch_added',
        oldPriceCents: 10_000,
        newPriceCents: 8_500,
      }),
      expect.objectContaining({
        reason: 'member_added',
        oldPriceCents: null,
        newPriceCents: 10_000,
      }),
    ]);

    // Single use: the same token again is refused, on a fresh browser too.
    const reuse = await t.agent().post('/api/member/session').send({ token }).expect(401);
    expect(reuse.body.message).toBe(MEMBER_PAGE_MESSAGES.linkExpired);
    await t.agent().post('/api/member/session').send({ token: 'short' }).expect(400);

    // Sign out revokes the session.
    await member.post('/api/member/logout').expect(204);
    await member.get('/api/member/me').expect(401);
  });

  it('refuses an expired magic link', async () => {
    const before = smtp.emails.length;
    await t.agent().post('/api/member/magic-link').send({ email: 'ana@example.com' }).expect(202);
    const mail = await nextEmailTo('ana@example.com', before);
    // 31 minutes later (MEMBER_MAGIC_LINK_TTL_SECONDS = 1800).
    await t.dataSource.query(
      `UPDATE member_magic_links SET expires_at = now() - interval '1 minute'
        WHERE expires_at > now() - interval '1 minute' AND used_at IS NULL`,
    );
    const reply = await t
      .agent()
      .post('/api/member/session')
      .send({ token: tokenOf(mail) });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toBe(MEMBER_PAGE_MESSAGES.linkExpired);
    // The page's landing answers the expired page, with the form and nothing of the member.
    const page = await t
      .agent()
      .post('/member/landing')
      .send({ token: tokenOf(mail) })
      .expect(401);
    expect(page.text).toContain(MEMBER_PAGE_MESSAGES.linkExpired);
    expect(page.text).toContain('Send me a new link');
    expect(page.text).not.toContain('Hi Ana');
  });

  it('a link request is a job in the database when the answer comes (a crash after it cannot lose the email), and it emails once', async () => {
    const jobs = async (): Promise<number> =>
      (
        (await t.dataSource.query(
          `SELECT count(*)::int AS n FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND data->>'emailKey' = $2`,
          [MEMBER_LINK_REQUEST_QUEUE, emailKey('zoe.darcy@example.com')],
        )) as { n: number }[]
      )[0]?.n;
    await addMember(owner, "Zoë D'Arcy-Nguyễn", 'zoe.darcy@example.com');
    const queuedBefore = await jobs();
    const before = smtp.emails.length;
    await t
      .agent()
      .post('/api/member/magic-link')
      .send({ email: 'Zoe.DArcy@example.com' })
      .expect(202);
    expect(await jobs()).toBe(queuedBefore + 1);
    await nextEmailTo('zoe.darcy@example.com', before);
    await memberEmailsSettled(t);
    expect(
      smtp.emails.slice(before).filter((mail) => recipient(mail) === 'zoe.darcy@example.com'),
    ).toHaveLength(1);
  });

  it('keeps members, businesses and owners apart', async () => {
    // The same email is a member of another business too.
    const other = await t.signUp({ businessName: 'Other Gym' });
    // Other Gym's Ana has no link yet ('not ready yet' on her page).
    await autoLinksOff(other.agent);
    const otherAna = await addMember(other.agent, 'Ana Other', 'ana@example.com');
    const before = smtp.emails.length;
    await t.agent().post('/api/member/magic-link').send({ email: 'Ana@Example.com' }).expect(202);
    const mails = await waitFor(async () => {
      const found = smtp.emails
        .slice(before)
        .filter((mail) => recipient(mail) === 'ana@example.com');
      return found.length === 2 ? found : undefined;
    });
    const pages = await Promise.all(
      mails.map(async (mail) => {
        const browser = t.agent();
        await browser
          .post('/api/member/session')
          .send({ token: tokenOf(mail) })
          .expect(204);
        return {
          mail,
          browser,
          page: (await browser.get('/api/member/me').expect(200)).body as MemberPage,
        };
      }),
    );
    for (const { mail, page } of pages) expect(mail.from?.value[0].name).toBe(page.businessName);
    const theirs = pages.find((entry) => entry.page.businessName === 'Other Gym');
    expect(theirs?.page).toMatchObject({
      memberFirstName: 'Ana',
      referralUrl: null,
      referralQrSvg: null,
      branches: [],
      ledger: [expect.objectContaining({ reason: 'member_added', newPriceCents: 10_000 })],
    });
    expect(otherAna.id).toBeDefined();

    // A member cookie opens nothing of the owner's API, an owner's token nothing of the member API.
    const memberSession = await t
      .agent()
      .post('/api/member/session')
      .send({ token: 'x'.repeat(43) });
    expect(memberSession.status).toBe(401);
    const again = smtp.emails.length;
    await t.agent().post('/api/member/magic-link').send({ email: 'ben@example.com' }).expect(202);
    const benMail = await nextEmailTo('ben@example.com', again);
    const signIn = await t
      .agent()
      .post('/api/member/session')
      .send({ token: tokenOf(benMail) })
      .expect(204);
    const memberCookie = cookieValue(signIn, MEMBER_COOKIE);
    // One cookie for the member API, one for the server-rendered page /member: nowhere else.
    const setCookies = (signIn.headers['set-cookie'] as unknown as string[]).filter((line) =>
      line.startsWith(`${MEMBER_COOKIE}=`),
    );
    expect(setCookies.map((line) => /Path=([^;]+)/.exec(line)?.[1]).sort()).toEqual([
      '/api/member',
      '/member',
    ]);
    for (const line of setCookies) {
      expect(line).toContain('HttpOnly');
      expect(line).toContain('SameSite=Lax');
    }
    await t.agent().get('/api/members').set('Cookie', memberCookie).expect(401);
    await t.agent().get('/api/referral-links').set('Cookie', memberCookie).expect(401);
    const benPage = (await t.agent().get('/api/member/me').set('Cookie', memberCookie).expect(200))
      .body as MemberPage;
    expect(benPage.memberFirstName).toBe('Ben');
    // A member session ends at its expiry (MEMBER_SESSION_TTL_SECONDS; moved to the past here).
    await t.dataSource.query(`UPDATE member_sessions SET expires_at = now() - interval '1 second'
      WHERE member_id = (SELECT id FROM members WHERE email = 'ben@example.com')`);
    await t.agent().get('/api/member/me').set('Cookie', memberCookie).expect(401);
    const login = await t
      .agent()
      .post('/api/auth/login')
      .send({ email: other.body.email, password: other.body.password });
    const ownerCookie = cookieValue(login, ACCESS_COOKIE);
    const refused = await t.agent().get('/api/member/me').set('Cookie', ownerCookie).expect(401);
    expect(refused.body.message).toBe(MEMBER_PAGE_MESSAGES.sessionEnded);
    // An owner cannot email another business's member.
    await other.agent.post(`/api/members/${ana.id}/referral-link/email`).expect(404);
    await other.agent.post(`/api/members/not-a-uuid/referral-link/email`).expect(404);
    // 'Email all links' of another business queues none of this business's members.
    const emailRows = async (): Promise<number> =>
      Number(
        (
          (await t.dataSource.query(`SELECT count(*) AS n FROM member_emails`)) as { n: string }[]
        )[0]?.n,
      );
    const rowsBefore = await emailRows();
    await other.agent.post('/api/referral-links/email').expect(202);
    expect(await runUntilDone<ReferralEmailRun>(other.agent, '/api/referral-links/email')).toEqual({
      status: 'done',
      total: 0,
      processed: 0,
      queued: 0,
      skipped: 0,
    });
    expect(await emailRows()).toBe(rowsBefore);
  });

  it('shows a Mindbody member their autopay amount, what Mindbody will charge next, and an ended branch as ended', async () => {
    const eve = await addMember(owner, 'Eve Kim', 'eve@example.com');
    const friend = await addMember(owner, 'Finn Moss', 'finn@example.com', eve.id);
    await t.dataSource.query(
      `UPDATE members SET mindbody_client_id = 'mb-eve', mindbody_autopay_cents = 7200,
              mindbody_priced_at = now(), mindbody_next_charge_cents = 7920,
              mindbody_next_charge_at = '2026-12-01T00:00:00Z' WHERE id = $1`,
      [eve.id],
    );
    await t.dataSource.query(
      `UPDATE members SET mindbody_client_id = 'mb-finn', mindbody_cancelled_at = now() WHERE id = $1`,
      [friend.id],
    );
    await t.dataSource.query(
      `INSERT INTO mindbody_integrations (business_id, discount_on_referral_cents) VALUES ($1, 500)`,
      [businessId],
    );
    const before = smtp.emails.length;
    await t.agent().post('/api/member/magic-link').send({ email: 'eve@example.com' }).expect(202);
    const browser = t.agent();
    await browser
      .post('/api/member/session')
      .send({ token: tokenOf(await nextEmailTo('eve@example.com', before)) })
      .expect(204);
    const page = (await browser.get('/api/member/me').expect(200)).body as MemberPage;
    expect(page).toMatchObject({
      managedBy: 'Mindbody',
      // Tax included, as Mindbody's UpcomingAutopayEvents say (issue 22).
      nextCharge: { amountCents: 7_920, on: '2026-12-01T00:00:00.000Z' },
      membershipPriceCents: 10_000,
      priceNowCents: 7_200,
      discountPerBranchCents: 500,
      branches: [expect.objectContaining({ firstName: 'Finn', status: 'ended' })],
      projections: [
        { friends: 1, priceCents: 6_700 },
        { friends: 2, priceCents: 6_200 },
        { friends: 3, priceCents: 5_700 },
      ],
    });
    expect((await browser.get('/member').expect(200)).text).toContain(
      'Your Mindbody autopay amount. Mindbody will charge $79.20 on 1 Dec 2026. ',
    );
  });

  it("shows a member billed on the business's Stripe their subscription's price with Grove's discount, every amount in its currency", async () => {
    // An Australian business whose member Grace pays a US-dollar subscription (issue 32).
    const grace = await addMember(owner, 'Grace Ōkubo', 'grace@example.com');
    const friend = await addMember(owner, 'Hal Ng', 'hal@example.com', grace.id);
    await t.dataSource.query(
      `INSERT INTO stripe_member_integrations (business_id, api_key_sealed, key_last4, livemode, discount_on_referral_cents)
       VALUES ($1, 'sealed', 'abcd', false, 1000)`,
      [businessId],
    );
    await t.dataSource.query(
      `INSERT INTO stripe_member_subscriptions (business_id, member_id, stripe_subscription_id, stripe_customer_id, currency, price_cents)
       VALUES ($1, $2, 'sub_grace', 'cus_grace', 'usd', 6500)`,
      [businessId, grace.id],
    );
    await t.dataSource.query(
      `UPDATE members SET membership_price_cents = 6500, branch_counting_since = COALESCE(branch_counting_since, now())
        WHERE business_id = $1 AND id IN ($2, $3)`,
      [businessId, grace.id, friend.id],
    );
    const before = smtp.emails.length;
    await t.agent().post('/api/member/magic-link').send({ email: 'grace@example.com' }).expect(202);
    const browser = t.agent();
    await browser
      .post('/api/member/session')
      .send({ token: tokenOf(await nextEmailTo('grace@example.com', before)) })
      .expect(204);
    const page = (await browser.get('/api/member/me').expect(200)).body as MemberPage;
    expect(page).toMatchObject({
      managedBy: 'Stripe',
      billCurrency: 'USD',
      membershipPriceCents: 6_500,
      // The subscription's price less the Stripe discount of Hal's counting branch.
      priceNowCents: 5_500,
      discountPerBranchCents: 1_000,
      rewardsLeft: null,
      projections: [
        { friends: 1, priceCents: 4_500 },
        { friends: 2, priceCents: 3_500 },
        { friends: 3, priceCents: 2_500 },
      ],
    });
    expect(page.rewardPerFriend).toMatch(/USD\s10\.00/u);
    const html = (await browser.get('/member').expect(200)).text;
    expect(html).toContain('Your Stripe subscription price. ');
    // 'USD 55.00', never '$55.00' (which reads as the business's Australian dollars).
    expect(html).toMatch(/USD\s55\.00/u);
    expect(html).toMatch(/Membership price USD\s65\.00/u);
    expect(html).not.toMatch(/[^D]\$55\.00/u);
  });

  it('answers a new-link request identically for a member and a stranger, and throttles per address', async () => {
    const member = await t
      .agent()
      .post('/api/member/magic-link')
      .send({ email: 'ben@example.com' });
    const stranger = await t
      .agent()
      .post('/api/member/magic-link')
      .send({ email: 'nobody@example.com' });
    expect(stranger.status).toBe(member.status);
    expect(stranger.body).toEqual(member.body);
    expect(member.body).toEqual({ message: MEMBER_PAGE_MESSAGES.linkRequested });
    await t.agent().post('/api/member/magic-link').send({ email: 'not an email' }).expect(400);
    // THROTTLE_MEMBER_LINK_EMAIL_LIMIT = 3 per hour for nobody@example.com: 2 more pass, then 429.
    await t
      .agent()
      .post('/api/member/magic-link')
      .send({ email: 'nobody@example.com' })
      .expect(202);
    await t
      .agent()
      .post('/api/member/magic-link')
      .send({ email: 'nobody@example.com' })
      .expect(202);
    const refused = await t
      .agent()
      .post('/api/member/magic-link')
      .send({ email: 'nobody@example.com' });
    expect(refused.status).toBe(429);
  });

  it('an unsubscribed member gets no referral email, but still the link they ask for', async () => {
    const cleo = await addMember(owner, 'Dana Lee', 'dana@example.com');
    await owner.post(`/api/members/${cleo.id}/referral-link`).send({}).expect(201);
    const before = smtp.emails.length;
    await owner.post('/api/referral-links/email').expect(202);
    // Ana was emailed within the hour: skipped; Dana queued.
    expect(await runUntilDone<ReferralEmailRun>(owner, '/api/referral-links/email')).toEqual({
      status: 'done',
      total: 2,
      processed: 2,
      queued: 1,
      skipped: 1,
    });
    const first = await nextEmailTo('dana@example.com', before);
    const unsubscribeUrl =
      /\[(https:\/\/grove\.example\.com\/api\/member-emails\/unsubscribe\/[^\]\s]+)\]/.exec(
        first.text ?? '',
      )?.[1];
    expect(unsubscribeUrl).toBeDefined();
    await t
      .agent()
      .post(new URL(unsubscribeUrl ?? '').pathname)
      .expect(200);
    await t.dataSource.query(`DELETE FROM member_emails WHERE member_id = $1`, [cleo.id]);
    const afterUnsubscribe = smtp.emails.length;
    await owner.post(`/api/members/${cleo.id}/referral-link/email`).expect(202);
    await waitFor(async () => {
      const rows: { status: string }[] = await t.dataSource.query(
        `SELECT status FROM member_emails WHERE member_id = $1 AND template = 'referral-link'`,
        [cleo.id],
      );
      return rows[0]?.status === 'unsubscribed';
    });
    await t.agent().post('/api/member/magic-link').send({ email: 'dana@example.com' }).expect(202);
    const asked = await nextEmailTo('dana@example.com', afterUnsubscribe);
    expect(asked.subject).toBe('Your link to your Peak Fitness referral page');
    expect(
      smtp.emails.slice(afterUnsubscribe).filter((mail) => recipient(mail) === 'dana@example.com'),
    ).toHaveLength(1);
  });

  it('renders the member page in the first HTML response: their own data, nothing of another member or business', async () => {
    const before = smtp.emails.length;
    await t.agent().post('/api/member/magic-link').send({ email: 'ana@example.com' }).expect(202);
    // Ana is a member of Peak Fitness and of Other Gym ('keeps members, businesses and owners apart').
    const mails = await waitFor(async () => {
      const found = smtp.emails
        .slice(before)
        .filter((mail) => recipient(mail) === 'ana@example.com');
      return found.length === 2 ? found : undefined;
    });
    const mailOf = (business: string) => {
      const mail = mails.find((entry) => entry.from?.value[0].name === business);
      if (!mail) throw new Error(`no email from ${business}`);
      return mail;
    };
    const browser = t.agent();
    const token = tokenOf(mailOf('Peak Fitness'));
    // The page's script posts the fragment's token; the answer is the member's page.
    const landed = await browser.post('/member/landing').send({ token }).expect(200);
    expect(landed.headers['content-type']).toContain('text/html');
    const page = await browser.get('/member').expect(200);
    for (const html of [landed.text, page.text]) {
      expect(html).toContain('<h1>Hi Ana</h1>');
      expect(html).toContain('Peak Fitness');
      expect(html).toContain(`data-url="${ORIGIN}/referral/${link.code}?via=copy"`);
      expect(html).toContain('<strong>$85.00</strong><span> a month</span>');
      expect(html).toContain('Membership price $100.00 · 1 friend counting');
      expect(html).toContain('1 more friend → <strong>$70.00</strong>');
      expect(html).toContain('2 more friends → <strong>$55.00</strong>');
      expect(html).toContain(
        'Each friend who joins with your link lowers your price by $15.00 a month.',
      );
      expect(html).toMatch(
        /<span>Ben<\/span><span class="member-status member-status--counting">Counting/,
      );
      expect(html).toMatch(
        /<span>Cleo<\/span><span class="member-status member-status--pending">Pending/,
      );
      expect(html).toContain('$100.00 → $85.00');
      expect(html).toContain('alt="QR code of your referral link"');
      expect(html).toContain('src="data:image/svg+xml;charset=utf-8,%3Csvg');
      expect(html).not.toContain('Other Gym');
      expect(html).not.toContain('Send me a new link');
    }
    expect(page.headers['cache-control']).toBe('no-store');
    // The same as the JSON page's figures: one truth.
    const json = (await browser.get('/api/member/me').expect(200)).body as MemberPage;
    expect(page.text).toContain(
      `Saved so far: <strong data-testid="saved">$${(json.savedSoFarCents / 100).toFixed(2)}</strong>`,
    );

    // Ana of Other Gym sees her own page only: no link yet, no friends, nothing of Peak Fitness.
    const other = t.agent();
    const theirs = await other
      .post('/member/landing')
      .send({ token: tokenOf(mailOf('Other Gym')) })
      .expect(200);
    expect(theirs.text).toContain('Other Gym');
    expect(theirs.text).toContain(MEMBER_PAGE_MESSAGES.noLinkYet);
    expect(theirs.text).toContain('No friends yet: share your link!');
    expect(theirs.text).not.toMatch(/Peak Fitness|Ben|Cleo|\/referral\//);
    // Peak Fitness's page is unchanged by the other browser.
    expect((await browser.get('/member').expect(200)).text).toContain(`/referral/${link.code}`);

    // Single use: the token again, on a fresh browser, answers the expired page and no session.
    const reuse = t.agent();
    const refused = await reuse.post('/member/landing').send({ token }).expect(401);
    expect(refused.text).toContain(MEMBER_PAGE_MESSAGES.linkExpired);
    expect(refused.text).toContain('Send me a new link');
    expect(refused.text).not.toContain('Hi Ana');
    expect(refused.headers['set-cookie']).toBeUndefined();
    await reuse
      .post('/member/landing')
      .send({ token: 'x'.repeat(500) })
      .expect(401);
    await reuse.post('/member/landing').send({}).expect(401);
    // Never signed in on this browser: the sign-in request and its form, not "session ended".
    const signedOut = await reuse.get('/member').expect(200);
    expect(signedOut.text).toContain(MEMBER_PAGE_MESSAGES.signIn);
    expect(signedOut.text).not.toContain(MEMBER_PAGE_MESSAGES.sessionEnded);
    expect(signedOut.text).toContain('<form method="post" action="/member"');
    expect(signedOut.text).toContain('Email me a link');
    expect(signedOut.text).not.toContain('Hi Ana');

    // Sign out (a plain form POST) ends the session for the page and the API, and clears the
    // cookie: the page asks to sign in again.
    const out = await browser.post('/member/sign-out').expect(303);
    expect(out.headers['location']).toBe('/member');
    const afterSignOut = (await browser.get('/member').expect(200)).text;
    expect(afterSignOut).toContain(MEMBER_PAGE_MESSAGES.signIn);
    expect(afterSignOut).not.toContain('Hi Ana');
    await browser.get('/api/member/me').expect(401);
  });

  it("says 'Your session has ended' only when the browser's member session really ended", async () => {
    await addMember(owner, 'Siobhán Walsh', 'siobhan.walsh@example.com');
    const before = smtp.emails.length;
    await t
      .agent()
      .post('/api/member/magic-link')
      .send({ email: 'siobhan.walsh@example.com' })
      .expect(202);
    const mail = await nextEmailTo('siobhan.walsh@example.com', before);
    const browser = t.agent();
    await browser
      .post('/member/landing')
      .send({ token: tokenOf(mail) })
      .expect(200);
    expect((await browser.get('/member').expect(200)).text).toContain('Hi Siobhán');
    // The session's expiry passes (MEMBER_SESSION_TTL_SECONDS; moved to the past here): the
    // browser still sends its cookie, and the page says the session ended.
    await t.dataSource.query(`UPDATE member_sessions SET expires_at = now() - interval '1 second'
      WHERE member_id IN (SELECT id FROM members WHERE email = 'siobhan.walsh@example.com')`);
    const ended = (await browser.get('/member').expect(200)).text;
    expect(ended).toContain(MEMBER_PAGE_MESSAGES.sessionEnded);
    expect(ended).not.toContain(MEMBER_PAGE_MESSAGES.signIn);
    expect(ended).toContain('Send me a new link');
    expect(ended).not.toContain('Hi Siobhán');
  });
});

describe('new member page link requests per client address (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_MEMBER_LINK_LIMIT: '2' });
  });
  afterAll(() => t.close());

  it('refuses the third request of a minute from one client with the wait message', async () => {
    await t.agent().post('/api/member/magic-link').send({ email: 'a@example.com' }).expect(202);
    await t.agent().post('/api/member/magic-link').send({ email: 'b@example.com' }).expect(202);
    const refused = await t.agent().post('/api/member/magic-link').send({ email: 'c@example.com' });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many attempts. Please wait a minute and try again.');
  });
});

describe('new member page link requests per IPv6 /64 (integration, issue 31)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // One proxy in front: X-Forwarded-For is the client.
    t = await createTestApp({ TRUST_PROXY: '1', THROTTLE_MEMBER_LINK_LIMIT: '2' });
  });
  afterAll(() => t.close());

  const ask = (address: string, email: string) =>
    t.agent().post('/api/member/magic-link').set('X-Forwarded-For', address).send({ email });

  it('counts a client rotating addresses within its /64 as one; another /64 is not held back', async () => {
    await ask('2001:db8:1:2::10', 'siobhan@example.ie').expect(202);
    await ask('2001:db8:1:2:aaaa::11', 'zoe@example.com').expect(202);
    const refused = await ask('2001:db8:1:2:ffff:ffff:ffff:fffe', 'ana-sofia@example.es');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many attempts. Please wait a minute and try again.');
    await ask('2001:db8:1:3::10', 'ana-sofia@example.es').expect(202);
  });
});

describe('the member page rendered by the API, without JavaScript (integration)', () => {
  const PAGE_SCRIPT = 'document.documentElement.dataset.member="yes";';
  const PAGE_STYLE = '.member{max-width:480px}';
  const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
  let t: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = writeWebBuild('member-page', { script: PAGE_SCRIPT, style: PAGE_STYLE });
    t = await createTestApp({
      WEB_DIST_DIR: webDir,
      REMOTES_DIR: path.join(webDir, 'remotes'),
      THROTTLE_MEMBER_LINK_LIMIT: '3',
    });
    const { agent } = await t.signUp({ businessName: 'Peak Fitness' });
    await agent.post('/api/members').send(treeBody('Ana Ruiz', 'ana@example.com')).expect(201);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const ask = (email: string) =>
    t
      .agent()
      .post('/member')
      .set('Host', 'grove.example')
      .set('Origin', 'http://grove.example')
      .type('form')
      .send({ email });

  it('answers /member without a session with the form, allowing exactly its inline script and style by hash', async () => {
    const reply = await t.agent().get('/member').expect(200);
    expect(reply.text).toContain(MEMBER_PAGE_MESSAGES.signIn);
    expect(reply.text).not.toContain(MEMBER_PAGE_MESSAGES.sessionEnded);
    expect(reply.text).toContain(`<script>${PAGE_SCRIPT}</script>`);
    expect(reply.text).toContain(`<style>${PAGE_STYLE}</style>`);
    const csp = String(reply.headers['content-security-policy']);
    expect(csp).toContain(`script-src 'sha256-${sha256(PAGE_SCRIPT)}';`);
    expect(csp).toContain(`style-src 'sha256-${sha256(PAGE_STYLE)}';`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|nonce-/);
    expect(reply.headers['referrer-policy']).toBe('same-origin');
    expect(reply.text).not.toContain('the shell');
    // The unsubscribe page under /member/ stays the shell's.
    expect((await t.agent().get('/member/unsubscribe/abc').expect(200)).text).toContain(
      'the shell',
    );
  });

  it('answers the no-JavaScript new-link form the same for a member and a stranger, refuses a bad email, throttles with a page', async () => {
    const member = await ask('ana@example.com');
    const stranger = await ask('nobody@example.com');
    expect(member.status).toBe(200);
    expect(stranger.status).toBe(member.status);
    expect(stranger.text).toBe(member.text);
    expect(member.text).toContain(MEMBER_PAGE_MESSAGES.linkRequested);
    expect(member.text).not.toContain('Send me a new link');
    expect(member.text).not.toContain(MEMBER_PAGE_MESSAGES.sessionEnded);
    const bad = await ask('not an email');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Not a valid email address');
    expect(bad.text).toContain('value="not an email"');
    // THROTTLE_MEMBER_LINK_LIMIT = 3 a minute per client: the fourth is refused, as a page.
    await ask('third@example.com').expect(200);
    const refused = await ask('fourth@example.com');
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toContain('text/html');
    expect(refused.text).toContain('Too many attempts. Please wait a minute and try again.');
    // Another site cannot post it.
    await t
      .agent()
      .post('/member')
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send({ email: 'ana@example.com' })
      .expect(403);
  });
});

describe('the member page routes outside /api, given odd bodies and another member (integration)', () => {
  let t: TestApp;
  let webDir: string;
  const counts = async () =>
    (await t.dataSource.query(
      `SELECT (SELECT count(*) FROM member_sessions)::int AS sessions,
              (SELECT count(*) FROM member_magic_links)::int AS links`,
    )) as { sessions: number; links: number }[];

  beforeAll(async () => {
    webDir = writeWebBuild('member-odd', { script: 'void 0;', style: '.m{}' });
    t = await createTestApp({
      WEB_DIST_DIR: webDir,
      REMOTES_DIR: path.join(webDir, 'remotes'),
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('answers tokens and emails of the wrong shape with a 4xx page, never a 500, and writes nothing', async () => {
    const before = await counts();
    for (const token of [['a', 'b'], { $ne: '' }, 42, null, true, 'x'.repeat(201)]) {
      const reply = await t.agent().post('/member/landing').send({ token });
      expect(reply.status).toBe(401);
      expect(reply.headers['content-type']).toContain('text/html');
    }
    // A body that is not JSON at all is refused by the parser with a 4xx.
    const garbled = await t
      .agent()
      .post('/member/landing')
      .set('Content-Type', 'application/json')
      .send('{"token":');
    expect(garbled.status).toBeGreaterThanOrEqual(400);
    expect(garbled.status).toBeLessThan(500);
    for (const body of ['email=a@x.com&email=b@x.com', 'email[x]=a@x.com', '']) {
      const reply = await t
        .agent()
        .post('/member')
        .set('Host', 'grove.example')
        .set('Origin', 'http://grove.example')
        .type('form')
        .send(body);
      expect(reply.status).toBe(400);
      expect(reply.text).toContain('Not a valid email address');
    }
    expect(await counts()).toEqual(before);
  });

  it("signing out with a made-up cookie or an owner's session is a plain redirect that ends nothing", async () => {
    const owner = await t.signUp({ businessName: 'Peak Fitness' });
    await owner.agent
      .post('/api/members')
      .send(treeBody('Ana Ruiz', 'ana@example.com'))
      .expect(201);
    const before = await counts();
    const reply = await t
      .agent()
      .post('/member/sign-out')
      .set('Cookie', `${MEMBER_COOKIE}=not-a-session`)
      .expect(303);
    expect(reply.headers['location']).toBe('/member');
    // The owner's own session cookie is no member session: nothing is ended.
    await owner.agent.post('/member/sign-out').expect(303);
    expect(await counts()).toEqual(before);
  });
});
