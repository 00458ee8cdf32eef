import { AUDIT_MESSAGES, MESSAGES, type AuditEntry, type AuditLogPage } from '@grove/contracts';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';
import { AuditRetention } from './audit-retention';

jest.setTimeout(120_000);

/**
 * The audit log (issue 34 item 2, docs/product.md#audit-log) on PostgreSQL: a change and its entry
 * in one transaction with the author's name, filters, newest first, the CSV, each business's log
 * its own, bad input refused with nothing changed, and append-only (no UPDATE, no DELETE but the
 * prune of entries past the business's retention).
 */
describe('the audit log (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const count = async (): Promise<number> => {
    const [{ n }] = (await t.dataSource.query(`SELECT count(*)::int AS n FROM audit_log`)) as [
      { n: number },
    ];
    return n;
  };

  it("records each change with its author's name, newest first, filtered by member, kind and period, and as CSV", async () => {
    const { agent, user } = await t.signUp({ firstName: 'Siobhán', lastName: "O'Brien" });
    const zoe = await agent
      .post('/api/members')
      .send(treeBody("Zoë D'Arcy-Nguyễn", 'zoe@example.com', 10_000, 1_500))
      .expect(201);
    await agent
      .patch(`/api/members/${zoe.body.id}`)
      .send({ membershipPriceCents: 12_000 })
      .expect(200);
    await agent
      .post(`/api/members/${zoe.body.id}/branches`)
      .send(treeBody('Ana-Sofía Pérez', 'ana@example.com'))
      .expect(201);
    await agent
      .put('/api/settings/member-defaults')
      .send({ discountCents: 2_000, membershipPriceCents: 9_900 })
      .expect(200);

    const page = (await agent.get('/api/audit-log').expect(200)).body as AuditLogPage;
    // Each new member's automatic referral link is recorded in the member's own transaction.
    expect(page.items.map((entry) => entry.kind)).toEqual([
      'settings.changed',
      'link.created',
      'branch.added',
      'member.price_changed',
      'link.created',
      'member.created',
    ]);
    expect(page.items.every((entry) => entry.authorName === "Siobhán O'Brien")).toBe(true);
    expect(page.items.every((entry) => entry.authorUserId === user.id)).toBe(true);
    const price = page.items[3] as AuditEntry;
    expect(price).toMatchObject({
      memberId: zoe.body.id,
      memberName: "Zoë D'Arcy-Nguyễn",
      before: { membershipPriceCents: 10_000 },
      after: { membershipPriceCents: 12_000 },
    });
    expect(page.items[0]?.after).toMatchObject({
      setting: 'Defaults for new members',
      discountCents: 2_000,
      membershipPriceCents: 9_900,
    });

    const zoes = (await agent.get(`/api/audit-log?memberId=${zoe.body.id}`).expect(200))
      .body as AuditLogPage;
    expect(zoes.items.map((entry) => entry.kind)).toEqual([
      'member.price_changed',
      'link.created',
      'member.created',
    ]);
    const kinds = (await agent.get('/api/audit-log?kind=branch.added').expect(200)).body;
    expect(kinds.total).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    expect((await agent.get(`/api/audit-log?from=${today}&to=${today}`)).body.total).toBe(6);
    expect((await agent.get('/api/audit-log?from=2020-01-01&to=2020-12-31')).body.total).toBe(0);
    expect((await agent.get(`/api/audit-log?author=${user.id}&pageSize=1`)).body).toMatchObject({
      total: 6,
      pageSize: 1,
    });
    expect((await agent.get('/api/audit-log/authors').expect(200)).body).toEqual([
      { id: user.id, name: "Siobhán O'Brien" },
    ]);

    const csv = await agent.get('/api/audit-log/export').expect(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('When,Who,What,Member,Before,After');
    expect(lines).toHaveLength(7);
    expect(lines[4]).toContain('Price or discount changed');
    expect(lines[4]).toContain('membershipPriceCents: 10000');
  });

  it("shows each business only its own log: another business's member, author or CSV finds nothing", async () => {
    const a = await t.signUp({ firstName: 'Renée', lastName: 'Lévesque' });
    const b = await t.signUp({ firstName: 'Kwame', lastName: 'Mensah' });
    const member = await a.agent
      .post('/api/members')
      .send(treeBody('Ngozi Okafor', 'ngozi@example.com'))
      .expect(201);
    const bPage = (await b.agent.get('/api/audit-log').expect(200)).body as AuditLogPage;
    expect(bPage.items).toEqual([]);
    expect((await b.agent.get(`/api/audit-log?memberId=${member.body.id}`)).body.total).toBe(0);
    expect((await b.agent.get(`/api/audit-log?author=${a.user.id}`)).body.total).toBe(0);
    expect((await b.agent.get('/api/audit-log/authors')).body).toEqual([]);
    const csv = await b.agent.get('/api/audit-log/export').expect(200);
    expect(csv.text).not.toContain('Ngozi');
    // B's retention change is B's alone.
    await b.agent.put('/api/audit-log/retention').send({ days: 90 }).expect(200);
    expect((await a.agent.get('/api/audit-log/retention')).body).toEqual({ days: 730 });
    expect((await b.agent.get('/api/audit-log/retention')).body).toEqual({ days: 90 });
    expect((await a.agent.get('/api/audit-log')).body.items.map((e: AuditEntry) => e.kind)).toEqual(
      ['link.created', 'member.created'],
    );
  });

  it('refuses bad filters, pages and retention with a clear 400 and changes nothing', async () => {
    const { agent } = await t.signUp({ firstName: 'Ana-Sofía', lastName: 'Ruiz' });
    const refused: [string, string][] = [
      ['/api/audit-log?kind=member.hacked', MESSAGES.memberFilterInvalid],
      ['/api/audit-log?memberId=not-a-uuid', MESSAGES.memberFilterInvalid],
      ['/api/audit-log?author=robert%27);DROP', MESSAGES.memberFilterInvalid],
      ['/api/audit-log?from=29/11/2026', AUDIT_MESSAGES.dateInvalid],
      ['/api/audit-log?from=2026-02-30', AUDIT_MESSAGES.dateInvalid],
      ['/api/audit-log?from=2026-05-02&to=2026-05-01', AUDIT_MESSAGES.periodInvalid],
      ['/api/audit-log?pageSize=101', MESSAGES.pageSizeInvalid],
      ['/api/audit-log?page=0', MESSAGES.pageInvalid],
      ['/api/audit-log/export?to=tomorrow', AUDIT_MESSAGES.dateInvalid],
    ];
    for (const [url, message] of refused) {
      const reply = await agent.get(url);
      expect([url, reply.status, reply.body.message]).toEqual([url, 400, message]);
    }
    const before = await count();
    for (const days of [29, 3651, 1.5, '90', null]) {
      const reply = await agent.put('/api/audit-log/retention').send({ days });
      expect([days, reply.status, reply.body.message]).toEqual([
        days,
        400,
        AUDIT_MESSAGES.retentionInvalid,
      ]);
    }
    expect((await agent.get('/api/audit-log/retention')).body).toEqual({ days: 730 });
    expect(await count()).toBe(before);
  });

  it('is append-only: an UPDATE or DELETE is refused; the prune deletes only entries past their business retention', async () => {
    const { agent, user } = await t.signUp({ firstName: 'Aoife', lastName: 'Ní Bhriain' });
    await agent.post('/api/members').send(treeBody('Tomás Ó Ceallaigh', 'tomas@example.com'));
    await agent.put('/api/audit-log/retention').send({ days: 30 }).expect(200);
    const mine = `business_id = '${user.business.id}'`;
    await expect(
      t.dataSource.query(`UPDATE audit_log SET kind = 'member.removed' WHERE ${mine}`),
    ).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(t.dataSource.query(`DELETE FROM audit_log WHERE ${mine}`)).rejects.toThrow(
      /append-only: DELETE refused/,
    );
    await expect(t.dataSource.query(`TRUNCATE audit_log`)).rejects.toThrow(/append-only/);
    // An entry from 31 days ago (as an old one would be) and today's.
    await t.dataSource.query(
      `INSERT INTO audit_log (business_id, at, actor, kind) VALUES ($1, now() - interval '31 days', 'system', 'import.run')`,
      [user.business.id],
    );
    const entries = async () =>
      (
        (await t.dataSource.query(`SELECT kind FROM audit_log WHERE ${mine} ORDER BY at`)) as {
          kind: string;
        }[]
      ).map((row) => row.kind);
    expect(await entries()).toEqual([
      'import.run',
      'member.created',
      'link.created',
      'settings.changed',
    ]);
    expect(await t.app.get(AuditRetention).prune()).toBeGreaterThanOrEqual(1);
    expect(await entries()).toEqual(['member.created', 'link.created', 'settings.changed']);
    // A business deleted takes its log with it.
    await t.dataSource.query(`DELETE FROM businesses WHERE id = $1`, [user.business.id]);
    expect(await entries()).toEqual([]);
  });
});
