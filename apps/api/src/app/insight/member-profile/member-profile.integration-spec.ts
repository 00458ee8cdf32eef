import type TestAgent from 'supertest/lib/agent';
import {
  MESSAGES,
  REFERRAL_TREE_MAX_DEPTH,
  type MemberProfile,
  type MemberRow,
  type ReferralLink,
} from '@grove/contracts';
import { autoLinksOff, createTestApp, type TestApp } from '../../../../test/test-app';

const person = (name: string, email: string, priceCents = 10_000, discountCents = 1000) => ({
  memberName: name,
  memberEmail: email,
  membershipPriceCents: priceCents,
  discountCents,
});

describe('member profile (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let otherBusinessId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signed = await t.signUp();
    owner = signed.agent;
    // Members start without a link here: the profile shows 'Create link' until one is made.
    await autoLinksOff(owner);
    const second = await t.signUp();
    other = second.agent;
    otherBusinessId = second.user.business.id;
  });
  afterAll(() => t.close());

  const add = async (agent: TestAgent, body: Record<string, unknown>): Promise<MemberRow> =>
    (await agent.post('/api/members').send(body).expect(201)).body as MemberRow;
  const branch = async (treeId: string, name: string, email: string): Promise<MemberRow> =>
    (await owner.post(`/api/members/${treeId}/branches`).send(person(name, email)).expect(201))
      .body as MemberRow;
  const profile = async (id: string, agent = owner): Promise<MemberProfile> =>
    (await agent.get(`/api/members/${id}/profile`).expect(200)).body as MemberProfile;

  it('shows the details, the referral tree two levels deep with names and dates, and whose branch they are', async () => {
    const ann = await add(owner, person('Ann Root', 'ann.root@x.com', 10_000, 1500));
    const bea = await branch(ann.id, 'Bea Branch', 'bea.branch@x.com');
    const cal = await branch(ann.id, 'Cal Branch', 'cal.branch@x.com');
    const dan = await branch(bea.id, 'Dan Twig', 'dan.twig@x.com');

    const annProfile = await profile(ann.id);
    expect(annProfile.member).toMatchObject({
      id: ann.id,
      memberName: 'Ann Root',
      memberEmail: 'ann.root@x.com',
      branches: 2,
      membershipPriceCents: 10000,
      newPriceCents: 7000,
      managedByIntegration: null,
    });
    expect(annProfile.referredBy).toBeNull();
    expect(new Date(annProfile.joinedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(annProfile.tree).toEqual([
      {
        id: bea.id,
        name: 'Bea Branch',
        joinedAt: expect.any(String),
        status: 'Active',
        hiddenBranches: 0,
        branches: [
          {
            id: dan.id,
            name: 'Dan Twig',
            joinedAt: expect.any(String),
            status: 'Active',
            branches: [],
            hiddenBranches: 0,
          },
        ],
      },
      {
        id: cal.id,
        name: 'Cal Branch',
        joinedAt: expect.any(String),
        status: 'Active',
        branches: [],
        hiddenBranches: 0,
      },
    ]);
    expect(Number.isNaN(Date.parse(annProfile.tree[0]?.joinedAt ?? ''))).toBe(false);

    const beaProfile = await profile(bea.id);
    expect(beaProfile.referredBy).toEqual({ id: ann.id, name: 'Ann Root' });
    expect(beaProfile.tree.map((node) => node.name)).toEqual(['Dan Twig']);
  });

  it('stops the tree at its depth cap and says how many branches are not drawn', async () => {
    const levelName = (level: number) => `Level ${'abcdefghij'[level]}`;
    let parent = await add(owner, person('Deep Root', 'deep.root@x.com'));
    const root = parent;
    for (let level = 1; level <= REFERRAL_TREE_MAX_DEPTH + 1; level++)
      parent = await branch(parent.id, levelName(level), `level.${level}@x.com`);
    let node = (await profile(root.id)).tree[0];
    for (let level = 1; level < REFERRAL_TREE_MAX_DEPTH; level++) node = node?.branches[0];
    expect(node?.name).toBe(levelName(REFERRAL_TREE_MAX_DEPTH));
    expect(node?.branches).toEqual([]);
    expect(node?.hiddenBranches).toBe(1);
  });

  it('lists the price ledger newest first with its reason and old → new price, and the branch behind it', async () => {
    const eve = await add(owner, person('Eve Ledger', 'eve.ledger@x.com', 8000, 2000));
    await branch(eve.id, 'Fay Friend', 'fay.friend@x.com');
    await owner.patch(`/api/members/${eve.id}`).send({ membershipPriceCents: 10_000 }).expect(200);
    const { ledger } = await profile(eve.id);
    // Written by the flows themselves (lifecycle facts): newest first.
    expect(ledger).toEqual([
      {
        occurredAt: expect.any(String),
        reason: 'membership_price_changed',
        oldPriceCents: 6000,
        newPriceCents: 8000,
        branchName: null,
      },
      {
        occurredAt: expect.any(String),
        reason: 'branch_added',
        oldPriceCents: 8000,
        newPriceCents: 6000,
        branchName: 'Fay Friend',
      },
      {
        occurredAt: expect.any(String),
        reason: 'member_added',
        oldPriceCents: null,
        newPriceCents: 8000,
        branchName: null,
      },
    ]);
    // A ledger line filed under another business never shows, even with this member's id.
    await t.dataSource.query(
      `INSERT INTO price_changes (business_id, member_id, reason, old_price_cents, new_price_cents,
         membership_price_cents, event_key)
       VALUES ($1, $2, 'discount_changed', 8000, 1, 8000, 'test:foreign')`,
      [otherBusinessId, eve.id],
    );
    expect((await profile(eve.id)).ledger).toHaveLength(3);
  });

  it('shows the live referral link and everyone who joined through it: waiting, approved (a branch) and removed', async () => {
    const gus = await add(owner, person('Gus Linked', 'gus.linked@x.com'));
    expect((await profile(gus.id)).referralLink).toBeNull();
    const link = (await owner.post(`/api/members/${gus.id}/referral-link`).send({}).expect(201))
      .body as ReferralLink;
    const join = (name: string, email: string) =>
      t.agent().post(`/api/referrals/${link.code}/join`).send({ name, email }).expect(201);
    await join('Hal Prospect', 'hal.prospect@x.com');
    await join("Siobhán O'Brien", 'siobhan.obrien@x.com');
    await join('Anne-Marie Dubois', 'anne-marie.dubois@x.com');
    const waiting = (await owner.get('/api/prospects').expect(200)).body as {
      items: { id: string; name: string }[];
    };
    const idOf = (name: string): string => {
      const found = waiting.items.find((item) => item.name === name);
      if (!found) throw new Error(`no prospect ${name}`);
      return found.id;
    };
    const approved = (
      await owner
        .post(`/api/prospects/${idOf("Siobhán O'Brien")}/approve`)
        .send(person("Siobhán O'Brien", 'siobhan.obrien@x.com'))
        .expect(201)
    ).body as MemberRow;
    await owner.delete(`/api/prospects/${idOf('Anne-Marie Dubois')}`).expect(204);

    const seen = await profile(gus.id);
    expect(seen.referralLink).toMatchObject({ code: link.code, expiresAt: null });
    expect(seen.referralLink?.url).toMatch(new RegExp(`/referral/${link.code}$`));
    // Newest first; the approved friend opens their own profile.
    expect(seen.prospects).toEqual([
      {
        id: idOf('Anne-Marie Dubois'),
        name: 'Anne-Marie Dubois',
        email: 'anne-marie.dubois@x.com',
        joinedAt: expect.any(String),
        status: 'removed',
        memberId: null,
      },
      {
        id: idOf("Siobhán O'Brien"),
        name: "Siobhán O'Brien",
        email: 'siobhan.obrien@x.com',
        joinedAt: expect.any(String),
        status: 'approved',
        memberId: approved.id,
      },
      {
        id: idOf('Hal Prospect'),
        name: 'Hal Prospect',
        email: 'hal.prospect@x.com',
        joinedAt: expect.any(String),
        status: 'waiting',
        memberId: null,
      },
    ]);
    // Prospective Members still lists only the one waiting.
    const still = (await owner.get('/api/prospects').expect(200)).body as {
      items: { name: string }[];
    };
    expect(still.items.map((item) => item.name)).toContain('Hal Prospect');
    expect(still.items.map((item) => item.name)).not.toContain('Anne-Marie Dubois');
    // Another business sees none of them (its own profile of this member is 404).
    const theirs = await other.get(`/api/members/${gus.id}/profile`).expect(404);
    expect(JSON.stringify(theirs.body)).not.toMatch(/Hal Prospect|Dubois|Brien/);
    // The approved friend removed as a member: still listed as approved, without a profile.
    await owner.delete(`/api/members/${approved.id}`).expect(204);
    const later = await profile(gus.id);
    expect(later.prospects.find((row) => row.status === 'approved')).toMatchObject({
      name: "Siobhán O'Brien",
      memberId: null,
    });
  });

  it('answers 404 "Member not found" for an unknown, malformed or other business’s id, and 401 without a session', async () => {
    const mine = await add(owner, person('Ivy Private', 'ivy.private@x.com'));
    await owner.post(`/api/members/${mine.id}/referral-link`).send({}).expect(201);
    const theirs = await add(other, person('Jon Theirs', 'jon.theirs@x.com'));
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const reply = await owner.get(`/api/members/${id}/profile`).expect(404);
      expect(reply.body.message).toBe(MESSAGES.memberNotFound);
      expect(JSON.stringify(reply.body)).not.toContain('Jon Theirs');
    }
    const reply = await other.get(`/api/members/${mine.id}/profile`).expect(404);
    expect(JSON.stringify(reply.body)).not.toContain('ivy.private');
    await t.agent().get(`/api/members/${mine.id}/profile`).expect(401);
  });
});
