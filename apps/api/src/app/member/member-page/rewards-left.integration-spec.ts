import type TestAgent from 'supertest/lib/agent';
import {
  DEFAULT_REFERRER_REWARD,
  type MemberPage,
  type MemberRow,
  type ReferrerReward,
} from '@grove/contracts';
import { recipient, type SmtpCatcher } from '@grove/testing-smtp';
import { treeBody, type TestApp } from '../../../../test/test-app';
import { createMailTestApp } from '../../../../test/member-mail';
import { waitFor } from '../../../../test/stub-servers';

/**
 * The member page says what is left under the business's most friends rewarded a year (issue 33
 * item 2, docs/product.md#referrer-reward), in the member's words, in the JSON page and the HTML
 * one: a one-off credit counts the rewards owed this calendar year at the gym (its time zone), not the
 * capped ones; the ongoing discount its rewarded branches; nothing without a cap. The referrer
 * emails that state the reward say the same line (`ReferrerRewardService.rewardsLeft`).
 */
describe('the member page: rewards left under the cap (integration)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  let owner: TestAgent;
  let member: TestAgent;
  let siobhan: MemberRow;

  const setReward = (reward: Partial<ReferrerReward>) =>
    owner
      .put('/api/settings/referrer-reward')
      .send({ ...DEFAULT_REFERRER_REWARD, ...reward })
      .expect(200);
  const addBranch = (name: string, email: string) =>
    owner.post(`/api/members/${siobhan.id}/branches`).send(treeBody(name, email)).expect(201);
  /** The page as JSON and as HTML: its `rewardsLeft` and the HTML's line. */
  const shown = async () => {
    const page = (await member.get('/api/member/me').expect(200)).body as MemberPage;
    const html = (await member.get('/member').expect(200)).text;
    const line = /<p class="g-muted" data-testid="rewards-left">([^<]*)<\/p>/.exec(html)?.[1];
    return { json: page.rewardsLeft, html: line ?? null };
  };

  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp());
    owner = (await t.signUp({ businessName: "O'Brien's Boxing & Fitness" })).agent;
    siobhan = (
      await owner
        .post('/api/members')
        .send(treeBody("Siobhán O'Brien", 'siobhan@example.com'))
        .expect(201)
    ).body as MemberRow;
    const before = smtp.emails.length;
    await t.agent().post('/api/member/magic-link').send({ email: 'siobhan@example.com' });
    const mail = await waitFor(async () =>
      smtp.emails.slice(before).find((entry) => recipient(entry) === 'siobhan@example.com'),
    );
    const token = /\/member#token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
    member = t.agent();
    await member.post('/api/member/session').send({ token }).expect(204);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('says nothing while the business sets no cap', async () => {
    await setReward({ kind: 'credit', creditCents: 2_500 });
    await addBranch('Ana-Sofía Pérez', 'ana-sofia@example.com');
    expect(await shown()).toEqual({ json: null, html: null });
  });

  it('a $25 credit with three friends a year: 2 of 3 left after one friend, 0 of 3 past the cap', async () => {
    await setReward({ kind: 'credit', creditCents: 2_500, maxBranchesPerYear: 3 });
    expect(await shown()).toEqual({
      json: '2 of 3 rewards left this year',
      html: '2 of 3 rewards left this year.',
    });
    await addBranch('Zoë D’Arcy-Nguyễn', 'zoe@example.com');
    await addBranch('Ben O’Connor', 'ben@example.com');
    await addBranch('Kenji Watanabe', 'kenji@example.com'); // the fourth: counts, capped
    expect(await shown()).toEqual({
      json: '0 of 3 rewards left this year',
      html: '0 of 3 rewards left this year.',
    });
  });

  it("counts the gym's year: a reward owed at 23:30 on 31 December in Honolulu is last year's", async () => {
    // 23:30 on 31 December in Honolulu (UTC−10) is 09:30 on 1 January in UTC: this year in UTC.
    await owner.patch('/api/account').send({ timeZone: 'Pacific/Honolulu' }).expect(200);
    await t.dataSource.query(
      `UPDATE referrer_rewards_owed o SET counted_at = make_timestamp(
         extract(year FROM now() AT TIME ZONE 'Pacific/Honolulu')::int - 1, 12, 31, 23, 30, 0) AT TIME ZONE 'Pacific/Honolulu'
       FROM members f WHERE f.id = o.branch_id AND f.name = 'Ana-Sofía Pérez' AND o.referrer_id = $1`,
      [siobhan.id],
    );
    expect((await shown()).json).toBe('1 of 3 rewards left this year');
  });

  it('the referrer emails that state the reward say the same line as the page (one function)', async () => {
    expect((await shown()).json).toBe('1 of 3 rewards left this year');
    await owner.post(`/api/members/${siobhan.id}/referral-link`).expect(201);
    const before = smtp.emails.length;
    await owner.post(`/api/members/${siobhan.id}/referral-link/email`).expect(202);
    const mail = await waitFor(async () =>
      smtp.emails.slice(before).find((entry) => recipient(entry) === 'siobhan@example.com'),
    );
    expect(mail.text).toContain('Each friend who joins');
    expect(mail.text).toContain('1 of 3 rewards left this year.');
    expect(mail.html).toContain('1 of 3 rewards left this year.');
  });

  it("the ongoing discount: the friends left who lower the member's price", async () => {
    await setReward({ kind: 'discount', maxBranchesPerYear: 3 });
    expect(await shown()).toEqual({
      json: '0 of 3 friends left who lower your price',
      html: '0 of 3 friends left who lower your price.',
    });
  });
});
