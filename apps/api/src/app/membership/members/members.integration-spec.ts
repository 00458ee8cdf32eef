import type TestAgent from 'supertest/lib/agent';
import { MESSAGES, type MemberRow, type Page } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { ACTIVE_SESSION_TRUST_MS } from '../../platform/auth/sessions.service';
import { MemberSearchIndexes } from './member-search-indexes.repository';

const tree = (
  name: string,
  email: string,
  membershipPriceCents: unknown = 10_000,
  discountCents: unknown = 1500,
) => ({
  memberName: name,
  memberEmail: email,
  membershipPriceCents,
  discountCents,
});

describe('members (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedUp = await t.signUp();
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
  });
  afterAll(() => t.close());

  const add = async (body: Record<string, unknown>): Promise<MemberRow> =>
    (await owner.post('/api/members').send(body).expect(201)).body as MemberRow;
  const get = async (id: string): Promise<MemberRow> =>
    (await owner.get(`/api/members/${id}`).expect(200)).body as MemberRow;

  it('needs a session', async () => {
    await t.agent().get('/api/members').expect(401);
    await t.agent().post('/api/members').send(tree('Ann Lee', 'ann@x.com')).expect(401);
  });

  it('refuses the list once the session has ended (expired or logged out), on a full and on an empty page', async () => {
    const { agent, user } = await t.signUp();
    const signedIn = await agent.post('/api/auth/refresh').expect(200);
    const access =
      (signedIn.headers['set-cookie'] as unknown as string[])
        .find((line) => line.startsWith('grove_access='))
        ?.split(';')[0] ?? '';
    await agent.post('/api/members').send(tree('Gone Soon', 'gone@x.com')).expect(201);
    await t.agent().get('/api/members').set('Cookie', access).expect(200);
    await t.dataSource.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [user.id],
    );
    // Ended behind the API's back (like another instance would): seen once the trust window passed.
    await new Promise((resolve) => setTimeout(resolve, ACTIVE_SESSION_TRUST_MS + 100));
    await t.agent().get('/api/members').set('Cookie', access).expect(401);
    await t.agent().get('/api/members?page=9').set('Cookie', access).expect(401);
    await t.agent().get('/api/members?search=nobody').set('Cookie', access).expect(401);
    await t.dataSource.query(
      `UPDATE sessions SET expires_at = now() + interval '1 hour' WHERE user_id = $1`,
      [user.id],
    );
    const page9 = await t.agent().get('/api/members?page=9').set('Cookie', access).expect(200);
    expect(page9.body).toEqual({ items: [], total: 1, page: 9, pageSize: 50 });
    await agent.post('/api/auth/logout').expect(204);
    await t.agent().get('/api/members').set('Cookie', access).expect(401);
  });

  it('adds a tree: trimmed name, cents, 0 branches, Active, not managed → 201', async () => {
    const row = await add(tree('  Alex Smith  ', 'alex@example.com', 8990, 1000));
    expect(row).toEqual({
      id: expect.any(String),
      memberName: 'Alex Smith',
      memberEmail: 'alex@example.com',
      membershipPriceCents: 8990,
      discountCents: 1000,
      branches: 0,
      branchDetails: [],
      newPriceCents: 8990,
      status: 'Active',
      managedByIntegration: null,
      referringMemberId: null,
    });
    expect(await get(row.id)).toEqual(row);
  });

  it('counts branches as they are added and removed, and prices follow (docs/product.md#states, docs/product.md#constants)', async () => {
    const root = await add(tree('Root Tree', 'root@example.com', 5000, 2000));
    const b1 = (
      await owner
        .post(`/api/members/${root.id}/branches`)
        .send(tree('Branch One', 'b1@example.com'))
        .expect(201)
    ).body as MemberRow;
    expect(b1.referringMemberId).toBe(root.id);
    expect(b1.branches).toBe(0);
    const b2 = await add({ ...tree('Branch Two', 'b2@example.com'), referringMemberId: root.id });
    let row = await get(root.id);
    expect(row.branches).toBe(2);
    expect(row.branchDetails).toEqual([
      { id: b1.id, branchName: 'Branch One', branchEmail: 'b1@example.com', status: 'Active' },
      { id: b2.id, branchName: 'Branch Two', branchEmail: 'b2@example.com', status: 'Active' },
    ]);
    expect(row.newPriceCents).toBe(1000);
    await owner
      .post(`/api/members/${root.id}/branches`)
      .send(tree('Branch Three', 'b3@example.com'))
      .expect(201);
    expect((await get(root.id)).newPriceCents).toBe(0); // floored at 0

    await owner.delete(`/api/members/${root.id}/branches/${b1.id}`).expect(204);
    row = await get(root.id);
    expect(row.branches).toBe(2);
    expect(row.branchDetails.map((branch) => branch.id)).not.toContain(b1.id);
    // The detached branch stays a tree.
    expect((await get(b1.id)).referringMemberId).toBeNull();
    // Detaching it again: not a branch of that tree any more.
    const again = await owner.delete(`/api/members/${root.id}/branches/${b1.id}`).expect(404);
    expect(again.body.message).toBe(MESSAGES.notABranch);
    await owner.delete(`/api/members/${root.id}/branches/not-a-uuid`).expect(404);
  });

  it('removing a tree: its referrer count drops, its own branches stay as trees (docs/product.md#states)', async () => {
    const grand = await add(tree('Grand Tree', 'grand@example.com'));
    const middle = await add({
      ...tree('Middle Tree', 'middle@example.com'),
      referringMemberId: grand.id,
    });
    const leafA = await add({
      ...tree('Leaf A', 'leafa@example.com'),
      referringMemberId: middle.id,
    });
    const leafB = await add({
      ...tree('Leaf B', 'leafb@example.com'),
      referringMemberId: middle.id,
    });
    expect((await get(grand.id)).branches).toBe(1);
    expect((await get(middle.id)).branches).toBe(2);

    await owner.delete(`/api/members/${middle.id}`).expect(204);
    await owner.get(`/api/members/${middle.id}`).expect(404);
    expect((await get(grand.id)).branches).toBe(0);
    expect((await get(leafA.id)).referringMemberId).toBeNull();
    expect((await get(leafB.id)).referringMemberId).toBeNull();
    await owner.delete(`/api/members/${middle.id}`).expect(404);
  });

  it('updates fields with the same rules, and keeps email keys unique', async () => {
    const member = await add(tree('Pat Doe', 'pat@example.com', 4000, 500));
    const updated = (
      await owner
        .patch(`/api/members/${member.id}`)
        .send({ memberName: ' Patricia Doe ', discountCents: 750 })
        .expect(200)
    ).body as MemberRow;
    expect(updated.memberName).toBe('Patricia Doe');
    expect(updated.discountCents).toBe(750);
    expect(updated.membershipPriceCents).toBe(4000);
    // Changing only the case/dots of its own email is fine.
    await owner
      .patch(`/api/members/${member.id}`)
      .send({ memberEmail: 'P.A.T@example.com' })
      .expect(200);
    await add(tree('Other Person', 'other@example.com'));
    const clash = await owner
      .patch(`/api/members/${member.id}`)
      .send({ memberEmail: 'oth.er@example.com' })
      .expect(409);
    expect(clash.body.message).toBe(MESSAGES.duplicateMember);
    const bad = await owner
      .patch(`/api/members/${member.id}`)
      .send({ membershipPriceCents: 12.34 })
      .expect(400);
    expect(bad.body.message).toBe(MESSAGES.invalidAmount);
  });

  it('refuses a duplicate email key in the business: jo.e@x.com vs joe@x.com → 409', async () => {
    await add(tree('Joe Bloggs', 'jo.e@x.com'));
    const reply = await owner.post('/api/members').send(tree('Joe Again', 'JOE@x.com')).expect(409);
    expect(reply.body).toEqual({ statusCode: 409, message: MESSAGES.duplicateMember });
    const root = await add(tree('Branch Host', 'host@x.com'));
    await owner
      .post(`/api/members/${root.id}/branches`)
      .send(tree('Joe Branch', 'j.o.e@x.com'))
      .expect(409);
    expect((await get(root.id)).branches).toBe(0);
  });

  describe('validation (docs/product.md#validation messages)', () => {
    it('takes real names (docs/product.md#validation-names): apostrophes, hyphens, accents, any script', async () => {
      const names = ["Siobhán O'Brien", 'Anne-Marie Dubois', "D'Arcy", 'Ben O’Connor', '王小明'];
      const added = [];
      for (const [index, name] of names.entries())
        added.push(await add(tree(name, `real.name.${index}@x.com`)));
      expect(added.map((member) => member.memberName)).toEqual(names);
      const renamed = await owner
        .patch(`/api/members/${added[0].id}`)
        .send({ memberName: 'Анна Петрова' })
        .expect(200);
      expect(renamed.body.memberName).toBe('Анна Петрова');
    });

    it.each([
      [{ memberName: 'R2D2' }, 'memberName', 'Not a valid name'],
      [{ memberName: 'Sam_Lee' }, 'memberName', 'Not a valid name'],
      [{ memberName: 'Sam\tLee' }, 'memberName', 'Not a valid name'],
      [{ memberName: 'a'.repeat(101) }, 'memberName', 'Not a valid name'],
      [{ memberName: '   ' }, 'memberName', 'Not a valid name'],
      [{ memberName: 42 }, 'memberName', 'Not a valid name'],
      [{ memberEmail: 'nope' }, 'memberEmail', 'Not a valid email address'],
      [{ memberEmail: 'sam@gym' }, 'memberEmail', 'Not a valid email address'],
      [{ membershipPriceCents: -100 }, 'membershipPriceCents', 'Not a valid amount'],
      [{ membershipPriceCents: 1055.5 }, 'membershipPriceCents', 'Not a valid amount'],
      [{ membershipPriceCents: 'ten' }, 'membershipPriceCents', 'Not a valid amount'],
      [{ membershipPriceCents: '1000' }, 'membershipPriceCents', 'Not a valid amount'],
      [{ membershipPriceCents: 100_000_001 }, 'membershipPriceCents', 'Not a valid amount'],
      [{ discountCents: 123.4 }, 'discountCents', 'Not a valid discount price'],
      [{ discountCents: -500 }, 'discountCents', 'Not a valid discount price'],
    ])('%p → 400 %s: %s', async (overrides, field, message) => {
      const reply = await owner
        .post('/api/members')
        .send({ ...tree('Valid Name', 'valid@example.com'), ...overrides })
        .expect(400);
      expect(reply.body).toEqual({ statusCode: 400, message, fieldErrors: { [field]: message } });
    });

    it('reports every missing field with its own message', async () => {
      const reply = await owner.post('/api/members').send({}).expect(400);
      expect(reply.body.fieldErrors).toEqual({
        memberName: MESSAGES.invalidName,
        memberEmail: MESSAGES.invalidEmail,
        membershipPriceCents: MESSAGES.invalidAmount,
        discountCents: MESSAGES.invalidDiscount,
      });
      expect(reply.body.message).toBe(MESSAGES.invalidName);
    });

    it('refuses unknown fields, and referringMemberId on the branches route', async () => {
      await owner
        .post('/api/members')
        .send({ ...tree('Valid Name', 'v1@example.com'), businessId })
        .expect(400);
      const root = await add(tree('Some Root', 'someroot@example.com'));
      await owner
        .post(`/api/members/${root.id}/branches`)
        .send({ ...tree('Valid Name', 'v2@example.com'), referringMemberId: root.id })
        .expect(400);
    });

    it('takes amounts as integer cents', async () => {
      const row = await add(tree('Numeric Amounts', 'numeric@example.com', 1995, 0));
      expect(row.membershipPriceCents).toBe(1995);
      expect(row.discountCents).toBe(0);
    });

    it('answers 404 for a referring member that does not exist', async () => {
      const reply = await owner
        .post('/api/members')
        .send({
          ...tree('Orphan Ref', 'orphanref@example.com'),
          referringMemberId: '00000000-0000-4000-8000-000000000000',
        })
        .expect(404);
      expect(reply.body.message).toBe(MESSAGES.memberNotFound);
      await owner.get('/api/members/not-a-uuid').expect(404);
    });
  });

  describe('Mindbody-managed members (docs/product.md#roles) → 409', () => {
    let managed: MemberRow;
    let branch: MemberRow;
    beforeAll(async () => {
      const [row] = (await t.dataSource.query(
        `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, mindbody_client_id)
         VALUES ($1, 'Mindy Body', 'mindy@example.com', 'mindy@examplecom', 12000, 1000, 'MB-1') RETURNING id`,
        [businessId],
      )) as { id: string }[];
      branch = await add(tree('Mindy Friend', 'mindyfriend@example.com'));
      // A branch of a Mindbody member counts once it is a Mindbody client itself (issue 22:
      // migration BranchesOfMindbodyMembers), as the sync makes it when it matches the friend.
      await t.dataSource.query(
        `UPDATE members SET referred_by_id = $1, mindbody_client_id = 'MB-2' WHERE id = $2`,
        [row.id, branch.id],
      );
      await t.dataSource.query(
        `INSERT INTO mindbody_integrations (business_id, stage, discount_on_referral_cents, discount_for_referee_cents)
         VALUES ($1, 4, 750, 0)`,
        [businessId],
      );
      managed = await get(row.id);
    });

    it("shows them as managed, at the unchanged membership price, with the integration's discountOnReferral (docs/product.md#constants)", async () => {
      expect(managed.managedByIntegration).toBe('Mindbody');
      expect(managed.branches).toBe(1);
      expect(managed.newPriceCents).toBe(12000);
      expect(managed.discountCents).toBe(750);
      const listed = (
        (await owner.get('/api/members?search=Mindy%20Body').expect(200)).body as Page<MemberRow>
      ).items;
      expect(listed.map((row) => [row.memberName, row.discountCents, row.newPriceCents])).toEqual([
        ['Mindy Body', 750, 12000],
      ]);
    });

    it('refuses every hand change', async () => {
      const expectLocked = (reply: { body: { message: string } }) =>
        expect(reply.body.message).toBe(MESSAGES.managedMemberLocked);
      expectLocked(
        await owner
          .post(`/api/members/${managed.id}/branches`)
          .send(tree('New Friend', 'nf@example.com'))
          .expect(409),
      );
      expectLocked(
        await owner
          .post('/api/members')
          .send({ ...tree('New Friend', 'nf@example.com'), referringMemberId: managed.id })
          .expect(409),
      );
      expectLocked(
        await owner.delete(`/api/members/${managed.id}/branches/${branch.id}`).expect(409),
      );
      expectLocked(
        await owner
          .patch(`/api/members/${managed.id}`)
          .send({ memberName: 'Changed Name' })
          .expect(409),
      );
      expectLocked(await owner.delete(`/api/members/${managed.id}`).expect(409));
      expect(await get(managed.id)).toEqual(managed);
      await owner
        .get('/api/members?search=nf@example')
        .expect(200)
        .expect((reply) => expect(reply.body.total).toBe(0));
    });
  });
});

describe('members list: pagination, sort, search (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  const names = [
    'Charlie Brown',
    'alice Cooper',
    'Bob Marley',
    'Dana Scully',
    'Eve Online',
    'frank Ocean',
    'Grace Hopper',
  ];
  const ids = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp();
    owner = (await t.signUp()).agent;
    for (const [index, name] of names.entries()) {
      const email = `${name.split(' ')[0].toLowerCase()}.${index}@Mail-${index % 2 ? 'odd' : 'even'}.com`;
      const reply = await owner
        .post('/api/members')
        .send(tree(name, email, 6000, 1000))
        .expect(201);
      ids.set(name, reply.body.id as string);
    }
    // Grace gets 2 branches, Bob 1.
    for (const [host, branches] of [
      ['Grace Hopper', ['Ha Ha', 'Ho Ho']],
      ['Bob Marley', ['Ziggy Marley']],
    ] as const) {
      for (const branchName of branches) {
        await owner
          .post(`/api/members/${ids.get(host)}/branches`)
          .send(tree(branchName, `${branchName.replace(' ', '').toLowerCase()}@x.com`))
          .expect(201);
      }
    }
  });
  afterAll(() => t.close());

  const list = async (query: string): Promise<Page<MemberRow>> =>
    (await owner.get(`/api/members${query}`).expect(200)).body as Page<MemberRow>;

  it('pages in creation order by default (page size 50)', async () => {
    const page = await list('');
    expect(page.total).toBe(10);
    expect(page.page).toBe(1);
    expect(page.pageSize).toBe(50);
    expect(page.items.slice(0, 7).map((row) => row.memberName)).toEqual(names);
  });

  it('pages with page and pageSize; pages do not overlap', async () => {
    const first = await list('?pageSize=4&page=1&sort=memberName');
    const second = await list('?pageSize=4&page=2&sort=memberName');
    const third = await list('?pageSize=4&page=3&sort=memberName');
    expect(first.items).toHaveLength(4);
    expect(third.items).toHaveLength(2);
    const all = [...first.items, ...second.items, ...third.items].map((row) => row.id);
    expect(new Set(all).size).toBe(10);
    expect((await list('?pageSize=4&page=9')).items).toEqual([]);
  });

  it('sorts by name case-insensitively, both directions', async () => {
    const asc = (await list('?sort=memberName&order=asc')).items.map((row) => row.memberName);
    expect(asc.slice(0, 3)).toEqual(['alice Cooper', 'Bob Marley', 'Charlie Brown']);
    const desc = (await list('?sort=memberName&order=desc')).items.map((row) => row.memberName);
    expect(desc).toEqual([...asc].reverse());
  });

  it('sorts by email and by branch count', async () => {
    const emails = (await list('?sort=memberEmail')).items.map((row) =>
      row.memberEmail.toLowerCase(),
    );
    expect(emails).toEqual([...emails].sort());
    const byBranches = (await list('?sort=branches&order=desc')).items;
    expect(byBranches.slice(0, 2).map((row) => [row.memberName, row.branches])).toEqual([
      ['Grace Hopper', 2],
      ['Bob Marley', 1],
    ]);
    expect(byBranches[0].branchDetails.map((branch) => branch.branchName)).toEqual([
      'Ha Ha',
      'Ho Ho',
    ]);
    expect(byBranches[0].newPriceCents).toBe(4000);
  });

  it('searches name or email, case-insensitive substring, with LIKE characters taken literally', async () => {
    expect((await list('?search=MARLEY')).items.map((row) => row.memberName).sort()).toEqual([
      'Bob Marley',
      'Ziggy Marley',
    ]);
    expect((await list('?search=mail-odd')).total).toBe(3);
    const oce = await list('?search=oce');
    expect(oce.items.map((row) => row.memberName)).toEqual(['frank Ocean']);
    expect(oce.total).toBe(1);
    expect((await list('?search=%25')).total).toBe(0);
    expect((await list('?search=_')).total).toBe(0);
  });

  it('sorts and pages the matches of a search, with every match counted', async () => {
    // "e" matches 7 of the 10 members (not Dana Scully, Ha Ha, Ho Ho): by branch count Grace (2)
    // and Bob (1) lead; by name descending the second page of 3 is Eve, Charlie, Bob.
    const first = await list('?search=e&sort=branches&order=desc&pageSize=2&page=1');
    expect(first.total).toBe(7);
    expect(first.items.map((row) => [row.memberName, row.branches])).toEqual([
      ['Grace Hopper', 2],
      ['Bob Marley', 1],
    ]);
    expect(first.items[0].branchDetails.map((branch) => branch.branchName)).toEqual([
      'Ha Ha',
      'Ho Ho',
    ]);
    const byName = await list('?search=e&sort=memberName&order=desc&pageSize=3&page=2');
    expect(byName.total).toBe(7);
    expect(byName.items.map((row) => row.memberName)).toEqual([
      'Eve Online',
      'Charlie Brown',
      'Bob Marley',
    ]);
  });

  it('refuses bad list parameters → 400', async () => {
    for (const query of [
      '?pageSize=101',
      '?pageSize=0',
      '?page=0',
      '?page=x',
      '?sort=price',
      '?order=up',
      '?extra=1',
    ]) {
      await owner.get(`/api/members${query}`).expect(400);
    }
  });
});

describe('tenant isolation (integration)', () => {
  let t: TestApp;
  let ownerA: TestAgent;
  let ownerB: TestAgent;
  let treeA: MemberRow;
  let branchA: MemberRow;
  let treeB: MemberRow;

  beforeAll(async () => {
    t = await createTestApp();
    ownerA = (await t.signUp()).agent;
    ownerB = (await t.signUp({ businessName: 'Other Gym' })).agent;
    treeA = (await ownerA.post('/api/members').send(tree('Alpha Tree', 'alpha@a.com')).expect(201))
      .body as MemberRow;
    branchA = (
      await ownerA
        .post(`/api/members/${treeA.id}/branches`)
        .send(tree('Alpha Branch', 'alphab@a.com'))
        .expect(201)
    ).body as MemberRow;
    treeB = (await ownerB.post('/api/members').send(tree('Beta Tree', 'beta@b.com')).expect(201))
      .body as MemberRow;
  });
  afterAll(() => t.close());

  it("B's list never shows A's rows", async () => {
    const page = (await ownerB.get('/api/members').expect(200)).body as Page<MemberRow>;
    expect(page.total).toBe(1);
    expect(page.items.map((row) => row.id)).toEqual([treeB.id]);
    expect(
      ((await ownerB.get('/api/members?search=alpha').expect(200)).body as Page<MemberRow>).total,
    ).toBe(0);
  });

  it("B gets 404 for every read and write of A's members, and A's data is untouched", async () => {
    const notFound = (reply: { body: { message: string } }) =>
      expect(reply.body.message).toBe(MESSAGES.memberNotFound);
    notFound(await ownerB.get(`/api/members/${treeA.id}`).expect(404));
    notFound(
      await ownerB
        .patch(`/api/members/${treeA.id}`)
        .send({ memberName: 'Hacked Name' })
        .expect(404),
    );
    notFound(await ownerB.delete(`/api/members/${treeA.id}`).expect(404));
    notFound(
      await ownerB
        .post(`/api/members/${treeA.id}/branches`)
        .send(tree('Sneaky Branch', 'sneaky@b.com'))
        .expect(404),
    );
    notFound(await ownerB.delete(`/api/members/${treeA.id}/branches/${branchA.id}`).expect(404));
    notFound(
      await ownerB
        .post('/api/members')
        .send({ ...tree('Sneaky Tree', 'sneaky2@b.com'), referringMemberId: treeA.id })
        .expect(404),
    );
    // B's own tree cannot adopt or detach A's member either.
    await ownerB.delete(`/api/members/${treeB.id}/branches/${branchA.id}`).expect(404);

    const a = (await ownerA.get(`/api/members/${treeA.id}`).expect(200)).body as MemberRow;
    expect(a.memberName).toBe('Alpha Tree');
    expect(a.branches).toBe(1);
    expect(((await ownerB.get('/api/members').expect(200)).body as Page<MemberRow>).total).toBe(1);
  });

  it('the same email may exist in two businesses', async () => {
    await ownerB.post('/api/members').send(tree('Alpha Twin', 'alpha@a.com')).expect(201);
  });
});

// A business too large for the in-memory search index is searched in SQL, which counts up to 500
// (the index's own path: member-search-index.integration-spec.ts).
describe('members search in SQL past its count cap (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  const quokka = (n: number) => `Quokka Member ${String(n).padStart(4, '0')}`;

  beforeAll(async () => {
    t = await createTestApp();
    const signedUp = await t.signUp();
    owner = signedUp.agent;
    const other = await t.signUp();
    // 520 quokkas added a minute apart (Quokka Member 0001 first) and 10 wombats in this business;
    // 600 quokkas in another one, which no count of this business may include.
    const insert = (businessId: string, prefix: string, count: number) =>
      t.dataSource.query(
        `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, created_at)
         SELECT $1, $2 || ' Member ' || lpad(n::text, 4, '0'), lower($2) || n || '@x.com', lower($2) || n || '@xcom',
                5000, 500, timestamptz '2026-01-01' + n * interval '1 minute'
         FROM generate_series(1, $3::int) AS n`,
        [businessId, prefix, count],
      );
    await insert(signedUp.user.business.id, 'Quokka', 520);
    await insert(signedUp.user.business.id, 'Wombat', 10);
    await insert(other.user.business.id, 'Quokka', 600);
    // 530 members is "too large" here: every search of this block goes to SQL.
    t.app.get(MemberSearchIndexes).maxMembers = 100;
  });
  afterAll(() => t.close());

  const list = async (query: string): Promise<Page<MemberRow>> =>
    (await owner.get(`/api/members${query}`).expect(200)).body as Page<MemberRow>;
  const names = (page: Page<MemberRow>) => page.items.map((row) => row.memberName);
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => quokka(from + i));

  it('counts up to 500 matches and says more match, with the right first page', async () => {
    const first = await list('?search=quokka');
    expect(first.total).toBe(500);
    expect(first.totalCapped).toBe(true);
    expect(names(first)).toEqual(range(1, 50));
    const byName = await list('?search=QUOKKA&sort=memberName&order=desc&pageSize=5');
    expect(byName.totalCapped).toBe(true);
    expect(names(byName)).toEqual(range(516, 520).reverse());
  });

  it('pages on past the cap: each page counts to its own end, the last one is exact', async () => {
    const tenth = await list('?search=quokka&page=10');
    expect(tenth).toMatchObject({ total: 500, totalCapped: true, page: 10 });
    expect(names(tenth)).toEqual(range(451, 500));
    const eleventh = await list('?search=quokka&page=11');
    expect(eleventh.total).toBe(520);
    expect(eleventh.totalCapped).toBeUndefined();
    expect(names(eleventh)).toEqual(range(501, 520));
    expect((await list('?search=quokka&page=12')).items).toEqual([]);
  });

  it('counts exactly below the cap, sorted by branch count, and for text without a three-letter word', async () => {
    const wombats = await list('?search=wombat');
    expect(wombats.total).toBe(10);
    expect(wombats.totalCapped).toBeUndefined();
    const byBranches = await list('?search=quokka&sort=branches&order=desc');
    expect(byBranches.total).toBe(520);
    expect(byBranches.totalCapped).toBeUndefined();
    // "ka m" has no word of three letters: no search key, every member is checked.
    const noKey = await list(`?search=${encodeURIComponent('ka m')}&pageSize=3`);
    expect(noKey).toMatchObject({ total: 500, totalCapped: true });
    expect(names(noKey)).toEqual(range(1, 3));
    expect((await list(`?search=${encodeURIComponent('0 me')}`)).total).toBe(0);
  });
});
