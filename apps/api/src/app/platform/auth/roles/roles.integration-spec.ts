import { randomUUID } from 'node:crypto';
import type TestAgent from 'supertest/lib/agent';
import {
  FRONT_DESK_PRICE_MESSAGE,
  OWN_NAME_ONLY_MESSAGE,
  STAFF_ROLES,
  roleRefusedMessage,
  type MemberRow,
  type Page,
  type ProspectRow,
  type ReferralLink,
  type StaffRole,
} from '@grove/contracts';
import { createTestApp, treeBody, type TestApp } from '../../../../../test/test-app';
import { businessRows } from '../../../../../test/route-walk';
import { servedRoutes, type ServedRoute } from '../../../../../test/served-routes';
import { waitFor } from '../../../../../test/stub-servers';
import { hashPassword } from '../auth-tokens';
import { ROLE_TABLE, roleRuleFor } from './role-table';

jest.setTimeout(240_000);

/** The business's member defaults (cents): front desk adds at exactly these. */
const DEFAULTS = { membershipPriceCents: 9000, discountCents: 1200 };

/**
 * Issue 34 item 1: every signed-in route the app serves is in the role table, and is called as
 * every role: a role the table allows is not refused (no 401/403, no 500), a role it does not
 * allow gets 403 with the role's message and the business's rows stay byte-identical.
 */
describe('the role table on every route (integration)', () => {
  let t: TestApp;
  let businessId: string;
  const agents = {} as Record<StaffRole, TestAgent>;
  /** Real ids of the business, for refused calls (a leak through the guard would show). */
  const ids = { tree: '', branch: '', prospect: '', link: '' };
  let emails = 0;

  /** Adds a member of staff with `role` straight in the database and signs them in. */
  async function staff(role: StaffRole, firstName: string): Promise<TestAgent> {
    const email = `${role}.${process.pid}@greenvalley.com.au`;
    const password = 'staff password long enough';
    await t.dataSource.query(
      `INSERT INTO users (business_id, email, first_name, last_name, password_hash, role)
       VALUES ($1, $2, $3, 'Ó Dálaigh', $4, $5)`,
      [businessId, email, firstName, await hashPassword(password), role],
    );
    const agent = t.agent();
    await agent.post('/api/auth/login').send({ email, password }).expect(200);
    return agent;
  }

  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_DISABLED: 'true' });
    const owner = await t.signUp({ firstName: 'Zoë', lastName: "O'Neil" });
    businessId = owner.user.business.id;
    agents.owner = owner.agent;
    await owner.agent.put('/api/settings/member-defaults').send(DEFAULTS).expect(200);
    const tree = (await owner.agent.post('/api/members').send(treeBody('Ann Lee', 'ann@x.com')))
      .body as MemberRow;
    ids.tree = tree.id;
    ids.branch = (
      (
        await owner.agent
          .post(`/api/members/${tree.id}/branches`)
          .send(treeBody('Bo Chan', 'bo@x.com'))
          .expect(201)
      ).body as MemberRow
    ).id;
    const link = (
      await owner.agent.post(`/api/members/${tree.id}/referral-link`).send({}).expect(201)
    ).body as ReferralLink;
    ids.link = link.code;
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: 'Chloé Friend', email: 'chloe@x.com' })
      .expect(201);
    // The join's follow-up email is written by a job: let it settle before any snapshot.
    await waitFor(async () => {
      const rows = (await t.dataSource.query(
        `SELECT 1 FROM member_emails WHERE business_id = $1 AND status <> 'queued'`,
        [businessId],
      )) as unknown[];
      return rows.length > 0;
    });
    const prospects = (await owner.agent.get('/api/prospects').expect(200))
      .body as Page<ProspectRow>;
    ids.prospect = prospects.items[0].id;
    agents.manager = await staff('manager', 'Mánus');
    agents.front_desk = await staff('front_desk', 'Renée');
    agents.viewer = await staff('viewer', "D'Arcy");
  });
  afterAll(() => t.close());

  /** A path with its parameters filled: real ids, or (`fresh`) unknown uuids. */
  function urlOf(path: string, fresh: boolean): string {
    return path.replace(/\{(\w+)\}/g, (_all, name: string) => {
      if (fresh) return randomUUID();
      if (name === 'branchId') return ids.branch;
      if (name === 'memberId') return ids.tree;
      if (path.startsWith('/api/members/')) return ids.tree;
      if (path.startsWith('/api/prospects/{id}')) return ids.prospect;
      return randomUUID();
    });
  }

  /** A body that would write something were the call let through. */
  function bodyOf(route: ServedRoute): object {
    emails += 1;
    const member = {
      memberName: 'Éva Núñez',
      memberEmail: `eva${emails}@x.com`,
      ...DEFAULTS,
    };
    if (route.path === '/api/members' || route.path.endsWith('/branches')) return member;
    if (route.path === '/api/prospects/{id}/approve') return member;
    if (route.method === 'PATCH' && route.path === '/api/members/{id}')
      return { memberName: 'Ann Lee-Smith' };
    if (route.path === '/api/settings/member-defaults') return DEFAULTS;
    if (route.path === '/api/settings/share-message')
      return { message: 'Join me at {gym}: {link}' };
    if (route.path === '/api/getting-started') return { dismissed: true };
    return {};
  }

  async function call(role: StaffRole, route: ServedRoute, fresh: boolean) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const request = agents[role][method](urlOf(route.path, fresh));
    return route.method === 'GET' || route.method === 'DELETE'
      ? request
      : request.send(bodyOf(route));
  }

  it('lists every signed-in route the app serves, and only those', () => {
    const signedIn = servedRoutes(t.app).filter((route) => !route.isPublic);
    expect(signedIn.length).toBeGreaterThan(60);
    const missing = signedIn
      .filter((route) => !roleRuleFor(route.method, route.path))
      .map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
    const served = new Set(signedIn.map((route) => `${route.method} ${route.path}`));
    expect(
      ROLE_TABLE.map((rule) => `${rule.method} ${rule.path}`).filter((key) => !served.has(key)),
    ).toEqual([]);
  });

  /** The signed-in routes a role is called on (HEAD is GET's). */
  const callable = () =>
    servedRoutes(t.app).filter((route) => !route.isPublic && route.method !== 'HEAD');

  it('refuses each role the table does not allow: 403 with its message, nothing written', async () => {
    // Every refused call first: no allowed call (and no job it starts) writes in between.
    const outcomes: string[] = [];
    for (const route of callable()) {
      const rule = roleRuleFor(route.method, route.path);
      const refused = STAFF_ROLES.filter((role) => !rule?.roles.includes(role));
      if (refused.length === 0) continue;
      const before = await businessRows(t.dataSource, businessId);
      for (const role of refused) {
        const reply = await call(role, route, false);
        if (reply.status !== 403 || reply.body.message !== roleRefusedMessage(role))
          outcomes.push(`${role} ${route.method} ${route.path}: ${reply.status}, not 403`);
      }
      const after = await businessRows(t.dataSource, businessId);
      if (JSON.stringify(after) !== JSON.stringify(before))
        outcomes.push(`${route.method} ${route.path}: a refused call wrote`);
    }
    expect(outcomes).toEqual([]);
  });

  it('lets each role the table allows through (no 401, 403 or 500)', async () => {
    const outcomes: string[] = [];
    for (const route of callable()) {
      for (const role of roleRuleFor(route.method, route.path)?.roles ?? []) {
        // Writes go to unknown ids, so later routes still find the fixtures.
        const reply = await call(role, route, route.method !== 'GET');
        if ([401, 403, 500].includes(reply.status))
          outcomes.push(
            `${role} ${route.method} ${route.path}: ${reply.status} ${JSON.stringify(reply.body)}`,
          );
      }
    }
    expect(outcomes).toEqual([]);
  });

  describe('front desk', () => {
    const memberCount = async () =>
      ((await agents.owner.get('/api/members?pageSize=100').expect(200)).body as Page<MemberRow>)
        .total;

    it('adds a member at the default price and discount, and is refused (403, nothing added) at any other', async () => {
      const before = await memberCount();
      const refused = await agents.front_desk
        .post('/api/members')
        .send(treeBody('Fiadh Ní Bhriain', 'fiadh@x.com', 9500, 1200))
        .expect(403);
      expect(refused.body.message).toBe(FRONT_DESK_PRICE_MESSAGE);
      await agents.front_desk
        .post(`/api/members/${ids.tree}/branches`)
        .send(treeBody('Fiadh Ní Bhriain', 'fiadh@x.com', 9000, 0))
        .expect(403);
      // An approval starts from the referrer's price and discount (10,000 and 1,500): no other.
      await agents.front_desk
        .post(`/api/prospects/${ids.prospect}/approve`)
        .send(treeBody('Chloé Friend', 'chloe@x.com', 9000, 1200))
        .expect(403);
      expect(await memberCount()).toBe(before);
      await agents.front_desk
        .post('/api/members')
        .send(treeBody('Fiadh Ní Bhriain', 'fiadh@x.com', 9000, 1200))
        .expect(201);
      expect(await memberCount()).toBe(before + 1);
    });

    it("approves a friend at the referrer's price and discount", async () => {
      const prospects = (await agents.front_desk.get('/api/prospects').expect(200))
        .body as Page<ProspectRow>;
      const friend = prospects.items.find((row) => row.id === ids.prospect);
      expect(friend?.approvalPrefill).toEqual({
        membershipPriceCents: 10_000,
        discountCents: 1500,
      });
      await agents.front_desk
        .post(`/api/prospects/${ids.prospect}/approve`)
        .send(treeBody('Chloé Friend', 'chloe@x.com', 10_000, 1500))
        .expect(201);
    });

    it("changes a member's name but not their price or discount", async () => {
      const refused = await agents.front_desk
        .patch(`/api/members/${ids.tree}`)
        .send({ memberName: 'Ann Lee', membershipPriceCents: 1 })
        .expect(403);
      expect(refused.body.message).toBe(FRONT_DESK_PRICE_MESSAGE);
      const member = (await agents.owner.get(`/api/members/${ids.tree}`).expect(200))
        .body as MemberRow;
      expect(member.membershipPriceCents).toBe(10_000);
      await agents.front_desk
        .patch(`/api/members/${ids.tree}`)
        .send({
          memberName: "Ann O'Lee",
          membershipPriceCents: member.membershipPriceCents,
          discountCents: member.discountCents,
        })
        .expect(200);
    });

    it("changes their own name but not the business's details", async () => {
      const refused = await agents.front_desk
        .patch('/api/account')
        .send({ firstName: 'Renée', businessName: 'Front Desk Gym' })
        .expect(403);
      expect(refused.body.message).toBe(OWN_NAME_ONLY_MESSAGE);
      await agents.front_desk.patch('/api/account').send({ firstName: 'Renée-Claire' }).expect(200);
      const me = await agents.front_desk.get('/api/auth/me').expect(200);
      expect(me.body).toMatchObject({ firstName: 'Renée-Claire', role: 'front_desk' });
      expect(me.body.business.name).toBe('Green Valley Fitness');
    });
  });

  it('tells each member of staff their role (GET /api/auth/me)', async () => {
    for (const role of STAFF_ROLES) {
      const me = await agents[role].get('/api/auth/me').expect(200);
      expect(me.body.role).toBe(role);
    }
  });
});
