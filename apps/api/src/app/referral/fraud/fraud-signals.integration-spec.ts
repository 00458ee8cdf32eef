import type TestAgent from 'supertest/lib/agent';
import {
  MESSAGES,
  type FlaggedJoinRow,
  type MemberRow,
  type Page,
  type ProspectRow,
  type ReferralLink,
} from '@grove/contracts';
import { createTestApp, treeBody as tree, type TestApp } from '../../../../test/test-app';
import { jobScope } from '../../platform/database/business-scope';
import { MemberAuthService } from '../../member/member-auth/member-auth.service';
import { FraudSignalsService } from './fraud-signals.service';

/**
 * Each fraud signal of issue 15 part 4 raised by a fixture made for it, on the real join endpoint
 * and PostgreSQL; a clean join raises none; and every friend reads the same answer.
 */
describe('fraud signals on referral joins (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let businessId: string;
  let otherBusinessId: string;
  /** Every join reply's exact bytes, to show they are identical whatever the signals. */
  const replies = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp({
      THROTTLE_REFERRAL_LIMIT: '10000',
      TRUST_PROXY: 'loopback',
      FRAUD_BURST_JOINS: '3',
      FRAUD_BURST_WINDOW_SECONDS: '600',
    });
    const signed = await t.signUp({ businessName: 'Green Valley Fitness' });
    owner = signed.agent;
    businessId = signed.user.business.id;
    const second = await t.signUp({ businessName: 'Other Gym' });
    other = second.agent;
    otherBusinessId = second.user.business.id;
  });
  afterAll(() => t.close());

  /** A new tree of the owner's business with a live link. */
  const referrer = async (name: string, email: string, agent = owner) => {
    const member = (await agent.post('/api/members').send(tree(name, email)).expect(201))
      .body as MemberRow;
    const link = (await agent.post(`/api/members/${member.id}/referral-link`).expect(201))
      .body as ReferralLink;
    return { member, code: link.code };
  };
  const join = async (code: string, name: string, email: string, ip = '192.0.2.1') => {
    const reply = await t
      .agent()
      .post(`/api/referrals/${code}/join`)
      .set('X-Forwarded-For', ip)
      .send({ name, email })
      .expect(201, { message: MESSAGES.referralSuccess });
    replies.add(reply.text);
  };
  const prospect = async (email: string): Promise<ProspectRow | undefined> =>
    (
      (await owner.get('/api/prospects?pageSize=100').expect(200)).body as Page<ProspectRow>
    ).items.find((row) => row.email === email);
  const flag = async (email: string): Promise<FlaggedJoinRow | undefined> =>
    (
      (await owner.get('/api/prospects/flags?pageSize=100').expect(200))
        .body as Page<FlaggedJoinRow>
    ).items.find((row) => row.email === email);

  it('a clean join is queued with no flags', async () => {
    const { code } = await referrer('Casey Clean', 'casey@greenvalley.com.au');
    await join(code, 'Jordan Smith', 'jordan.smith@gmail.com');
    expect(await prospect('jordan.smith@gmail.com')).toMatchObject({
      name: 'Jordan Smith',
      referringMemberName: 'Casey Clean',
      flags: [],
    });
  });

  it('a disposable email domain is queued with the flag disposable_email', async () => {
    const { code } = await referrer('Dee Donor', 'dee@greenvalley.com.au');
    await join(code, 'Toby Throwaway', 'toby@mailinator.com');
    expect((await prospect('toby@mailinator.com'))?.flags).toEqual(['disposable_email']);
  });

  it("a removed member's email is queued with the flag former_member; only a digest is kept", async () => {
    const { code } = await referrer('Fern Friend', 'fern@greenvalley.com.au');
    const former = (
      await owner
        .post('/api/members')
        .send(tree('Fay Former', 'fay.former@outlook.com'))
        .expect(201)
    ).body as MemberRow;
    await owner.delete(`/api/members/${former.id}`).expect(204);
    await join(code, 'Fay Former', 'FayFormer@Outlook.com');
    expect((await prospect('FayFormer@Outlook.com'))?.flags).toEqual(['former_member']);
    const kept = (await t.dataSource.query(
      `SELECT encode(email_digest, 'escape') AS digest FROM former_members WHERE business_id = $1`,
      [businessId],
    )) as { digest: string }[];
    expect(kept.length).toBeGreaterThan(0);
    for (const row of kept) expect(row.digest).not.toContain('fay');
  });

  it("a former member of another business is nobody's former member here", async () => {
    const elsewhere = (
      await other.post('/api/members').send(tree('Gil Gone', 'gil.gone@outlook.com')).expect(201)
    ).body as MemberRow;
    await other.delete(`/api/members/${elsewhere.id}`).expect(204);
    const { code } = await referrer('Hana Host', 'hana@greenvalley.com.au');
    await join(code, 'Gil Gone', 'gil.gone@outlook.com');
    expect((await prospect('gil.gone@outlook.com'))?.flags).toEqual([]);
  });

  it('an ended member (Mindbody cancellation, or a member_ended fact) is a flagged join with already_member and former_member', async () => {
    const { code } = await referrer('Iris Inviter', 'iris@greenvalley.com.au');
    await t.dataSource.query(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, mindbody_client_id, mindbody_cancelled_at)
       VALUES ($1, 'Eddie Ended', 'eddie@outlook.com', 'eddie@outlookcom', 5000, 500, 'MB-ENDED', now())`,
      [businessId],
    );
    const manual = (
      await owner.post('/api/members').send(tree('Mona Manual', 'mona@outlook.com')).expect(201)
    ).body as MemberRow;
    await t.dataSource.query(
      `INSERT INTO lifecycle_facts (business_id, kind, member_id, source, event_key)
       VALUES ($1, 'member_ended', $2, 'manual', $3)`,
      [businessId, manual.id, `member_ended:${manual.id}`],
    );
    await join(code, 'Eddie Ended', 'eddie@outlook.com');
    await join(code, 'Mona Manual', 'mona@outlook.com');
    expect((await flag('eddie@outlook.com'))?.reasons).toEqual(['already_member', 'former_member']);
    expect((await flag('mona@outlook.com'))?.reasons).toEqual(['already_member', 'former_member']);
    expect(await prospect('eddie@outlook.com')).toBeUndefined();
  });

  it("a name or email close to the referrer's own is queued with the flag similar_to_referrer", async () => {
    const { code } = await referrer('Riley Referrer', 'riley.referrer@greenvalley.com.au');
    await join(code, 'Riley Referer', 'someone.else@gmail.com');
    await join(code, 'Pat Lee', 'rileyreferrer+2@gmail.com');
    expect((await prospect('someone.else@gmail.com'))?.flags).toEqual(['similar_to_referrer']);
    expect((await prospect('rileyreferrer+2@gmail.com'))?.flags).toEqual(['similar_to_referrer']);
    const family = await referrer('Robin Smith', 'robin.smith@greenvalley.com.au');
    await join(family.code, 'Alex Smith', 'alex.smith@gmail.com');
    expect((await prospect('alex.smith@gmail.com'))?.flags).toEqual([]);
  });

  it('the FRAUD_BURST_JOINS-th join on one link within the window is queued with the flag join_burst', async () => {
    const { code } = await referrer('Bea Burst', 'bea@greenvalley.com.au');
    await join(code, 'One First', 'one.first@gmail.com');
    await join(code, 'One First', 'one.first@gmail.com'); // a repeat is not a new join
    await join(code, 'Two Second', 'two.second@gmail.com');
    await join(code, 'Three Third', 'three.third@gmail.com');
    expect((await prospect('one.first@gmail.com'))?.flags).toEqual([]);
    expect((await prospect('two.second@gmail.com'))?.flags).toEqual([]);
    expect((await prospect('three.third@gmail.com'))?.flags).toEqual(['join_burst']);
    // Outside the window the link is calm again.
    await t.dataSource.query(
      `UPDATE prospects SET created_at = now() - interval '11 minutes' WHERE business_id = $1`,
      [businessId],
    );
    await join(code, 'Four Later', 'four.later@gmail.com');
    expect((await prospect('four.later@gmail.com'))?.flags).toEqual([]);
  });

  it("a join from the client address that opened the referrer's member page is queued with the flag member_page_address", async () => {
    const fraud = t.app.get(FraudSignalsService);
    const { member, code } = await referrer('Max Page', 'max@greenvalley.com.au');
    expect(
      await fraud.recordMemberPageOpen(jobScope({ businessId }), member.id, '203.0.113.7'),
    ).toBe(true);
    await join(code, 'Nina Neighbour', 'nina@gmail.com', '203.0.113.7');
    await join(code, 'Omar Other', 'omar@gmail.com', '198.51.100.9');
    expect((await prospect('nina@gmail.com'))?.flags).toEqual(['member_page_address']);
    expect((await prospect('omar@gmail.com'))?.flags).toEqual([]);
    const stored = (await t.dataSource.query(
      `SELECT client_digest FROM member_page_opens WHERE member_id = $1`,
      [member.id],
    )) as { client_digest: Buffer }[];
    expect(stored).toHaveLength(1);
    expect(stored[0].client_digest).toHaveLength(32);
    expect(stored[0].client_digest.toString('latin1')).not.toContain('203.0.113.7');
  });

  it('an IPv6 client is its /64: a join from another address of the network that opened the member page is flagged, one from another network is not (issue 31)', async () => {
    const fraud = t.app.get(FraudSignalsService);
    const { member, code } = await referrer('Sìne Six', 'sine@greenvalley.com.au');
    await fraud.recordMemberPageOpen(jobScope({ businessId }), member.id, '2001:db8:5:6::a1');
    await join(code, 'Rotating Phone', 'rotating@gmail.com', '2001:db8:5:6:ffff:1:2:3');
    await join(code, 'Next Door', 'next.door@gmail.com', '2001:db8:5:7::a1');
    expect((await prospect('rotating@gmail.com'))?.flags).toEqual(['member_page_address']);
    expect((await prospect('next.door@gmail.com'))?.flags).toEqual([]);
  });

  it("opening the member page (magic link, then the page) from an address flags a join through that member's link from it", async () => {
    const { member, code } = await referrer('Mae Magic', 'mae@greenvalley.com.au');
    const token = await t.app
      .get(MemberAuthService)
      .issueMagicLink(jobScope({ businessId }), member.id);
    const phone = t.agent();
    await phone
      .post('/api/member/session')
      .set('X-Forwarded-For', '203.0.113.20')
      .send({ token })
      .expect(204);
    await phone.get('/api/member/me').set('X-Forwarded-For', '203.0.113.20').expect(200);
    await join(code, 'Hugo Housemate', 'hugo@gmail.com', '203.0.113.20');
    await join(code, 'Ivy Elsewhere', 'ivy.elsewhere@gmail.com', '198.51.100.20');
    expect((await prospect('hugo@gmail.com'))?.flags).toEqual(['member_page_address']);
    expect((await prospect('ivy.elsewhere@gmail.com'))?.flags).toEqual([]);
  });

  it("tenant isolation: a member page opening is recorded only for the scope's own member", async () => {
    const fraud = t.app.get(FraudSignalsService);
    const { member } = await referrer('Quinn Quiet', 'quinn@greenvalley.com.au');
    expect(
      await fraud.recordMemberPageOpen(
        jobScope({ businessId: otherBusinessId }),
        member.id,
        '203.0.113.8',
      ),
    ).toBe(false);
    const [{ n }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM member_page_opens WHERE member_id = $1`,
      [member.id],
    )) as { n: number }[];
    expect(n).toBe(0);
    expect(
      await fraud.recordMemberPageOpen(jobScope({ businessId }), 'not-a-uuid', '203.0.113.8'),
    ).toBe(false);
  });

  it('openings older than MEMBER_PAGE_OPEN_RETENTION_DAYS no longer count and are swept', async () => {
    const fraud = t.app.get(FraudSignalsService);
    const { member, code } = await referrer('Olga Old', 'olga@greenvalley.com.au');
    await fraud.recordMemberPageOpen(jobScope({ businessId }), member.id, '203.0.113.9');
    await t.dataSource.query(
      `UPDATE member_page_opens SET opened_at = now() - interval '8 days' WHERE member_id = $1`,
      [member.id],
    );
    await join(code, 'Pia Past', 'pia.past@gmail.com', '203.0.113.9');
    expect((await prospect('pia.past@gmail.com'))?.flags).toEqual([]);
    await fraud.recordMemberPageOpen(jobScope({ businessId }), member.id, '203.0.113.10');
    const left = (await t.dataSource.query(
      `SELECT opened_at FROM member_page_opens WHERE member_id = $1`,
      [member.id],
    )) as unknown[];
    expect(left).toHaveLength(1);
  });

  it('signals add up on one prospect, and the owner of another business sees none of them', async () => {
    const { code } = await referrer('Solomon Stackhouse', 'sol.stack@greenvalley.com.au');
    await join(code, 'Solomon Stackhous', 'x9@mailinator.com');
    expect((await prospect('x9@mailinator.com'))?.flags).toEqual([
      'disposable_email',
      'similar_to_referrer',
    ]);
    const theirs = (await other.get('/api/prospects?pageSize=100').expect(200))
      .body as Page<ProspectRow>;
    expect(theirs.items.map((row) => row.email)).not.toContain('x9@mailinator.com');
  });

  it('every friend, flagged or not, read the same bytes', () => {
    expect([...replies]).toEqual([JSON.stringify({ message: MESSAGES.referralSuccess })]);
  });
});
