import { ERASED_MEMBER_NAME, type AuditLogPage } from '@grove/contracts';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';

/**
 * Erasure reaches the append-only audit log (issue 34 item 4, docs/decisions/audit-log-append-only.md
 * "Erasure") on PostgreSQL: an erased member's name and email leave every entry of its business,
 * the entries themselves (kinds, times, authors, prices) stay, another business's entries are
 * untouched, and the log still refuses every other change.
 */
describe('erasure in the audit log (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Every audit entry of a business as JSON text, as an auditor reading the table would. */
  const rawLog = async (businessId: string): Promise<string> =>
    JSON.stringify(
      await t.dataSource.query(
        `SELECT row_to_json(a) AS row FROM audit_log a WHERE business_id = $1 ORDER BY at`,
        [businessId],
      ),
    );

  it("leaves no name or email of the erased referrer in the log, keeps what happened, and touches no other business's log", async () => {
    const gym = await t.signUp();
    const siobhan = await gym.agent
      .post('/api/members')
      .send(treeBody("Siobhán O'Brien", 'siobhan.obrien@example.ie', 12_000, 1_500))
      .expect(201);
    await gym.agent
      .patch(`/api/members/${siobhan.body.id}`)
      .send({ memberEmail: 'siobhan@obrien.example.ie', membershipPriceCents: 13_000 })
      .expect(200);
    const zoe = await gym.agent
      .post(`/api/members/${siobhan.body.id}/branches`)
      .send(treeBody("Zoë D'Arcy-Nguyễn", 'zoe@example.fr', 9_000, 1_000))
      .expect(201);
    // Zoë leaves Siobhán's branches: her 'branch.removed' entry names her former referrer.
    await gym.agent
      .delete(`/api/members/${siobhan.body.id}/branches/${zoe.body.id}`)
      .expect((reply) => expect(reply.status).toBeLessThan(300));
    // Another gym has a member of the same name: its log is its own.
    const other = await t.signUp();
    await other.agent
      .post('/api/members')
      .send(treeBody("Siobhán O'Brien", 'siobhan.obrien@example.ie', 8_000, 1_000))
      .expect(201);
    const otherBefore = await rawLog(other.user.business.id);
    const before = (await gym.agent.get('/api/audit-log?pageSize=50').expect(200))
      .body as AuditLogPage;
    expect(await rawLog(gym.user.business.id)).toContain('siobhan.obrien@example.ie');

    await gym.agent.post(`/api/members/${siobhan.body.id}/erase`).expect(204);

    const log = await rawLog(gym.user.business.id);
    expect(log).not.toMatch(/Siobhán|siobhan/i);
    const after = (await gym.agent.get('/api/audit-log?pageSize=50').expect(200))
      .body as AuditLogPage;
    // The same entries, in the same order, by the same author, with the same prices.
    expect(after.items.map((entry) => [entry.id, entry.kind, entry.at, entry.authorName])).toEqual(
      before.items.map((entry) => [entry.id, entry.kind, entry.at, entry.authorName]),
    );
    const price = after.items.find((entry) => entry.kind === 'member.price_changed');
    expect(price).toMatchObject({
      memberId: siobhan.body.id,
      memberName: ERASED_MEMBER_NAME,
      before: { membershipPriceCents: 12_000 },
      after: { membershipPriceCents: 13_000 },
    });
    const details = after.items.find((entry) => entry.kind === 'member.updated');
    expect(details).toMatchObject({
      before: { email: ERASED_MEMBER_NAME },
      after: { email: ERASED_MEMBER_NAME },
    });
    // Zoë's own entry keeps her name; the referrer it names is erased.
    const removed = after.items.find(
      (entry) => entry.kind === 'branch.removed' && entry.memberId === zoe.body.id,
    );
    expect(removed).toMatchObject({
      memberName: "Zoë D'Arcy-Nguyễn",
      before: { referrer: ERASED_MEMBER_NAME },
    });
    expect(await rawLog(other.user.business.id)).toBe(otherBefore);
  });

  it('still refuses any other change to an entry, even in a business with an erased member', async () => {
    const gym = await t.signUp();
    const ana = await gym.agent
      .post('/api/members')
      .send(treeBody('Ana-Sofía Pérez', 'ana@example.es', 10_000, 1_500))
      .expect(201);
    await gym.agent.patch(`/api/members/${ana.body.id}`).send({ membershipPriceCents: 11_000 });
    await gym.agent.post(`/api/members/${ana.body.id}/erase`).expect(204);
    const business = gym.user.business.id;

    for (const change of [
      `after = '{"membershipPriceCents": 1}'::jsonb`,
      `member_name = 'Someone else'`,
      `kind = 'member.created'`,
      `at = at - interval '3 years'`,
    ])
      await expect(
        t.dataSource.query(`UPDATE audit_log SET ${change} WHERE business_id = $1`, [business]),
      ).rejects.toMatchObject({ driverError: { code: '42501' } });
    // A name cannot be blanked where nobody was erased.
    const untouched = await t.signUp();
    await untouched.agent
      .post('/api/members')
      .send(treeBody('Marco Bianchi', 'marco@example.it', 9_000, 1_000))
      .expect(201);
    await expect(
      t.dataSource.query(
        `UPDATE audit_log SET member_name = $2 WHERE business_id = $1 AND member_name IS NOT NULL`,
        [untouched.user.business.id, ERASED_MEMBER_NAME],
      ),
    ).rejects.toMatchObject({ driverError: { code: '42501' } });
  });
});
