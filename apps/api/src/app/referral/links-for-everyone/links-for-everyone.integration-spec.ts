import type {
  AuditEntry,
  AuditLogPage,
  MemberRow,
  ProspectRow,
  ReferralLinkRun,
  ReferralLinkSettings,
} from '@grove/contracts';
import { runUntilDone } from '../../../../test/background-run';
import { JobsService } from '../../platform/jobs/jobs.service';
import { autoLinksOff, createTestApp, type TestApp } from '../../../../test/test-app';
import {
  sandboxEnv,
  sandboxLogin,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../test/mindbody-sandbox';

jest.setTimeout(180_000);

/** Members of the large business: more than one run's batch many times over. */
const LARGE = 10_000;
/** Clients of the Mindbody sandbox. */
const CLIENTS = 40;

const person = (name: string, email: string) => ({
  memberName: name,
  memberEmail: email,
  membershipPriceCents: 5000,
  discountCents: 500,
});

describe('links for everyone (integration)', () => {
  let sandbox: RunningSandbox;
  let t: TestApp;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: CLIENTS, webhookAttempts: 1 });
    t = await createTestApp(sandboxEnv(sandbox));
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  /** Inserts `count` members of a business directly (as an import would), names `<prefix> n`. */
  async function seedMembers(businessId: string, prefix: string, count: number): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, created_at)
       SELECT $1, $2 || ' ' || n, $2 || n || '@seed.example', $2 || n || '@seed.example', 5000, 500,
         now() - interval '1 day' + n * interval '1 millisecond'
       FROM generate_series(1, $3) AS n`,
      [businessId, prefix, count],
    );
  }

  /** Live links of a business, and of one member when given. */
  async function liveLinks(businessId: string, memberId?: string): Promise<number> {
    const [row] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM referral_links
       WHERE business_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
         AND ($2::uuid IS NULL OR member_id = $2)`,
      [businessId, memberId ?? null],
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  async function linkFacts(businessId: string): Promise<number> {
    const [row] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM lifecycle_facts WHERE business_id = $1 AND kind = 'link_created'`,
      [businessId],
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  /** The business's 'link.created' audit entries (the newest `pageSize`) and how many in all. */
  async function linkEntries(
    agent: { get(url: string): { expect(status: number): Promise<{ body: unknown }> } },
    memberId?: string,
  ): Promise<{ items: AuditEntry[]; total: number }> {
    const member = memberId ? `&memberId=${memberId}` : '';
    return (await agent.get(`/api/audit-log?kind=link.created&pageSize=100${member}`).expect(200))
      .body as AuditLogPage;
  }

  it('creates a link for every member without one in one request, with progress, and a second click creates nothing', async () => {
    const { agent, user } = await t.signUp();
    const businessId = user.business.id;
    const other = await t.signUp();
    await seedMembers(businessId, 'Bulk', LARGE);
    await seedMembers(other.user.business.id, 'Elsewhere', 30);
    const [first, second] = (await t.dataSource.query(
      `SELECT id FROM members WHERE business_id = $1 ORDER BY created_at LIMIT 2`,
      [businessId],
    )) as { id: string }[];
    // One member already has a live link (kept), one only an expired one (replaced).
    const kept = (await agent.post(`/api/members/${first?.id}/referral-link`).send({}).expect(201))
      .body as { code: string };
    await agent.post(`/api/members/${second?.id}/referral-link`).send({}).expect(201);
    await t.dataSource.query(
      `UPDATE referral_links SET expires_at = now() - interval '1 minute' WHERE member_id = $1`,
      [second?.id],
    );
    const factsBefore = await linkFacts(businessId);

    const before = (await agent.get('/api/referral-links/all').expect(200)).body as ReferralLinkRun;
    expect(before).toEqual({
      status: 'idle',
      total: 0,
      processed: 0,
      created: 0,
      withoutLink: LARGE - 1,
    });
    const started = (await agent.post('/api/referral-links/all').expect(202))
      .body as ReferralLinkRun;
    expect(started.total).toBe(LARGE - 1);
    expect(['running', 'done']).toContain(started.status);
    // A click while it runs starts nothing new.
    await agent.post('/api/referral-links/all').expect(202);

    const done = await runUntilDone<ReferralLinkRun>(agent, '/api/referral-links/all');
    expect(done).toEqual({
      status: 'done',
      total: LARGE - 1,
      processed: LARGE - 1,
      created: LARGE - 1,
      withoutLink: 0,
    });
    expect(await liveLinks(businessId)).toBe(LARGE);
    expect(await linkFacts(businessId)).toBe(factsBefore + LARGE - 1);
    // Each link the run created is in the audit log, authored by the owner who clicked (issue 34).
    const audited = await linkEntries(agent);
    expect(audited.total).toBe(2 + LARGE - 1);
    expect(audited.items[0]).toMatchObject({
      actor: 'staff',
      authorUserId: user.id,
      after: { code: expect.any(String), expiresAt: null, source: 'all_members' },
    });
    expect(audited.items[0]?.memberName).toMatch(/^Bulk \d+$/);
    const [keptRow] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM referral_links WHERE code = $1 AND revoked_at IS NULL`,
      [kept.code],
    )) as { n: number }[];
    expect(keptRow?.n).toBe(1);
    // Every member has exactly one unrevoked link (the unique live-link index would refuse two).
    const [dupes] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM (SELECT member_id FROM referral_links WHERE business_id = $1
         AND revoked_at IS NULL GROUP BY member_id HAVING count(*) > 1) d`,
      [businessId],
    )) as { n: number }[];
    expect(dupes?.n).toBe(0);

    const again = (await agent.post('/api/referral-links/all').expect(202)).body as ReferralLinkRun;
    expect(again).toEqual({ status: 'done', total: 0, processed: 0, created: 0, withoutLink: 0 });
    expect(await liveLinks(businessId)).toBe(LARGE);
    expect(await linkFacts(businessId)).toBe(factsBefore + LARGE - 1);
    expect((await linkEntries(agent)).total).toBe(2 + LARGE - 1);

    // The other business was not touched and sees none of this run.
    expect(await liveLinks(other.user.business.id)).toBe(0);
    expect((await other.agent.get('/api/referral-links/all').expect(200)).body).toEqual({
      status: 'idle',
      total: 0,
      processed: 0,
      created: 0,
      withoutLink: 30,
    });
    expect((await linkEntries(other.agent)).total).toBe(0);
  });

  it('a run silent for 15 minutes shows as stopped early and a click finishes it; one still recording batches is left alone (issue 31)', async () => {
    const { agent, user } = await t.signUp();
    const businessId = user.business.id;
    await seedMembers(businessId, 'Ó Briain', 40);
    // A run that started an hour ago and recorded a batch a minute ago: alive, however long.
    await t.dataSource.query(
      `INSERT INTO referral_link_runs (business_id, status, total, processed, started_at, heartbeat_at)
       VALUES ($1, 'running', 40, 10, now() - interval '1 hour', now() - interval '1 minute')`,
      [businessId],
    );
    expect(
      ((await agent.get('/api/referral-links/all').expect(200)).body as ReferralLinkRun).status,
    ).toBe('running');
    await agent.post('/api/referral-links/all').expect(202);
    expect((await agent.get('/api/referral-links/all').expect(200)).body).toMatchObject({
      status: 'running',
      processed: 10,
    });
    expect(await liveLinks(businessId)).toBe(0);

    // Its job died for good (a deploy on its last attempt): 16 minutes without a sign of life.
    await t.dataSource.query(
      `UPDATE referral_link_runs SET heartbeat_at = now() - interval '16 minutes' WHERE business_id = $1`,
      [businessId],
    );
    const lost = (await agent.get('/api/referral-links/all').expect(200)).body as ReferralLinkRun;
    expect(lost).toMatchObject({ status: 'failed', total: 40, processed: 10 });
    await agent.post('/api/referral-links/all').expect(202);
    const done = await runUntilDone<ReferralLinkRun>(agent, '/api/referral-links/all');
    expect(done).toMatchObject({ status: 'done', total: 40, created: 40, withoutLink: 0 });
  });

  it('records no run whose job could not be queued: the click answers 503 and the next one runs (issue 31)', async () => {
    const { agent, user } = await t.signUp();
    await seedMembers(user.business.id, 'Zoë', 12);
    const jobs = t.app.get(JobsService);
    const refuse = jest
      .spyOn(jobs, 'send')
      .mockRejectedValueOnce(new Error('timeout exceeded when trying to connect'));
    try {
      await agent.post('/api/referral-links/all').expect(503);
    } finally {
      refuse.mockRestore();
    }
    expect((await agent.get('/api/referral-links/all').expect(200)).body).toMatchObject({
      status: 'idle',
      withoutLink: 12,
    });
    await agent.post('/api/referral-links/all').expect(202);
    const done = await runUntilDone<ReferralLinkRun>(agent, '/api/referral-links/all');
    expect(done).toMatchObject({ status: 'done', created: 12, withoutLink: 0 });
  });

  it('needs a session for every new route, and refuses a malformed setting with a 400 that changes nothing', async () => {
    await t.agent().get('/api/referral-links/all').expect(401);
    await t.agent().post('/api/referral-links/all').expect(401);
    await t.agent().get('/api/referral-links/settings').expect(401);
    await t.agent().put('/api/referral-links/settings').send({ autoCreate: true }).expect(401);
    const { agent } = await t.signUp();
    for (const body of [{ autoCreate: 'yes' }, {}, { autoCreate: false, extra: 1 }])
      await agent.put('/api/referral-links/settings').send(body).expect(400);
    // On for a new business (issue 25), and still on after the refused bodies.
    expect((await agent.get('/api/referral-links/settings').expect(200)).body).toEqual({
      autoCreate: true,
    });
  });

  it('is on for a new business: its first member gets a link at once, so the welcome can hold it (issue 25)', async () => {
    const { agent, user } = await t.signUp({ businessName: 'Café Montréal' });
    const first = (
      await agent.post('/api/members').send(person("Siobhán O'Brien", 'siobhan@x.com')).expect(201)
    ).body as MemberRow;
    expect(await liveLinks(user.business.id, first.id)).toBe(1);
    expect(await linkFacts(user.business.id)).toBe(1);
  });

  it('the setting is per business: turning it off for one leaves the other on', async () => {
    const one = await t.signUp();
    const two = await t.signUp();
    const reply = await one.agent
      .put('/api/referral-links/settings')
      .send({ autoCreate: false })
      .expect(200);
    expect(reply.body as ReferralLinkSettings).toEqual({ autoCreate: false });
    expect((await two.agent.get('/api/referral-links/settings').expect(200)).body).toEqual({
      autoCreate: true,
    });
    const off = (
      await one.agent.post('/api/members').send(person('Off Member', 'off@x.com')).expect(201)
    ).body as MemberRow;
    expect(await liveLinks(one.user.business.id, off.id)).toBe(0);
    const on = (
      await two.agent.post('/api/members').send(person('On Member', 'on@x.com')).expect(201)
    ).body as MemberRow;
    expect(await liveLinks(two.user.business.id, on.id)).toBe(1);
  });

  it('with the setting on, a member added by hand, a branch, and an approved prospect each get a link at once', async () => {
    const { agent, user } = await t.signUp();
    const businessId = user.business.id;
    // A member from while it was off, then turned on.
    await autoLinksOff(agent);
    const before = (
      await agent.post('/api/members').send(person('Early Bird', 'early@x.com')).expect(201)
    ).body as MemberRow;
    await agent.put('/api/referral-links/settings').send({ autoCreate: true }).expect(200);
    expect(await liveLinks(businessId, before.id)).toBe(0);

    const tree = (
      await agent.post('/api/members').send(person('Tree Owner', 'tree@x.com')).expect(201)
    ).body as MemberRow;
    expect(await liveLinks(businessId, tree.id)).toBe(1);
    const branch = (
      await agent
        .post(`/api/members/${tree.id}/branches`)
        .send(person('New Branch', 'branch@x.com'))
        .expect(201)
    ).body as MemberRow;
    expect(await liveLinks(businessId, branch.id)).toBe(1);

    const link = (await agent.post(`/api/members/${tree.id}/referral-link`).send({}).expect(201))
      .body as { code: string };
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .send({ name: 'Pat Friend', email: 'pat@x.com' })
      .expect(201);
    const [prospect] = (
      (await agent.get('/api/prospects').expect(200)).body as { items: ProspectRow[] }
    ).items;
    const approved = (
      await agent
        .post(`/api/prospects/${prospect?.id}/approve`)
        .send(person('Pat Friend', 'pat@x.com'))
        .expect(201)
    ).body as MemberRow;
    expect(await liveLinks(businessId, approved.id)).toBe(1);
    expect(await liveLinks(businessId, before.id)).toBe(0);
    expect(await linkFacts(businessId)).toBe(3);
    // Each automatic link is in the member's history, authored by who added the member.
    for (const member of [tree, branch, approved])
      expect((await linkEntries(agent, member.id)).items).toEqual([
        expect.objectContaining({
          authorUserId: user.id,
          memberName: member.memberName,
          after: { code: expect.any(String), expiresAt: null, source: 'automatic' },
        }),
      ]);
    expect((await linkEntries(agent, before.id)).items).toEqual([]);
  });

  it('with the setting on, every member a Mindbody import adds gets a link; members from before keep having none', async () => {
    const { agent, user } = await t.signUp();
    const businessId = user.business.id;
    await autoLinksOff(agent);
    const before = (
      await agent.post('/api/members').send(person('Hand Added', 'hand.added@x.com')).expect(201)
    ).body as MemberRow;
    await agent.put('/api/referral-links/settings').send({ autoCreate: true }).expect(200);
    await agent.post('/api/mindbody/credentials').send(sandboxLogin(sandbox)).expect(200);
    await agent.post('/api/mindbody/import').expect(202);
    expect((await settled(agent)).processState).toMatch(/^completed /);
    const [imported] = (await t.dataSource.query(
      `SELECT count(*)::int AS n,
         count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM referral_links l
           WHERE l.member_id = m.id AND l.revoked_at IS NULL))::int AS without_link
       FROM members m WHERE m.business_id = $1 AND m.mindbody_client_id IS NOT NULL`,
      [businessId],
    )) as { n: number; without_link: number }[];
    expect(imported?.n).toBeGreaterThan(10);
    expect(imported?.without_link).toBe(0);
    // The import's links are audited, authored by the owner who started it.
    const audited = await linkEntries(agent);
    expect(audited.total).toBe(imported?.n);
    expect(
      new Set(audited.items.map((entry) => [entry.authorUserId, entry.after?.source].join())),
    ).toEqual(new Set([`${user.id},automatic`]));
    expect(await liveLinks(businessId, before.id)).toBe(0);
  });
});
