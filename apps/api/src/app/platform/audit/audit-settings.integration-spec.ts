import {
  DEFAULT_SHARE_MESSAGE,
  type AuditEntry,
  type AuditKind,
  type AuditLogPage,
} from '@grove/contracts';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';

jest.setTimeout(120_000);

/**
 * Issue 34 item 2 (docs/product.md#audit-log): every setting of Account Settings and the referral
 * links of a member are recorded with their author and what moved, before → after; a save that
 * changes nothing records nothing, and a refused one neither.
 */
describe('settings and referral links in the audit log (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('records each setting saved: which setting, by whom, only the fields that moved', async () => {
    const { agent, user } = await t.signUp({ firstName: 'Zoë', lastName: "D'Arcy-Nguyễn" });
    const log = async (): Promise<AuditEntry[]> =>
      (
        (await agent.get('/api/audit-log?kind=settings.changed&pageSize=100').expect(200))
          .body as AuditLogPage
      ).items;
    const saves: [string, string, object, object, object][] = [
      [
        '/api/settings/welcome-offer',
        'Welcome offer',
        { kind: 'amount', amountCents: 2_500, percent: null, months: 2, text: null },
        { kind: 'none', amountCents: null, months: null },
        { kind: 'amount', amountCents: 2_500, months: 2 },
      ],
      [
        '/api/settings/member-emails',
        'Emails to members',
        { friendJoined: true, branchCounting: false, branchEnded: true, welcome: false },
        { branchCounting: true, welcome: true },
        { branchCounting: false, welcome: false },
      ],
      [
        '/api/settings/share-message',
        'Message members share',
        { message: 'Train with me at {gym}: {link}' },
        { message: DEFAULT_SHARE_MESSAGE },
        { message: 'Train with me at {gym}: {link}' },
      ],
      [
        '/api/settings/branches',
        'When a branch counts',
        { rule: 'days', days: 30 },
        { rule: 'approval', days: null },
        { rule: 'days', days: 30 },
      ],
      [
        '/api/referral-links/settings',
        'Referral links for new members',
        // On for a new business: turned off.
        { autoCreate: false },
        { autoCreate: true },
        { autoCreate: false },
      ],
      [
        '/api/settings/referral-nudges',
        'Asking members to refer',
        { inviteAfterDays: 14, reminderAfterDays: 7, monthlySummary: true },
        { inviteAfterDays: null, reminderAfterDays: null, monthlySummary: false },
        { inviteAfterDays: 14, reminderAfterDays: 7, monthlySummary: true },
      ],
    ];
    for (const [url, setting, body, before, after] of saves) {
      await agent.put(url).send(body).expect(200);
      const [entry] = await log();
      expect([url, entry]).toEqual([
        url,
        expect.objectContaining({
          actor: 'staff',
          authorUserId: user.id,
          authorName: "Zoë D'Arcy-Nguyễn",
          memberId: null,
          before: { setting, ...before },
          after: { setting, ...after },
        }),
      ]);
      // The same save again moves nothing: nothing more is recorded.
      const count = (await log()).length;
      await agent.put(url).send(body).expect(200);
      expect(await log()).toHaveLength(count);
    }

    await agent
      .patch('/api/account')
      .send({ businessName: 'Ceol Fitness', phoneNumber: '+61 2 9374 4000' })
      .expect(200);
    const [account] = await log();
    expect(account.after).toMatchObject({
      setting: 'Account details',
      businessName: 'Ceol Fitness',
    });
    expect(account.before).toMatchObject({ setting: 'Account details' });
    expect(account.before?.businessName).not.toBe('Ceol Fitness');
    expect(Object.keys(account.after ?? {})).not.toContain('email');

    // A refused save records nothing.
    const count = (await log()).length;
    await agent.put('/api/settings/branches').send({ rule: 'days', days: 0 }).expect(400);
    await agent.put('/api/settings/share-message').send({ message: 'no link' }).expect(400);
    expect(await log()).toHaveLength(count);
  });

  it("records a member's referral link created, replaced and revoked, with the codes", async () => {
    const { agent } = await t.signUp({ firstName: 'Ana-Sofía', lastName: 'Ruiz' });
    // No link at once for a new member: the owner creates it.
    await agent.put('/api/referral-links/settings').send({ autoCreate: false }).expect(200);
    const member = (
      await agent.post('/api/members').send(treeBody('Tomás Ó Ceallaigh', 'tomas@example.com'))
    ).body as { id: string };
    const kinds = async (kind: AuditKind): Promise<AuditEntry[]> =>
      (
        (await agent.get(`/api/audit-log?kind=${kind}&memberId=${member.id}`).expect(200))
          .body as AuditLogPage
      ).items;
    const first = (await agent.post(`/api/members/${member.id}/referral-link`).expect(201)).body;
    // Asking again returns the live link: nothing new is recorded.
    await agent.post(`/api/members/${member.id}/referral-link`).expect(201);
    const created = await kinds('link.created');
    expect(created).toEqual([
      expect.objectContaining({
        memberName: 'Tomás Ó Ceallaigh',
        authorName: 'Ana-Sofía Ruiz',
        before: null,
        after: { code: first.code, expiresAt: null },
      }),
    ]);
    const second = (
      await agent
        .post(`/api/members/${member.id}/referral-link/rotate`)
        .send({ expiresInDays: 30 })
        .expect(201)
    ).body;
    const [rotated] = await kinds('link.rotated');
    expect(rotated).toMatchObject({
      before: { code: first.code },
      after: { code: second.code, expiresAt: second.expiresAt },
    });
    await agent.delete(`/api/members/${member.id}/referral-link`).expect(204);
    await agent.delete(`/api/members/${member.id}/referral-link`).expect(204);
    expect(await kinds('link.revoked')).toEqual([
      expect.objectContaining({ before: { code: second.code }, after: null }),
    ]);
  });
});
