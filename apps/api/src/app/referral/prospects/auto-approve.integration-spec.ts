import type TestAgent from 'supertest/lib/agent';
import {
  PROSPECT_SETTINGS_INVALID,
  type MemberRow,
  type Page,
  type ProspectRow,
  type ReferralLink,
} from '@grove/contracts';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';
import { waitFor } from '../../../../test/stub-servers';

/** Optional automatic approval of prospects who pass every fraud check (issue 15). */
describe('automatic approval of prospects (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let riley: MemberRow;
  let code: string;

  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_REFERRAL_LIMIT: '10000' });
    owner = (await t.signUp({ businessName: 'Green Valley Fitness' })).agent;
    other = (await t.signUp({ businessName: 'Other Gym' })).agent;
    riley = (
      await owner
        .post('/api/members')
        .send(treeBody('Riley Referrer', 'riley@greenvalley.com.au', 8000, 1250))
        .expect(201)
    ).body as MemberRow;
    code = (
      (await owner.post(`/api/members/${riley.id}/referral-link`).expect(201)).body as ReferralLink
    ).code;
  });
  afterAll(() => t.close());

  const join = (name: string, email: string) =>
    t.agent().post(`/api/referrals/${code}/join`).send({ name, email }).expect(201);
  const prospects = async (): Promise<ProspectRow[]> =>
    ((await owner.get('/api/prospects?pageSize=100').expect(200)).body as Page<ProspectRow>).items;
  const branches = async () =>
    ((await owner.get(`/api/members/${riley.id}`).expect(200)).body as MemberRow).branchDetails;

  it('is off by default, needs a session, and refuses a bad body with its message', async () => {
    expect((await owner.get('/api/settings/prospects').expect(200)).body).toEqual({
      autoApprove: false,
    });
    await t.agent().get('/api/settings/prospects').expect(401);
    await t.agent().put('/api/settings/prospects').send({ autoApprove: true }).expect(401);
    for (const body of [{ autoApprove: 'yes' }, {}, { autoApprove: 1 }]) {
      const reply = await owner.put('/api/settings/prospects').send(body).expect(400);
      expect(reply.body.message).toBe(PROSPECT_SETTINGS_INVALID);
    }
    expect((await owner.get('/api/settings/prospects').expect(200)).body).toEqual({
      autoApprove: false,
    });
  });

  it('off: a clean join waits for the owner', async () => {
    await join('Ola Waiting', 'ola.waiting@gmail.com');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await prospects()).map((row) => row.email)).toContain('ola.waiting@gmail.com');
    expect(await branches()).toEqual([]);
  });

  it("tenant isolation: turning it on in another business leaves this one's off", async () => {
    await other.put('/api/settings/prospects').send({ autoApprove: true }).expect(200);
    expect((await other.get('/api/settings/prospects').expect(200)).body).toEqual({
      autoApprove: true,
    });
    expect((await owner.get('/api/settings/prospects').expect(200)).body).toEqual({
      autoApprove: false,
    });
  });

  it("on: a clean join becomes the referrer's branch at the referrer's price and discount; a flagged one still waits", async () => {
    await owner.put('/api/settings/prospects').send({ autoApprove: true }).expect(200);
    await join('Cleo Clean', 'cleo.clean@gmail.com');
    await join('Toby Throwaway', 'toby@mailinator.com');
    const cleo = await waitFor(async () =>
      (await branches()).find((branch) => branch.branchEmail === 'cleo.clean@gmail.com'),
    );
    const member = (await owner.get(`/api/members/${cleo.id}`).expect(200)).body as MemberRow;
    expect(member).toMatchObject({
      memberName: 'Cleo Clean',
      referringMemberId: riley.id,
      membershipPriceCents: 8000,
      discountCents: 1250,
    });
    const waiting = await prospects();
    expect(waiting.map((row) => row.email)).not.toContain('cleo.clean@gmail.com');
    expect(waiting.find((row) => row.email === 'toby@mailinator.com')?.flags).toEqual([
      'disposable_email',
    ]);
    expect((await branches()).map((branch) => branch.branchEmail)).toEqual([
      'cleo.clean@gmail.com',
    ]);
  });
});
