import type TestAgent from 'supertest/lib/agent';
import {
  BUSINESS_JOIN_IDS,
  BUSINESS_JOIN_TEXTS,
  JOIN_CHANNEL_LABELS,
  MESSAGES,
  type AuditLogPage,
  type JoinChannelsReport,
  type MemberRow,
  type Page,
  type ProspectRow,
  type ReferralsToMatch,
} from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';

const tree = (name: string, email: string) => ({
  memberName: name,
  memberEmail: email,
  membershipPriceCents: 8_999,
  discountCents: 1_500,
});

const codeOf = (url: string) => /\/join\/([0-9a-f]{32})$/.exec(url)?.[1] ?? '';

const prospects = async (t: TestApp, businessId: string) =>
  (await t.dataSource.query(
    `SELECT name, email, referring_member_id, referred_by_note, flags FROM prospects WHERE business_id = $1 ORDER BY created_at`,
    [businessId],
  )) as {
    name: string;
    email: string;
    referring_member_id: string | null;
    referred_by_note: string | null;
    flags: string[];
  }[];

describe("the business's own join page /join/<code> (integration)", () => {
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;
  let code: string;
  let siobhan: MemberRow;
  const businessName = 'Ó Briain’s Strength & Co.';

  beforeAll(async () => {
    t = await createTestApp({
      PUBLIC_ORIGIN: 'https://grove.example.com',
      THROTTLE_REFERRAL_LIMIT: '10000',
    });
    const signed = await t.signUp({ businessName });
    owner = signed.agent;
    businessId = signed.user.business.id;
    siobhan = (
      await owner.post('/api/members').send(tree("Siobhán O'Brien", 'siobhan@x.ie')).expect(201)
    ).body as MemberRow;
    await owner
      .put('/api/settings/member-defaults')
      .send({ membershipPriceCents: 6_500, discountCents: 1_000 })
      .expect(200);
    const { url } = (await owner.get('/api/join-page').expect(200)).body as { url: string };
    expect(url).toMatch(/^https:\/\/grove\.example\.com\/join\/[0-9a-f]{32}$/);
    code = codeOf(url);
  });
  afterAll(() => t.close());

  const post = (path: string, form: Record<string, string>) =>
    t
      .agent()
      .post(path)
      .set('Host', 'grove.example')
      .set('Origin', 'http://grove.example')
      .type('form')
      .send(form);

  it('gives the owner the link and its QR code; each business its own', async () => {
    const qr = await owner.get('/api/join-page/qr.svg').expect(200);
    expect(qr.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(qr.headers['content-disposition']).toBe('attachment; filename="grove-join-page.svg"');
    const { agent: other } = await t.signUp({ businessName: 'Zoë’s Yoga' });
    const otherUrl = ((await other.get('/api/join-page').expect(200)).body as { url: string }).url;
    expect(codeOf(otherUrl)).not.toBe(code);
    // The same link on every read.
    expect(((await owner.get('/api/join-page').expect(200)).body as { url: string }).url).toBe(
      `https://grove.example.com/join/${code}`,
    );
    await t.agent().get('/api/join-page').expect(401);
  });

  it('renders the page with "Who referred you?" in the first response, naming no member', async () => {
    const reply = await t.agent().get(`/join/${code}`).expect(200);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.headers['cache-control']).toBe('no-store');
    const html = reply.text;
    expect(html).toContain('<h1>Join Ó Briain’s Strength &amp; Co.</h1>');
    expect(html).toContain(
      `<form id="${BUSINESS_JOIN_IDS.form}" method="post" action="/join/${code}"`,
    );
    expect(html).toContain(
      `<label class="g-field__label" for="${BUSINESS_JOIN_IDS.referredBy}">${BUSINESS_JOIN_TEXTS.referredByLabel}</label>`,
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toMatch(/Siobh|O&#39;Brien|siobhan@/);
  });

  it('answers an unknown or malformed code with the failure page (404)', async () => {
    for (const bad of ['0123456789abcdef0123456789abcdef', 'not-a-code', code.toUpperCase()]) {
      const reply = await t.agent().get(`/join/${bad}`).expect(404);
      expect(reply.text).toContain(MESSAGES.referralFailed);
      expect(reply.text).not.toContain(businessName.slice(0, 6));
      await post(`/join/${bad}`, { name: 'Ana-Sofía Pérez', email: 'ana@x.es' }).expect(404);
    }
    expect(await prospects(t, businessId)).toEqual([]);
  });

  it('answers a stranger, a member and a filled honeypot with the same page; queues only the stranger, with "Who referred you?"', async () => {
    const stranger = await post(`/join/${code}`, {
      name: 'Ben O’Connor',
      email: 'ben@x.ie',
      referredBy: '  Jenny (spin class) ',
      website: '',
    }).expect(200);
    const member = await post(`/join/${code}`, {
      name: 'Siobhán O’Brien',
      email: 'Siobhan@X.ie',
      referredBy: 'Jenny (spin class)',
      website: '',
    }).expect(200);
    const bot = await post(`/join/${code}`, {
      name: 'Bot',
      email: 'bot@x.com',
      referredBy: 'Siobhán',
      website: 'https://spam.example',
    }).expect(200);
    expect(stranger.text).toContain(MESSAGES.referralSuccess);
    expect(member.text).toBe(stranger.text);
    expect(bot.text).toBe(stranger.text);
    expect(member.headers['content-type']).toBe(stranger.headers['content-type']);
    // Nothing on the page names or confirms the referrer the friend typed.
    expect(stranger.text).not.toMatch(/Jenny|Siobh/);
    expect(await prospects(t, businessId)).toEqual([
      {
        name: 'Ben O’Connor',
        email: 'ben@x.ie',
        referring_member_id: null,
        referred_by_note: 'Jenny (spin class)',
        flags: [],
      },
    ]);
  });

  it('refuses bad input with the form again (400), the values kept, nothing written', async () => {
    const before = await prospects(t, businessId);
    const badEmail = await post(`/join/${code}`, {
      name: 'Zoë D’Arcy-Nguyễn',
      email: 'zoe@',
      referredBy: 'Jenny',
    }).expect(400);
    expect(badEmail.text).toContain(MESSAGES.invalidEmail);
    expect(badEmail.text).toContain('value="Zoë D’Arcy-Nguyễn"');
    const longNote = await post(`/join/${code}`, {
      name: 'Zoë D’Arcy-Nguyễn',
      email: 'zoe@x.vn',
      referredBy: 'J'.repeat(101),
    }).expect(400);
    expect(longNote.text).toContain(BUSINESS_JOIN_TEXTS.referredByInvalid);
    const control = await post(`/join/${code}`, {
      name: 'Zoë D’Arcy-Nguyễn',
      email: 'zoe@x.vn',
      referredBy: 'Jenny\u202Eevil',
    }).expect(400);
    expect(control.text).toContain(BUSINESS_JOIN_TEXTS.referredByInvalid);
    // A body of a type no parser reads: empty fields, 400, not a 500.
    await t
      .agent()
      .post(`/join/${code}`)
      .set('Content-Type', 'application/xml')
      .send('<x/>')
      .expect(400);
    expect(await prospects(t, businessId)).toEqual(before);
  });

  it('refuses a form posted from another site (403)', async () => {
    await t
      .agent()
      .post(`/join/${code}`)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ name: 'Ana-Sofía', email: 'ana@x.es' })
      .expect(403);
  });

  it("lists the friend to the owner with the business's defaults, and approving it puts 'Jenny (spin class)' in Referrals to match, resolved into a branch", async () => {
    const list = (await owner.get('/api/prospects').expect(200)).body as Page<ProspectRow>;
    const ben = list.items.find((row) => row.email === 'ben@x.ie');
    expect(ben).toMatchObject({
      referringMemberId: null,
      referringMemberName: null,
      referredByNote: 'Jenny (spin class)',
      approvalPrefill: { membershipPriceCents: 6_500, discountCents: 1_000 },
    });
    const created = (
      await owner
        .post(`/api/prospects/${ben?.id}/approve`)
        .send({
          memberName: 'Ben O’Connor',
          memberEmail: 'ben@x.ie',
          membershipPriceCents: 6_500,
          discountCents: 1_000,
        })
        .expect(201)
    ).body as MemberRow;
    expect(created.referringMemberId).toBeNull();
    const waiting = (await owner.get('/api/referrals-to-match').expect(200))
      .body as ReferralsToMatch;
    expect(waiting.items).toEqual([
      expect.objectContaining({ memberId: created.id, referredByNote: 'Jenny (spin class)' }),
    ]);
    await owner
      .post(`/api/referrals-to-match/${created.id}/match`)
      .send({ referrerId: siobhan.id })
      .expect(200);
    const matched = (await owner.get(`/api/members/${created.id}`).expect(200)).body as MemberRow;
    expect(matched.referringMemberId).toBe(siobhan.id);
    expect(
      ((await owner.get('/api/referrals-to-match').expect(200)).body as ReferralsToMatch).total,
    ).toBe(0);
  });

  it("counts the page's friends under Analytics' 'Join page' channel, not 'Direct'", async () => {
    // Ben joined through the page and was approved above.
    const report = (await owner.get('/api/analytics/channels').expect(200))
      .body as JoinChannelsReport;
    expect(report.channels).toEqual([{ channel: 'join-page', visits: 0, joins: 1, approved: 1 }]);
    expect(JOIN_CHANNEL_LABELS['join-page']).toBe('Join page');
  });

  it("keeps one business's friends out of another's lists (tenant)", async () => {
    await post(`/join/${code}`, {
      name: 'Ana-Sofía Pérez',
      email: 'ana@x.es',
      referredBy: 'Marta',
    }).expect(200);
    const { agent: other } = await t.signUp({ businessName: 'Other Gym' });
    const theirs = (await other.get('/api/prospects').expect(200)).body as Page<ProspectRow>;
    expect(theirs.items).toEqual([]);
    const ours = (await owner.get('/api/prospects').expect(200)).body as Page<ProspectRow>;
    const ana = ours.items.find((row) => row.email === 'ana@x.es');
    expect(ana?.referredByNote).toBe('Marta');
    await other
      .post(`/api/prospects/${ana?.id}/approve`)
      .send({
        memberName: 'Ana-Sofía Pérez',
        memberEmail: 'ana@x.es',
        membershipPriceCents: 6_500,
        discountCents: 1_000,
      })
      .expect(404);
  });
});

describe("replacing the business's join page link (integration)", () => {
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  beforeAll(async () => {
    t = await createTestApp({
      PUBLIC_ORIGIN: 'https://grove.example.com',
      THROTTLE_REFERRAL_LIMIT: '10000',
    });
    owner = (await t.signUp({ businessName: 'Ceol Fitness' })).agent;
    other = (await t.signUp({ businessName: 'Zoë’s Yoga' })).agent;
  });
  afterAll(() => t.close());

  const urlOf = async (agent: TestAgent) =>
    ((await agent.get('/api/join-page').expect(200)).body as { url: string }).url;
  const joinForm = (code: string, email: string) =>
    t.agent().post(`/join/${code}`).type('form').send({ name: 'Ana-Sofía Pérez', email });

  it('refuses a replacement without confirm: true (400 with the message), changing nothing', async () => {
    const before = await urlOf(owner);
    for (const body of [{}, { confirm: false }, { confirm: 'true' }, { confirm: 1 }]) {
      const reply = await owner.post('/api/join-page/new-link').send(body).expect(400);
      expect(JSON.stringify(reply.body)).toContain(BUSINESS_JOIN_TEXTS.newLinkConfirmRequired);
    }
    await owner.post('/api/join-page/new-link').send({ confirm: true, code: 'x' }).expect(400);
    expect(await urlOf(owner)).toBe(before);
    await t
      .agent()
      .get(`/join/${codeOf(before)}`)
      .expect(200);
    await t.agent().post('/api/join-page/new-link').send({ confirm: true }).expect(401);
  });

  it('gives a new link: the old one answers exactly as an unknown code, the new one works, the QR code follows, the audit log records it', async () => {
    const old = await urlOf(owner);
    const oldQr = (await owner.get('/api/join-page/qr.svg').expect(200)).body as Buffer;
    const otherUrl = await urlOf(other);

    const reply = await owner.post('/api/join-page/new-link').send({ confirm: true }).expect(200);
    const fresh = (reply.body as { url: string }).url;
    expect(fresh).toMatch(/^https:\/\/grove\.example\.com\/join\/[0-9a-f]{32}$/);
    expect(fresh).not.toBe(old);
    expect(await urlOf(owner)).toBe(fresh);

    const unknown = await t.agent().get('/join/0123456789abcdef0123456789abcdef').expect(404);
    const gone = await t
      .agent()
      .get(`/join/${codeOf(old)}`)
      .expect(404);
    expect(gone.text).toBe(unknown.text);
    expect(gone.headers['content-type']).toBe(unknown.headers['content-type']);
    expect(gone.text).not.toContain('Ceol');
    const goneJoin = await joinForm(codeOf(old), 'ana@x.es').expect(404);
    const unknownJoin = await joinForm('0123456789abcdef0123456789abcdef', 'ana@x.es').expect(404);
    expect(goneJoin.text).toBe(unknownJoin.text);

    expect(
      (
        await t
          .agent()
          .get(`/join/${codeOf(fresh)}`)
          .expect(200)
      ).text,
    ).toContain('Join Ceol Fitness');
    await joinForm(codeOf(fresh), 'ana@x.es').expect(200);
    const newQr = (await owner.get('/api/join-page/qr.svg').expect(200)).body as Buffer;
    expect(newQr.equals(oldQr)).toBe(false);

    const [entry] = (
      (await owner.get('/api/audit-log?kind=settings.changed&pageSize=10').expect(200))
        .body as AuditLogPage
    ).items;
    expect(entry).toMatchObject({
      before: { setting: 'Join page link', url: old },
      after: { setting: 'Join page link', url: fresh },
    });

    // Another business's link is untouched (tenant).
    expect(await urlOf(other)).toBe(otherUrl);
    await t
      .agent()
      .get(`/join/${codeOf(otherUrl)}`)
      .expect(200);
  });

  it("replaces only the caller's business's link (tenant)", async () => {
    const ours = await urlOf(owner);
    await other.post('/api/join-page/new-link').send({ confirm: true }).expect(200);
    expect(await urlOf(owner)).toBe(ours);
    await t
      .agent()
      .get(`/join/${codeOf(ours)}`)
      .expect(200);
  });
});

describe('business join page throttling (integration, THROTTLE_REFERRAL_LIMIT=2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_REFERRAL_LIMIT: '2' });
  });
  afterAll(() => t.close());

  it('answers the third form from one client within a minute with the failure page (429), nothing written', async () => {
    const { agent: owner, user } = await t.signUp();
    const code = codeOf(
      ((await owner.get('/api/join-page').expect(200)).body as { url: string }).url,
    );
    const formPost = (email: string) =>
      t.agent().post(`/join/${code}`).type('form').send({ name: 'Friend Person', email });
    await formPost('one@x.com').expect(200);
    await formPost('two@x.com').expect(200);
    const refused = await formPost('three@x.com').expect(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.text).toContain(MESSAGES.referralFailed);
    // The page itself is not throttled.
    await t.agent().get(`/join/${code}`).expect(200);
    expect((await prospects(t, user.business.id)).map((row) => row.email)).toEqual([
      'one@x.com',
      'two@x.com',
    ]);
  });
});
