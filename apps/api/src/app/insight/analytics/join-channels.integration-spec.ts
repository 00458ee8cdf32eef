import type TestAgent from 'supertest/lib/agent';
import type {
  JoinChannelsReport,
  MemberRow,
  Page,
  ProspectRow,
  ReferralLink,
} from '@grove/contracts';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';

/**
 * Issue 33 item 3 (docs/product.md#analytics, #referral-join): the referral link's `?via=` names
 * the channel that brought a friend; the join page counts the visit under it, carries it through
 * the form (or the JSON join) onto the prospective member, and Analytics' "Joins by channel"
 * shows visits, joins and approvals per channel, for the session's business only.
 */
describe('joins by channel (integration, issue 33 item 3)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let link: ReferralLink;
  let otherLink: ReferralLink;

  /** A member of the signed-in owner's business with a live link. */
  const referrer = async (agent: TestAgent, name: string, email: string) => {
    const member = (await agent.post('/api/members').send(treeBody(name, email)).expect(201))
      .body as MemberRow;
    return (await agent.post(`/api/members/${member.id}/referral-link`).send({}).expect(201))
      .body as ReferralLink;
  };

  const report = async (agent: TestAgent): Promise<JoinChannelsReport> =>
    (await agent.get('/api/analytics/channels').expect(200)).body as JoinChannelsReport;

  /** Opens the join page as a browser at `address` would, `?via=` as given (raw). */
  const open = (code: string, query: string, address: string) =>
    t
      .agent()
      .get(`/referral/${code}${query}`)
      .set('Host', 'grove.example')
      .set('X-Forwarded-For', address)
      .expect(200);

  /** The no-JS form post of the page's fields. */
  const postForm = (code: string, form: Record<string, string>, address: string) =>
    t
      .agent()
      .post(`/referral/${code}`)
      .set('Host', 'grove.example')
      .set('Origin', 'http://grove.example')
      .set('X-Forwarded-For', address)
      .type('form')
      .send(form)
      .expect(200);

  /** The value of the page's hidden `via` field. */
  const hiddenVia = (html: string): string | undefined =>
    /<input id="join-via" type="hidden" name="via" value="([^"]*)">/.exec(html)?.[1];

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
    const signed = await t.signUp();
    owner = signed.agent;
    other = (await t.signUp()).agent;
    link = await referrer(owner, 'Siobhán O’Brien', 'siobhan@example.com');
    otherLink = await referrer(other, 'Zoë Ørsted', 'zoe@example.com');
  });
  afterAll(() => t.close());

  it('has an empty report before any visit', async () => {
    const empty = await report(owner);
    expect(empty.channels).toEqual([]);
    expect(empty.from <= empty.to).toBe(true);
  });

  it('a visit and a join through ?via=whatsapp show under WhatsApp; the approval too', async () => {
    const page = await open(link.code, '?via=whatsapp', '203.0.113.10');
    expect(hiddenVia(page.text)).toBe('whatsapp');
    const done = await postForm(
      link.code,
      { name: 'Seán Ó Raghallaigh', email: 'sean@example.com', website: '', via: 'whatsapp' },
      '203.0.113.10',
    );
    expect(done.text).toContain('Successfully registered!');

    expect((await report(owner)).channels).toEqual([
      { channel: 'whatsapp', visits: 1, joins: 1, approved: 0 },
    ]);

    const prospects = (await owner.get('/api/prospects?pageSize=100').expect(200))
      .body as Page<ProspectRow>;
    const sean = prospects.items.find((row) => row.email === 'sean@example.com');
    if (!sean) throw new Error('prospect missing');
    await owner
      .post(`/api/prospects/${sean.id}/approve`)
      .send(treeBody('Seán Ó Raghallaigh', 'sean@example.com'))
      .expect(201);
    expect((await report(owner)).channels).toEqual([
      { channel: 'whatsapp', visits: 1, joins: 1, approved: 1 },
    ]);
  });

  it('the JSON join carries via too; an unknown or malformed via counts as direct and is not reflected', async () => {
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .set('X-Forwarded-For', '203.0.113.11')
      .send({ name: 'Chloé Dubois', email: 'chloe@example.com', via: 'sms' })
      .expect(201);

    const odd = '"><script>alert(1)</script>';
    const page = await open(link.code, `?via=${encodeURIComponent(odd)}`, '203.0.113.12');
    expect(hiddenVia(page.text)).toBe('direct');
    expect(page.text).not.toContain('<script>alert(1)');
    const repeated = await open(link.code, '?via=sms&via=email', '203.0.113.13');
    expect(hiddenVia(repeated.text)).toBe('direct');
    const upper = await open(link.code, '?via=WhatsApp', '203.0.113.14');
    expect(hiddenVia(upper.text)).toBe('direct');

    // A tampered hidden field and a JSON via outside the list join as direct, never a 4xx.
    await postForm(
      link.code,
      { name: 'Đorđe Petrović', email: 'dorde@example.com', website: '', via: odd },
      '203.0.113.12',
    );
    await t
      .agent()
      .post(`/api/referrals/${link.code}/join`)
      .set('X-Forwarded-For', '203.0.113.15')
      .send({ name: 'Ana María', email: 'ana@example.com', via: 'telegram' })
      .expect(201);

    const { channels } = await report(owner);
    expect(channels).toEqual([
      { channel: 'direct', visits: 3, joins: 2, approved: 0 },
      { channel: 'whatsapp', visits: 1, joins: 1, approved: 1 },
      { channel: 'sms', visits: 0, joins: 1, approved: 0 },
    ]);
    const stored = (await t.dataSource.query(
      `SELECT DISTINCT channel FROM prospects UNION SELECT DISTINCT channel FROM join_page_visits
       UNION SELECT DISTINCT channel FROM lifecycle_facts WHERE channel IS NOT NULL`,
    )) as { channel: string }[];
    for (const { channel } of stored)
      expect(['whatsapp', 'sms', 'email', 'copy', 'share', 'qr', 'direct']).toContain(channel);
  });

  it('tenant isolation: another business’s visits and joins never appear, and ours never in theirs', async () => {
    await open(otherLink.code, '?via=qr', '198.51.100.20');
    await postForm(
      otherLink.code,
      { name: 'Björn Ærø', email: 'bjorn@example.com', website: '', via: 'qr' },
      '198.51.100.20',
    );
    expect((await report(other)).channels).toEqual([
      { channel: 'qr', visits: 1, joins: 1, approved: 0 },
    ]);
    const ours = (await report(owner)).channels;
    expect(ours.map((row) => row.channel)).not.toContain('qr');
    expect(ours.reduce((sum, row) => sum + row.joins, 0)).toBe(4);
  });

  it('takes the period query of the other reports: a bad one → 400, none without a session', async () => {
    const bad = await owner.get('/api/analytics/channels?period=7').expect(400);
    expect(typeof bad.body.message).toBe('string');
    await t.agent().get('/api/analytics/channels').expect(401);
    const year = (await owner.get('/api/analytics/channels?period=365').expect(200))
      .body as JoinChannelsReport;
    expect(year.channels.map((row) => row.channel)).toEqual(['direct', 'whatsapp', 'sms']);
  });
});
