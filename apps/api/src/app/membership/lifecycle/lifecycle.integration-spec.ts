import type TestAgent from 'supertest/lib/agent';
import type { MemberRow, ProspectRow, Page, ReferralLink } from '@grove/contracts';
import { autoLinksOff, createTestApp, type TestApp } from '../../../../test/test-app';
import { jobScope } from '../../platform/database/business-scope';
import { LifecycleService } from './lifecycle.service';
import {
  expectLedgersChained,
  factsOf,
  ledgerOf,
  type FactRow,
} from '../../../../test/lifecycle-facts';

const member = (
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

const kinds = (facts: FactRow[]): string[] => facts.map((fact) => fact.kind);

describe('lifecycle facts and the price ledger, recorded by the owner flows (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;
  let other: TestAgent;
  let otherBusinessId: string;
  /** Ids this test created in the owner's business (members, links, prospects). */
  const ownerIds = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_REFERRAL_LIMIT: '10000' });
    const signed = await t.signUp();
    owner = signed.agent;
    businessId = signed.user.business.id;
    const second = await t.signUp({ businessName: 'Other Gym' });
    other = second.agent;
    otherBusinessId = second.user.business.id;
    // The facts of each owner flow alone: links only when a test creates one.
    await autoLinksOff(owner);
    await autoLinksOff(other);
  });
  afterAll(() => t.close());

  const add = async (agent: TestAgent, body: object, treeId?: string): Promise<MemberRow> => {
    const path = treeId ? `/api/members/${treeId}/branches` : '/api/members';
    const row = (await agent.post(path).send(body).expect(201)).body as MemberRow;
    if (agent === owner) ownerIds.add(row.id);
    return row;
  };
  const newFacts = async (since: number) => (await factsOf(t, businessId)).slice(since);
  const linkId = async (code: string): Promise<string> => {
    const [row] = (await t.dataSource.query(`SELECT id FROM referral_links WHERE code = $1`, [
      code,
    ])) as { id: string }[];
    ownerIds.add(row.id);
    return row.id;
  };
  const join = (code: string, name: string, email: string) =>
    t.agent().post(`/api/referrals/${code}/join`).send({ name, email }).expect(201);
  const prospects = async (): Promise<ProspectRow[]> =>
    ((await owner.get('/api/prospects').expect(200)).body as Page<ProspectRow>).items;

  let tree: MemberRow;
  let branch: MemberRow;
  let link: ReferralLink;

  it('a new tree: member_added (manual) and the first ledger line at its price', async () => {
    tree = await add(owner, member('Tara Tree', 'tara@x.com', 10_000, 1500));
    expect(await factsOf(t, businessId)).toEqual([
      {
        kind: 'member_added',
        member_id: tree.id,
        referrer_id: null,
        referral_link_id: null,
        prospect_id: null,
        source: 'manual',
        event_key: `member_added:${tree.id}`,
      },
    ]);
    expect(await ledgerOf(t, businessId, tree.id)).toEqual([
      {
        reason: 'member_added',
        old_price_cents: null,
        new_price_cents: 10_000,
        membership_price_cents: 10_000,
        branch_id: null,
      },
    ]);
  });

  it('add branch: member_added and branch_added; the tree pays one discount less', async () => {
    branch = await add(owner, member('Ben Branch', 'ben@x.com', 8000, 1000), tree.id);
    expect(await newFacts(1)).toEqual([
      expect.objectContaining({ kind: 'member_added', member_id: branch.id, source: 'manual' }),
      expect.objectContaining({
        kind: 'branch_added',
        member_id: branch.id,
        referrer_id: tree.id,
        source: 'manual',
        event_key: `branch_added:${branch.id}`,
      }),
    ]);
    expect((await ledgerOf(t, businessId, tree.id))[1]).toEqual({
      reason: 'branch_added',
      old_price_cents: 10_000,
      new_price_cents: 8_500,
      membership_price_cents: 10_000,
      branch_id: branch.id,
    });
    expect(await ledgerOf(t, businessId, branch.id)).toEqual([
      expect.objectContaining({
        reason: 'member_added',
        old_price_cents: null,
        new_price_cents: 8_000,
      }),
    ]);
  });

  it('links: created once (a second create returns the live link), rotated, revoked, created again', async () => {
    const before = (await factsOf(t, businessId)).length;
    const first = (await owner.post(`/api/members/${tree.id}/referral-link`).expect(201))
      .body as ReferralLink;
    await owner.post(`/api/members/${tree.id}/referral-link`).expect(201);
    const rotated = (await owner.post(`/api/members/${tree.id}/referral-link/rotate`).expect(201))
      .body as ReferralLink;
    await owner.delete(`/api/members/${tree.id}/referral-link`).expect(204);
    await owner.delete(`/api/members/${tree.id}/referral-link`).expect(204);
    link = (await owner.post(`/api/members/${tree.id}/referral-link`).expect(201))
      .body as ReferralLink;
    const [firstId, rotatedId, lastId] = [
      await linkId(first.code),
      await linkId(rotated.code),
      await linkId(link.code),
    ];
    expect(
      (await newFacts(before)).map((fact) => [fact.kind, fact.referral_link_id, fact.member_id]),
    ).toEqual([
      ['link_created', firstId, tree.id],
      ['link_rotated', rotatedId, tree.id],
      ['link_revoked', rotatedId, tree.id],
      ['link_created', lastId, tree.id],
    ]);
  });

  it('the join page counts its openings per link and day, once per visitor, and nothing for a dead code', async () => {
    // Three openings from one client are one visit (issue 24 part 6).
    for (let i = 0; i < 3; i++) await t.agent().get(`/api/referrals/${link.code}`).expect(200);
    await t
      .agent()
      .get(`/api/referrals/${'x'.repeat(16)}`)
      .expect(404);
    const rows = (await t.dataSource.query(
      `SELECT business_id, referral_link_id, day = (now() AT TIME ZONE 'UTC')::date AS today, visits
       FROM join_page_visits`,
    )) as { business_id: string; referral_link_id: string; today: boolean; visits: number }[];
    expect(rows).toEqual([
      {
        business_id: businessId,
        referral_link_id: await linkId(link.code),
        today: true,
        visits: 1,
      },
    ]);
  });

  it('a friend joining is one prospect_joined, not repeated by a second join; flagged joins record nothing', async () => {
    const before = (await factsOf(t, businessId)).length;
    await join(link.code, 'Fay Friend', 'fay@x.com');
    await join(link.code, 'Fay Friend', 'FAY@x.com');
    await join(link.code, 'Ben Again', 'ben@x.com'); // already a member: flagged
    await join(link.code, 'Tara Self', 'tara@x.com'); // the referrer's own: flagged
    const [fay] = await prospects();
    ownerIds.add(fay.id);
    expect(await newFacts(before)).toEqual([
      {
        kind: 'prospect_joined',
        member_id: null,
        referrer_id: tree.id,
        referral_link_id: await linkId(link.code),
        prospect_id: fay.id,
        source: null,
        event_key: `prospect_joined:${fay.id}`,
      },
    ]);
  });

  it('approve: prospect_approved, member_added and branch_added (approval), the tree pays less; a second approve adds nothing', async () => {
    const [fay] = await prospects();
    const before = (await factsOf(t, businessId)).length;
    const body = member('Fay Friend', 'fay@x.com', 9000, 500);
    const approved = (await owner.post(`/api/prospects/${fay.id}/approve`).send(body).expect(201))
      .body as MemberRow;
    ownerIds.add(approved.id);
    await owner.post(`/api/prospects/${fay.id}/approve`).send(body).expect(404);
    expect(await newFacts(before)).toEqual([
      expect.objectContaining({ kind: 'member_added', member_id: approved.id, source: 'approval' }),
      expect.objectContaining({
        kind: 'branch_added',
        member_id: approved.id,
        referrer_id: tree.id,
        source: 'approval',
      }),
      {
        kind: 'prospect_approved',
        member_id: approved.id,
        referrer_id: tree.id,
        referral_link_id: null,
        prospect_id: fay.id,
        source: 'approval',
        event_key: `prospect_approved:${fay.id}`,
      },
    ]);
    expect((await ledgerOf(t, businessId, tree.id)).at(-1)).toEqual({
      reason: 'branch_added',
      old_price_cents: 8_500,
      new_price_cents: 7_000,
      membership_price_cents: 10_000,
      branch_id: approved.id,
    });
    expect(await ledgerOf(t, businessId, approved.id)).toEqual([
      expect.objectContaining({ reason: 'member_added', new_price_cents: 9_000 }),
    ]);
  });

  it('remove prospect: prospect_removed once', async () => {
    await join(link.code, 'Gus Gone', 'gus@x.com');
    const [gus] = await prospects();
    ownerIds.add(gus.id);
    const before = (await factsOf(t, businessId)).length;
    await owner.delete(`/api/prospects/${gus.id}`).expect(204);
    await owner.delete(`/api/prospects/${gus.id}`).expect(404);
    expect(await newFacts(before)).toEqual([
      expect.objectContaining({
        kind: 'prospect_removed',
        prospect_id: gus.id,
        referrer_id: tree.id,
        event_key: `prospect_removed:${gus.id}`,
      }),
    ]);
  });

  it('edits: a discount on a member without branches moves no price; on the tree and its price it does', async () => {
    const linesBefore = (await ledgerOf(t, businessId, branch.id)).length;
    await owner.patch(`/api/members/${branch.id}`).send({ discountCents: 3000 }).expect(200);
    expect(await ledgerOf(t, businessId, branch.id)).toHaveLength(linesBefore);
    // A name edit moves nothing either.
    await owner.patch(`/api/members/${tree.id}`).send({ memberName: 'Tara T' }).expect(200);
    await owner.patch(`/api/members/${tree.id}`).send({ discountCents: 2000 }).expect(200);
    await owner.patch(`/api/members/${tree.id}`).send({ membershipPriceCents: 12_000 }).expect(200);
    await owner.patch(`/api/members/${tree.id}`).send({ membershipPriceCents: 12_000 }).expect(200);
    expect((await ledgerOf(t, businessId, tree.id)).slice(-2)).toEqual([
      {
        reason: 'discount_changed',
        old_price_cents: 7_000,
        new_price_cents: 6_000,
        membership_price_cents: 10_000,
        branch_id: null,
      },
      {
        reason: 'membership_price_changed',
        old_price_cents: 6_000,
        new_price_cents: 8_000,
        membership_price_cents: 12_000,
        branch_id: null,
      },
    ]);
  });

  it('remove branch: branch_removed and the tree pays one discount more', async () => {
    const tara = (await owner.get(`/api/members/${tree.id}`).expect(200)).body as MemberRow;
    const fayId = tara.branchDetails.find((detail) => detail.branchEmail === 'fay@x.com')?.id;
    const before = (await factsOf(t, businessId)).length;
    await owner.delete(`/api/members/${tree.id}/branches/${fayId}`).expect(204);
    await owner.delete(`/api/members/${tree.id}/branches/${fayId}`).expect(404);
    expect(await newFacts(before)).toEqual([
      expect.objectContaining({ kind: 'branch_removed', member_id: fayId, referrer_id: tree.id }),
    ]);
    expect((await ledgerOf(t, businessId, tree.id)).at(-1)).toEqual({
      reason: 'branch_removed',
      old_price_cents: 8_000,
      new_price_cents: 10_000,
      membership_price_cents: 12_000,
      branch_id: fayId,
    });
  });

  it('remove tree: member_ended, branch_removed from its tree and for its own branches; its ledger ends at 0', async () => {
    const leaf = await add(owner, member('Lou Leaf', 'lou@x.com', 5000, 500), branch.id);
    const before = (await factsOf(t, businessId)).length;
    await owner.delete(`/api/members/${branch.id}`).expect(204);
    await owner.delete(`/api/members/${branch.id}`).expect(404);
    const facts = await newFacts(before);
    expect(facts.map((fact) => [fact.kind, fact.member_id, fact.referrer_id])).toEqual([
      ['branch_removed', branch.id, tree.id],
      ['branch_removed', leaf.id, branch.id],
      ['member_ended', branch.id, tree.id],
    ]);
    expect(facts[2]?.event_key).toMatch(
      new RegExp(`^member_ended:${branch.id}:\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`),
    );
    expect((await ledgerOf(t, businessId, tree.id)).at(-1)).toEqual({
      reason: 'branch_removed',
      old_price_cents: 10_000,
      new_price_cents: 12_000,
      membership_price_cents: 12_000,
      branch_id: branch.id,
    });
    // Ben paid 80 − 30 × 1 (Lou) = 50 until he was removed.
    expect((await ledgerOf(t, businessId, branch.id)).slice(-2)).toEqual([
      expect.objectContaining({
        reason: 'branch_added',
        old_price_cents: 8_000,
        new_price_cents: 5_000,
      }),
      {
        reason: 'membership_ended',
        old_price_cents: 5_000,
        new_price_cents: 0,
        membership_price_cents: 8_000,
        branch_id: null,
      },
    ]);
  });

  it('concurrent approvals and add-branches on one tree write a consistent ledger (each old price is the line before)', async () => {
    const hub = await add(owner, member('Hub Tree', 'hub@x.com', 30_000, 700));
    const hubLink = (await owner.post(`/api/members/${hub.id}/referral-link`).expect(201))
      .body as ReferralLink;
    await linkId(hubLink.code);
    for (let i = 0; i < 6; i++)
      await join(hubLink.code, `Pal ${'ABCDEF'.charAt(i)}`, `pal${i}@x.com`);
    const pals = (await prospects()).filter((row) => row.referringMemberId === hub.id);
    await Promise.all([
      ...pals.map((pal) =>
        owner
          .post(`/api/prospects/${pal.id}/approve`)
          .send(member(pal.name, pal.email, 4000, 100))
          .expect(201),
      ),
      ...[0, 1, 2, 3].map((i) =>
        add(owner, member(`Kid ${'ABCD'.charAt(i)}`, `kid${i}@x.com`), hub.id),
      ),
    ]);
    const lines = await ledgerOf(t, businessId, hub.id);
    expect(lines.map((line) => line.new_price_cents)).toEqual(
      Array.from({ length: 11 }, (_, branches) => 30_000 - 700 * branches),
    );
    expect(await expectLedgersChained(t, businessId)).toBeGreaterThan(20);
  });

  it('another business: its facts and ledger carry only its own ids; it cannot approve or remove ours', async () => {
    const theirs = await add(other, member('Ola Other', 'ola@x.com'));
    await add(other, member('Oli Other', 'oli@x.com'), theirs.id);
    const theirLink = (await other.post(`/api/members/${theirs.id}/referral-link`).expect(201))
      .body as ReferralLink;
    await join(theirLink.code, 'Pia Pal', 'pia@x.com');
    await join(link.code, 'Quin Queued', 'quin@x.com');
    const quin = (await prospects()).find((row) => row.email === 'quin@x.com');
    if (!quin) throw new Error('Quin was not queued');
    ownerIds.add(quin.id);
    const ourFacts = (await factsOf(t, businessId)).length;
    await other.post(`/api/prospects/${quin.id}/approve`).send(member('Q', 'q@x.com')).expect(404);
    await other.delete(`/api/prospects/${quin.id}`).expect(404);
    await other.delete(`/api/members/${tree.id}`).expect(404);
    await other.patch(`/api/members/${tree.id}`).send({ discountCents: 100 }).expect(404);
    await other.delete(`/api/members/${tree.id}/referral-link`).expect(404);
    expect(await factsOf(t, businessId)).toHaveLength(ourFacts);

    const theirFacts = await factsOf(t, otherBusinessId);
    expect(kinds(theirFacts)).toEqual([
      'member_added',
      'member_added',
      'branch_added',
      'link_created',
      'prospect_joined',
    ]);
    const theirIds = theirFacts.flatMap((fact) =>
      [fact.member_id, fact.referrer_id, fact.referral_link_id, fact.prospect_id].filter(
        (id): id is string => id !== null,
      ),
    );
    expect(theirIds.filter((id) => ownerIds.has(id))).toEqual([]);
    const theirLedgerMembers = (await t.dataSource.query(
      `SELECT DISTINCT member_id FROM price_changes WHERE business_id = $1`,
      [otherBusinessId],
    )) as { member_id: string }[];
    expect(theirLedgerMembers.filter((row) => ownerIds.has(row.member_id))).toEqual([]);
    expect(theirLedgerMembers).toHaveLength(2);
    const visits = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM join_page_visits WHERE business_id = $1`,
      [otherBusinessId],
    )) as { n: number }[];
    expect(visits[0]?.n).toBe(0);
  });

  it("the service writes only the scope's business: another business's member gets no ledger line, and facts land in the scope", async () => {
    const lifecycle = t.app.get(LifecycleService);
    const theirs = await add(other, member('Val Visitor', 'val@x.com', 6000, 600));
    const ours = jobScope({ businessId });
    const theirLines = (await ledgerOf(t, otherBusinessId, theirs.id)).length;
    // Their price moves behind the API's back, so their ledger is one line behind.
    await t.dataSource.query(`UPDATE members SET membership_price_cents = 7000 WHERE id = $1`, [
      theirs.id,
    ]);
    const cause = { reason: 'membership_price_changed' as const, cause: 'behind-the-back' };
    expect(await lifecycle.recordEffectivePrices(ours, [theirs.id], cause)).toBe(0);
    expect(await ledgerOf(t, otherBusinessId, theirs.id)).toHaveLength(theirLines);
    expect(await ledgerOf(t, businessId, theirs.id)).toEqual([]);
    // In their own scope the same call writes their line.
    const theirScope = jobScope({ businessId: otherBusinessId });
    expect(await lifecycle.recordEffectivePrices(theirScope, [theirs.id], cause)).toBe(1);
    expect((await ledgerOf(t, otherBusinessId, theirs.id)).at(-1)).toEqual(
      expect.objectContaining({ old_price_cents: 6_000, new_price_cents: 7_000 }),
    );
    const key = `member_added:${theirs.id}`;
    expect(await lifecycle.recordFacts(ours, [{ kind: 'member_added', eventKey: key }])).toBe(1);
    expect(await lifecycle.recordFacts(ours, [{ kind: 'member_added', eventKey: key }])).toBe(0);
    const holders = (await t.dataSource.query(
      `SELECT business_id FROM lifecycle_facts WHERE event_key = $1 ORDER BY business_id = $2`,
      [key, otherBusinessId],
    )) as { business_id: string }[];
    // The same key in two businesses is two facts, each its own business's.
    expect(holders.map((row) => row.business_id)).toEqual([businessId, otherBusinessId]);
    await t.dataSource.query(
      `DELETE FROM lifecycle_facts WHERE business_id = $1 AND event_key = $2`,
      [businessId, key],
    );
  });

  it('every event key is recorded once and every ledger stays a chain', async () => {
    const duplicated = (await t.dataSource.query(
      `SELECT event_key FROM lifecycle_facts GROUP BY business_id, event_key HAVING count(*) > 1`,
    )) as unknown[];
    expect(duplicated).toEqual([]);
    await expectLedgersChained(t, businessId);
    await expectLedgersChained(t, otherBusinessId);
  });
});
