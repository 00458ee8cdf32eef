import type TestAgent from 'supertest/lib/agent';
import {
  MESSAGES,
  type MemberRow,
  type Page,
  type ProspectRow,
  type ReferralLink,
} from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';

const tree = (
  name: string,
  email: string,
  membershipPriceCents = 10_000,
  discountCents = 1500,
) => ({
  memberName: name,
  memberEmail: email,
  membershipPriceCents,
  discountCents,
});

describe('prospects (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;

  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_REFERRAL_LIMIT: '10000' });
    owner = (await t.signUp()).agent;
    other = (await t.signUp({ businessName: 'Other Gym' })).agent;
  });
  afterAll(() => t.close());

  const addMember = async (
    agent: TestAgent,
    name: string,
    email: string,
    price = 10_000,
    discount = 1500,
  ): Promise<MemberRow> =>
    (
      await agent
        .post('/api/members')
        .send(tree(name, email, price, discount))
        .expect(201)
    ).body as MemberRow;
  /** A member with a link, and friends who joined through it (oldest first). */
  const referrerWithFriends = async (
    agent: TestAgent,
    name: string,
    email: string,
    friends: [string, string][],
  ) => {
    const member = await addMember(agent, name, email, 8000, 2000);
    const link = (await agent.post(`/api/members/${member.id}/referral-link`).expect(201))
      .body as ReferralLink;
    for (const [friendName, friendEmail] of friends) {
      await t
        .agent()
        .post(`/api/referrals/${link.code}/join`)
        .send({ name: friendName, email: friendEmail })
        .expect(201);
    }
    return { member, link };
  };
  const list = async (agent: TestAgent, query = ''): Promise<Page<ProspectRow>> =>
    (await agent.get(`/api/prospects${query}`).expect(200)).body as Page<ProspectRow>;
  const memberCount = async (): Promise<number> => {
    const [{ n }] = (await t.dataSource.query(`SELECT count(*)::int AS n FROM members`)) as {
      n: number;
    }[];
    return n;
  };

  it('starts empty', async () => {
    expect(await list(owner)).toEqual({ items: [], total: 0, page: 1, pageSize: 50 });
  });

  it('lists prospects with their referring member, oldest first, paginated', async () => {
    const { member } = await referrerWithFriends(owner, 'Riley Referrer', 'riley@x.com', [
      ['Fran First', 'fran@x.com'],
      ['Sid Second', 'sid@x.com'],
    ]);
    const page = await list(owner);
    expect(page.total).toBe(2);
    expect(page.items).toEqual([
      {
        id: expect.any(String),
        name: 'Fran First',
        email: 'fran@x.com',
        referringMemberId: member.id,
        referringMemberName: 'Riley Referrer',
        // Only a friend of the business's own join page has one (issue 33 item 4).
        referredByNote: null,
        managedByIntegration: null,
        flags: [],
        createdAt: expect.any(String),
        // The approval starts from the referrer's $80.00 and $20.00 (docs/product.md#member-defaults).
        approvalPrefill: { membershipPriceCents: 8000, discountCents: 2000 },
      },
      expect.objectContaining({ name: 'Sid Second', email: 'sid@x.com' }),
    ]);
    const second = await list(owner, '?page=2&pageSize=1');
    expect(second.items.map((row) => row.name)).toEqual(['Sid Second']);
    expect(second.total).toBe(2);
    expect((await list(owner, '?page=9&pageSize=1')).total).toBe(2);
    await owner.get('/api/prospects?pageSize=0').expect(400);
  });

  it('removes a prospect → 204, then 404', async () => {
    const { member } = await referrerWithFriends(owner, 'Remy Remove', 'remy@x.com', [
      ['Gone Soon', 'gone@x.com'],
    ]);
    const row = (await list(owner, '?pageSize=100')).items.find(
      (item) => item.referringMemberId === member.id,
    );
    await owner.delete(`/api/prospects/${row?.id}`).expect(204);
    const again = await owner.delete(`/api/prospects/${row?.id}`).expect(404);
    expect(again.body).toEqual({ statusCode: 404, message: MESSAGES.prospectNotFound });
    await owner.delete('/api/prospects/not-a-uuid').expect(404);
    expect((await list(owner, '?pageSize=100')).items.map((item) => item.email)).not.toContain(
      'gone@x.com',
    );
  });

  it('approves: new tree, branch of the referrer (count 1, new price dropped), prospect gone; twice creates nothing', async () => {
    const { member } = await referrerWithFriends(owner, 'Ada Approver', 'ada@x.com', [
      ['Nia New', 'nia@x.com'],
    ]);
    const prospect = (await list(owner, '?pageSize=100')).items.find(
      (item) => item.referringMemberId === member.id,
    );
    if (!prospect) throw new Error('prospect missing');
    const before = await memberCount();
    const form = tree('Nia New', 'nia@x.com', 6000, 500);
    const created = (
      await owner.post(`/api/prospects/${prospect.id}/approve`).send(form).expect(201)
    ).body as MemberRow;
    expect(created).toMatchObject({
      memberName: 'Nia New',
      memberEmail: 'nia@x.com',
      referringMemberId: member.id,
      branches: 0,
    });
    expect(created.membershipPriceCents).toBe(6000);
    const referrer = (await owner.get(`/api/members/${member.id}`).expect(200)).body as MemberRow;
    expect(referrer.branches).toBe(1);
    expect(referrer.branchDetails).toEqual([
      { id: created.id, branchName: 'Nia New', branchEmail: 'nia@x.com', status: 'Active' },
    ]);
    expect(referrer.newPriceCents).toBe(6000); // 80 − 20 × 1
    expect((await list(owner, '?pageSize=100')).items.map((item) => item.id)).not.toContain(
      prospect.id,
    );
    expect(await memberCount()).toBe(before + 1);

    const again = await owner.post(`/api/prospects/${prospect.id}/approve`).send(form).expect(404);
    expect(again.body.message).toBe(MESSAGES.prospectNotFound);
    expect(await memberCount()).toBe(before + 1);
    expect(
      ((await owner.get(`/api/members/${member.id}`).expect(200)).body as MemberRow).branches,
    ).toBe(1);
  });

  it('two approvals of one prospect at the same time create one member', async () => {
    const { member } = await referrerWithFriends(owner, 'Race Referrer', 'race@x.com', [
      ['Rae Racer', 'rae@x.com'],
    ]);
    const prospect = (await list(owner, '?pageSize=100')).items.find(
      (item) => item.referringMemberId === member.id,
    );
    const before = await memberCount();
    const form = tree('Rae Racer', 'rae@x.com');
    const replies = await Promise.all(
      [1, 2, 3].map(() => owner.post(`/api/prospects/${prospect?.id}/approve`).send(form)),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 404, 404]);
    expect(await memberCount()).toBe(before + 1);
  });

  it('approval validates the form and keeps the prospect when it fails', async () => {
    const { member } = await referrerWithFriends(owner, 'Val Referrer', 'val@x.com', [
      ['Vic Valid', 'vic@x.com'],
    ]);
    const prospect = (await list(owner, '?pageSize=100')).items.find(
      (item) => item.referringMemberId === member.id,
    );
    const bad = await owner
      .post(`/api/prospects/${prospect?.id}/approve`)
      .send(tree('Vic Valid', 'vic@x.com', 123.4))
      .expect(400);
    expect(bad.body.message).toBe(MESSAGES.invalidAmount);
    await addMember(owner, 'Vic Elsewhere', 'v.i.c@x.com');
    const duplicate = await owner
      .post(`/api/prospects/${prospect?.id}/approve`)
      .send(tree('Vic Valid', 'vic@x.com'))
      .expect(409);
    expect(duplicate.body.message).toBe(MESSAGES.duplicateMember);
    expect((await list(owner, '?pageSize=100')).items.map((item) => item.id)).toContain(
      prospect?.id,
    );
  });

  // Issue 22 (Grove owns the referral graph): this test used to say a friend who joined through a
  // Mindbody-managed member's link is a managed prospect that cannot be approved (409), which left
  // a Mindbody gym's referral loop leading nowhere.
  it('a friend who joined through a Mindbody-managed member’s link is an ordinary prospect: approved as for any member, as that member’s branch; a branch typed by hand onto the managed member stays refused (409)', async () => {
    const [{ business_id }] = (await t.dataSource.query(
      `SELECT business_id FROM members WHERE email = 'ada@x.com'`,
    )) as { business_id: string }[];
    const [{ id }] = (await t.dataSource.query(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, mindbody_client_id)
       VALUES ($1, 'Mindy Body', 'mindy@x.com', 'mindy@xcom', 5000, 500, 'MB-1') RETURNING id`,
      [business_id],
    )) as { id: string }[];
    const link = (await owner.post(`/api/members/${id}/referral-link`).expect(201))
      .body as ReferralLink;
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: 'Mo Managed', email: 'mo@x.com' })
      .expect(201);
    const prospect = (await list(owner, '?pageSize=100')).items.find(
      (item) => item.email === 'mo@x.com',
    );
    expect(prospect).toMatchObject({ referringMemberId: id, managedByIntegration: null });
    const approved = (
      await owner
        .post(`/api/prospects/${prospect?.id}/approve`)
        .send(tree('Mo Managed', 'mo@x.com'))
        .expect(201)
    ).body as MemberRow;
    expect(approved).toMatchObject({ memberEmail: 'mo@x.com', managedByIntegration: null });
    const [{ referred_by_id }] = (await t.dataSource.query(
      `SELECT referred_by_id FROM members WHERE id = $1`,
      [approved.id],
    )) as { referred_by_id: string }[];
    expect(referred_by_id).toBe(id);
    await owner
      .post(`/api/members/${id}/branches`)
      .send(tree('Typed Byhand', 'typed@x.com'))
      .expect(409);
  });

  it('a prospect an earlier Mindbody import queued stays managed: it cannot be removed or approved by hand (409) and stays listed; another business gets 404', async () => {
    const referrer = await addMember(owner, 'Hal Handmade', 'hal@x.com');
    const [{ business_id }] = (await t.dataSource.query(
      `SELECT business_id FROM members WHERE id = $1`,
      [referrer.id],
    )) as {
      business_id: string;
    }[];
    const [{ id: managedId }] = (await t.dataSource.query(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, mindbody_client_id)
       VALUES ($1, 'Mabel Body', 'mabel@x.com', 'mabel@xcom', 5000, 500, 'MB-2') RETURNING id`,
      [business_id],
    )) as { id: string }[];
    // As the Mindbody import queues them: source 'Mindbody' and the client id.
    const [{ id: importedId }] = (await t.dataSource.query(
      `INSERT INTO prospects (business_id, referring_member_id, name, email, email_key, source, mindbody_client_id)
       VALUES ($1, $2, 'Imogen Imported', 'imogen@x.com', 'imogen@xcom', 'Mindbody', 'MB-3') RETURNING id`,
      [business_id, managedId],
    )) as { id: string }[];
    const reply = await owner.delete(`/api/prospects/${importedId}`).expect(409);
    expect(reply.body).toEqual({ statusCode: 409, message: MESSAGES.prospectManaged });
    await other.delete(`/api/prospects/${importedId}`).expect(404);
    const before = await memberCount();
    const approve = await owner
      .post(`/api/prospects/${importedId}/approve`)
      .send(tree('Imogen Imported', 'imogen@x.com'))
      .expect(409);
    expect(approve.body.message).toBe(MESSAGES.prospectManaged);
    expect(await memberCount()).toBe(before);

    const rows = (await list(owner, '?pageSize=100')).items.filter((item) =>
      [importedId].includes(item.id),
    );
    expect(rows).toEqual([
      expect.objectContaining({
        id: importedId,
        name: 'Imogen Imported',
        referringMemberId: managedId,
        managedByIntegration: 'Mindbody',
      }),
    ]);
  });

  it("tenant isolation: business B can neither list, remove nor approve A's prospects", async () => {
    const { member } = await referrerWithFriends(owner, 'Tess Tenant', 'tess@x.com', [
      ['Ivy Isolated', 'ivy@x.com'],
    ]);
    const prospect = (await list(owner, '?pageSize=100')).items.find(
      (item) => item.referringMemberId === member.id,
    );
    expect(await list(other)).toEqual({ items: [], total: 0, page: 1, pageSize: 50 });
    await other.delete(`/api/prospects/${prospect?.id}`).expect(404);
    const before = await memberCount();
    await other
      .post(`/api/prospects/${prospect?.id}/approve`)
      .send(tree('Ivy Isolated', 'ivy@x.com'))
      .expect(404);
    expect(await memberCount()).toBe(before);
    expect((await list(owner, '?pageSize=100')).items.map((item) => item.id)).toContain(
      prospect?.id,
    );
  });

  it('removing the referring tree removes its prospects', async () => {
    const { member } = await referrerWithFriends(owner, 'Leo Leaving', 'leo@x.com', [
      ['Pia Pending', 'pia@x.com'],
    ]);
    await owner.delete(`/api/members/${member.id}`).expect(204);
    expect((await list(owner, '?pageSize=100')).items.map((item) => item.email)).not.toContain(
      'pia@x.com',
    );
  });
});
