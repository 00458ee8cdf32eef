import type TestAgent from 'supertest/lib/agent';
import {
  NO_WELCOME_OFFER,
  WELCOME_OFFER_MESSAGES,
  type MemberRow,
  type MoneyReport,
  type Page,
  type ProspectRow,
  type ReferralInfo,
  type ReferralLink,
  type WelcomeOffer,
  type WelcomeOfferGrant,
} from '@grove/contracts';
import { recipient, type ParsedMail, type SmtpCatcher } from '@grove/testing-smtp';
import { treeBody, type TestApp } from '../../../../test/test-app';
import { createMailTestApp } from '../../../../test/member-mail';
import { waitFor } from '../../../../test/stub-servers';

const ROUTE = '/api/settings/welcome-offer';

/**
 * The friend's welcome offer (issue 33 item 1, docs/product.md#welcome-offer): the owner's setting
 * (`GET/PUT /api/settings/welcome-offer`), its wording on the join page's JSON, the offer granted
 * at approval (kept as it was), the welcome email stating it, and the owner's list of offers to
 * honour (`GET /api/welcome-offers`, `POST /api/welcome-offers/:id/honoured`), per business.
 */
describe('the welcome offer (integration, real SMTP server)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  let owner: TestAgent;
  let other: TestAgent;
  let businessId: string;
  let code: string;

  const stored = async (id: string) =>
    (
      (await t.dataSource.query(`SELECT welcome_offer FROM businesses WHERE id = $1`, [id])) as {
        welcome_offer: WelcomeOffer | null;
      }[]
    )[0]?.welcome_offer;
  const offerOf = async (agent: TestAgent) =>
    (await agent.get(ROUTE).expect(200)).body as WelcomeOffer;
  const grantsOf = async (agent: TestAgent) =>
    ((await agent.get('/api/welcome-offers').expect(200)).body as { items: WelcomeOfferGrant[] })
      .items;
  const text = (mail: ParsedMail): string => (mail.text ?? '').replace(/\s+/g, ' ');
  const welcomeTo = (email: string) =>
    waitFor(async () =>
      smtp.emails.find(
        (mail) => recipient(mail) === email && mail.subject?.startsWith('Welcome to'),
      ),
    );

  /** A friend joins through Siobhán's link and the owner approves them at $50.00 a month. */
  const joinAndApprove = async (name: string, email: string): Promise<MemberRow> => {
    await t.agent().post(`/api/referrals/${code}/join`).send({ name, email }).expect(201);
    const prospect = await waitFor(async () => {
      const page = (await owner.get('/api/prospects?pageSize=100').expect(200))
        .body as Page<ProspectRow>;
      return page.items.find((row) => row.email === email);
    });
    return (
      await owner
        .post(`/api/prospects/${prospect.id}/approve`)
        .send({
          memberName: name,
          memberEmail: email,
          membershipPriceCents: 5000,
          discountCents: 1000,
        })
        .expect(201)
    ).body as MemberRow;
  };

  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp({ THROTTLE_REFERRAL_LIMIT: '10000' }));
    const signedUp = await t.signUp({ businessName: "O'Brien's Boxing & Fitness" });
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
    other = (await t.signUp({ businessName: 'Harbour Pilates' })).agent;
    const siobhan = (
      await owner
        .post('/api/members')
        .send(treeBody("Siobhán O'Brien", 'siobhan@example.com'))
        .expect(201)
    ).body as MemberRow;
    code = (
      (await owner.post(`/api/members/${siobhan.id}/referral-link`).send({}).expect(201))
        .body as ReferralLink
    ).code;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('starts with no offer, and the join page offers the friend nothing', async () => {
    expect(await offerOf(owner)).toEqual(NO_WELCOME_OFFER);
    const info = (await t.agent().get(`/api/referrals/${code}`).expect(200)).body as ReferralInfo;
    expect(info.welcomeOffer).toBeNull();
  });

  it('saves each kind, keeping only its fields, and the join page words it', async () => {
    const cases: [Record<string, unknown>, WelcomeOffer, string][] = [
      [
        { kind: 'amount', amountCents: 2000, months: 3, percent: 50, text: 'ignored' },
        { kind: 'amount', amountCents: 2000, percent: null, months: 3, text: null },
        '$20 off your first 3 months',
      ],
      [
        { kind: 'percent', percent: 25, months: 1 },
        { kind: 'percent', amountCents: null, percent: 25, months: 1, text: null },
        '25% off your first month',
      ],
      [
        { kind: 'text', text: '  a free class with Zoë  ' },
        {
          kind: 'text',
          amountCents: null,
          percent: null,
          months: null,
          text: 'a free class with Zoë',
        },
        'A free class with Zoë',
      ],
      [
        { kind: 'free', months: 1 },
        { kind: 'free', amountCents: null, percent: null, months: 1, text: null },
        'Your first month free',
      ],
    ];
    for (const [body, saved, wording] of cases) {
      expect((await owner.put(ROUTE).send(body).expect(200)).body).toEqual(saved);
      expect(await offerOf(owner)).toEqual(saved);
      const info = (await t.agent().get(`/api/referrals/${code}`).expect(200)).body as ReferralInfo;
      expect(info.welcomeOffer).toBe(wording);
    }
  });

  it('refuses an offer breaking a rule with its 400 message and changes nothing', async () => {
    const kept = { kind: 'free', amountCents: null, percent: null, months: 1, text: null };
    const M = WELCOME_OFFER_MESSAGES;
    const bad: [unknown, Record<string, string>][] = [
      [{}, { kind: M.kind }],
      [{ kind: 'gift', months: 1 }, { kind: M.kind }],
      [{ kind: 'amount', amountCents: 0, months: 3 }, { amountCents: M.amount }],
      [{ kind: 'amount', amountCents: '20', months: 3 }, { amountCents: M.amount }],
      [{ kind: 'amount', amountCents: 19.5, months: 3 }, { amountCents: M.amount }],
      [
        { kind: 'percent', percent: 101, months: 25 },
        { percent: M.percent, months: M.months },
      ],
      [{ kind: 'free', months: 0 }, { months: M.months }],
      [{ kind: 'text', text: '   ' }, { text: M.textRequired }],
      [{ kind: 'text', text: 'x'.repeat(101) }, { text: M.textTooLong }],
      [{ kind: 'text', text: 'free\u202Eclass' }, { text: M.textNotPlain }],
    ];
    for (const [body, fieldErrors] of bad) {
      const reply = await owner
        .put(ROUTE)
        .send(body as object)
        .expect(400);
      expect(reply.body.fieldErrors).toEqual(fieldErrors);
      expect(reply.body.message).toBe(Object.values(fieldErrors)[0]);
    }
    expect(await offerOf(owner)).toEqual(kept);
    expect(await stored(businessId)).toEqual(kept);
  });

  it('grants the offer at approval as it was then, states it in the welcome email and lists it to honour', async () => {
    // "First month $0": the offer the owner set last.
    const ben = await joinAndApprove("Ben O'Connor", 'ben@example.com');
    const mail = await welcomeTo('ben@example.com');
    expect(text(mail)).toContain('Your welcome offer: Your first month free.');

    // The owner changes the offer afterwards: Ben keeps what he was promised.
    await owner.put(ROUTE).send({ kind: 'amount', amountCents: 1250, months: 2 }).expect(200);
    const aoife = await joinAndApprove('Aoife Ní Bhriain', 'aoife@example.com');
    expect(text(await welcomeTo('aoife@example.com'))).toContain(
      'Your welcome offer: $12.50 off your first 2 months.',
    );

    const grants = await grantsOf(owner);
    expect(grants.map((grant) => [grant.memberName, grant.wording, grant.honouredAt])).toEqual([
      ["Ben O'Connor", 'Your first month free', null],
      ['Aoife Ní Bhriain', '$12.50 off your first 2 months', null],
    ]);
    expect(grants[0]?.memberId).toBe(ben.id);
    expect(grants[0]?.offer).toEqual({
      kind: 'free',
      amountCents: null,
      percent: null,
      months: 1,
      text: null,
    });
    expect(grants[1]?.memberId).toBe(aoife.id);

    // Marked honoured: listed after those still to honour, and once is enough.
    const honoured = await owner.post(`/api/welcome-offers/${grants[0]?.id}/honoured`).expect(200);
    expect((honoured.body as WelcomeOfferGrant).honouredAt).not.toBeNull();
    await owner.post(`/api/welcome-offers/${grants[0]?.id}/honoured`).expect(200);
    const after = await grantsOf(owner);
    expect(after.map((grant) => [grant.memberName, grant.honouredAt !== null])).toEqual([
      ['Aoife Ní Bhriain', false],
      ["Ben O'Connor", true],
    ]);
    expect(after[1]?.honouredAt).toBe((honoured.body as WelcomeOfferGrant).honouredAt);
  });

  it('grants nothing and says nothing in the welcome when the business offers none', async () => {
    await owner.put(ROUTE).send({ kind: 'none', months: 3 }).expect(200);
    expect(await stored(businessId)).toBeNull();
    await joinAndApprove('Nina Kowalska', 'nina@example.com');
    expect(text(await welcomeTo('nina@example.com'))).not.toContain('welcome offer');
    expect((await grantsOf(owner)).map((grant) => grant.memberName)).not.toContain('Nina Kowalska');
  });

  it("shows Analytics the offers' cost next to the referrer discounts, per business", async () => {
    // Ben: his first month free at $50.00; Aoife: $12.50 off for 2 months; Nina: no offer.
    const money = (await owner.get('/api/analytics/money?period=30').expect(200))
      .body as MoneyReport;
    expect(money).toMatchObject({
      welcomeOffersGranted: 2,
      welcomeOffersCostCents: 5000 + 2 * 1250,
      welcomeOffersByHand: 0,
    });
    const theirs = (await other.get('/api/analytics/money?period=30').expect(200))
      .body as MoneyReport;
    expect(theirs).toMatchObject({
      welcomeOffersGranted: 0,
      welcomeOffersCostCents: 0,
      welcomeOffersByHand: 0,
    });
  });

  it("needs a session and keeps each business's offer and grants its own", async () => {
    await t.agent().get(ROUTE).expect(401);
    await t.agent().put(ROUTE).send({ kind: 'free', months: 1 }).expect(401);
    await t.agent().get('/api/welcome-offers').expect(401);
    const mine = await offerOf(owner);
    const grants = await grantsOf(owner);
    expect(await offerOf(other)).toEqual(NO_WELCOME_OFFER);
    await other.put(ROUTE).send({ kind: 'percent', percent: 10, months: 6 }).expect(200);
    expect(await offerOf(owner)).toEqual(mine);
    expect(await grantsOf(other)).toEqual([]);
    // Another business's grant is not found, and stays to honour.
    const open = grants.find((grant) => grant.honouredAt === null);
    const reply = await other.post(`/api/welcome-offers/${open?.id}/honoured`).expect(404);
    expect(reply.body.message).toBe(WELCOME_OFFER_MESSAGES.grantNotFound);
    await other.post('/api/welcome-offers/not-a-uuid/honoured').expect(404);
    expect((await grantsOf(owner)).find((grant) => grant.id === open?.id)?.honouredAt).toBeNull();
    // The join page of the owner's link still words the owner's offer, not the other's.
    const info = (await t.agent().get(`/api/referrals/${code}`).expect(200)).body as ReferralInfo;
    expect(info.welcomeOffer).toBeNull();
  });
});
