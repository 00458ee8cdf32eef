import type TestAgent from 'supertest/lib/agent';
import {
  DEFAULT_SHARE_MESSAGE,
  SHARE_MESSAGE_MESSAGES,
  type MemberPage,
  type MemberRow,
  type ReferralLink,
  type ShareMessageSettings,
} from '@grove/contracts';
import { recipient, type SmtpCatcher } from '@grove/testing-smtp';
import { autoLinksOff, treeBody, type TestApp } from '../../../../test/test-app';
import { createMailTestApp } from '../../../../test/member-mail';
import { waitFor } from '../../../../test/stub-servers';

const ORIGIN = 'https://grove.example.com';

/** The text of an HTML attribute value as a browser reads it (the entities escape-html writes). */
const unescapeAttribute = (value: string): string =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The `href` of the member page's share link for `channel`, as the browser follows it. */
const hrefOf = (html: string, channel: string): string => {
  const match = new RegExp(`data-share="${channel}" href="([^"]*)"`).exec(html);
  if (!match?.[1]) throw new Error(`no ${channel} link in the page`);
  return unescapeAttribute(match[1]);
};

/**
 * Share in one tap (issue 33 item 3, docs/product.md#share-message): the owner's share message in
 * Account Settings (`GET/PUT /api/settings/share-message`) and the member page's WhatsApp, SMS,
 * email, copy and share-sheet targets carrying it, filled in for the member, with `?via=`.
 */
describe('the share message (integration)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  let owner: TestAgent;
  let other: TestAgent;
  let businessId: string;
  let link: ReferralLink;
  let member: TestAgent;

  const stored = async (id: string) =>
    (
      (await t.dataSource.query(`SELECT share_message FROM businesses WHERE id = $1`, [id])) as {
        share_message: string | null;
      }[]
    )[0]?.share_message;
  const message = async (agent: TestAgent) =>
    ((await agent.get('/api/settings/share-message').expect(200)).body as ShareMessageSettings)
      .message;

  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp({ THROTTLE_MEMBER_LINK_LIMIT: '1000' }));
    const signedUp = await t.signUp({ businessName: "O'Brien's Boxing & Fitness" });
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
    other = (await t.signUp({ businessName: 'Harbour Pilates' })).agent;
    await autoLinksOff(owner);
    const siobhan = (
      await owner
        .post('/api/members')
        .send(treeBody("Siobhán O'Brien", 'siobhan@example.com'))
        .expect(201)
    ).body as MemberRow;
    link = (await owner.post(`/api/members/${siobhan.id}/referral-link`).send({}).expect(201))
      .body as ReferralLink;
    // Siobhán opens her page with the magic link she asks for.
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

  it('starts with the default message, on the settings route and on the member page', async () => {
    expect(await message(owner)).toBe(DEFAULT_SHARE_MESSAGE);
    const page = (await member.get('/api/member/me').expect(200)).body as MemberPage;
    expect(page.shareMessage).toBe(DEFAULT_SHARE_MESSAGE);
    const html = (await member.get('/member').expect(200)).text;
    expect(decodeURIComponent(hrefOf(html, 'whatsapp').split('?text=')[1] ?? '')).toBe(
      `Siobhán here! Come and train with me at O'Brien's Boxing & Fitness. Here's my link: ${ORIGIN}/referral/${link.code}?via=whatsapp`,
    );
  });

  it("gives each channel the owner's edited message, filled in for Siobhán and encoded, with its ?via=", async () => {
    const edited =
      '  Hi, it’s {firstName} <3\nTrain with me at {gym} & say hi: {link}?! 100% worth it  ';
    const saved = await owner.put('/api/settings/share-message').send({ message: edited });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ message: edited.trim() });
    expect(await message(owner)).toBe(edited.trim());

    const text = (via: string) =>
      `Hi, it’s Siobhán <3\nTrain with me at O'Brien's Boxing & Fitness & say hi: ${ORIGIN}/referral/${link.code}?via=${via}?! 100% worth it`;
    const html = (await member.get('/member').expect(200)).text;
    // HTML-escaped where rendered: nothing of the message breaks out of an attribute or makes a tag.
    expect(html).not.toContain('<3');
    expect(html).not.toContain("O'Brien's Boxing & Fitness &");

    const whatsapp = hrefOf(html, 'whatsapp');
    expect(whatsapp).toBe(`https://wa.me/?text=${encodeURIComponent(text('whatsapp'))}`);
    expect(new URL(whatsapp).searchParams.get('text')).toBe(text('whatsapp'));

    const sms = hrefOf(html, 'sms');
    expect(sms).toBe(`sms:?&body=${encodeURIComponent(text('sms'))}`);
    expect(decodeURIComponent(sms.slice('sms:?&body='.length))).toBe(text('sms'));

    const email = new URL(hrefOf(html, 'email'));
    expect(email.protocol).toBe('mailto:');
    expect(email.searchParams.get('subject')).toBe("Join me at O'Brien's Boxing & Fitness");
    expect(email.searchParams.get('body')).toBe(text('email'));

    // Copy puts the link with ?via=copy on the clipboard; the page shows the plain link.
    expect(html).toContain(`data-url="${ORIGIN}/referral/${link.code}?via=copy"`);
    expect(html).toContain(`data-testid="referral-url">${ORIGIN}/referral/${link.code}</p>`);
    // The phone's share sheet (shown by the script where the browser can share).
    const share = /id="member-share"[^>]* data-text="([^"]*)" hidden>Share</.exec(html)?.[1];
    expect(unescapeAttribute(share ?? '')).toBe(text('share'));
    // The JSON page carries the same message, placeholders unfilled.
    const page = (await member.get('/api/member/me').expect(200)).body as MemberPage;
    expect(page.shareMessage).toBe(edited.trim());
  });

  it("fills {offer} with the business's welcome offer on the member page, and with nothing once it has none", async () => {
    await owner
      .put('/api/settings/share-message')
      .send({ message: '{firstName}: {offer} at {gym}! {link}' })
      .expect(200);
    await owner
      .put('/api/settings/welcome-offer')
      .send({ kind: 'amount', amountCents: 2000, percent: null, months: 3, text: null })
      .expect(200);
    const whatsappText = async () =>
      new URL(hrefOf((await member.get('/member').expect(200)).text, 'whatsapp')).searchParams.get(
        'text',
      );
    const url = `${ORIGIN}/referral/${link.code}?via=whatsapp`;
    expect(await whatsappText()).toBe(
      `Siobhán: $20 off your first 3 months at O'Brien's Boxing & Fitness! ${url}`,
    );
    const page = (await member.get('/api/member/me').expect(200)).body as MemberPage;
    expect(page.welcomeOffer).toBe('$20 off your first 3 months');
    await owner
      .put('/api/settings/welcome-offer')
      .send({ kind: 'none', amountCents: null, percent: null, months: null, text: null })
      .expect(200);
    expect(await whatsappText()).toBe(`Siobhán:  at O'Brien's Boxing & Fitness! ${url}`);
  });

  it('refuses a message breaking a rule with its 400 message and changes nothing', async () => {
    const kept = 'Come to {gym} with me: {link}';
    await owner.put('/api/settings/share-message').send({ message: kept }).expect(200);
    const bad: [unknown, string][] = [
      [{ message: 'Join me at {gym}!' }, SHARE_MESSAGE_MESSAGES.needsLink],
      [{ message: `{link} ${'x'.repeat(494)}` }, SHARE_MESSAGE_MESSAGES.tooLong],
      [{ message: '{link} from {name}' }, SHARE_MESSAGE_MESSAGES.unknownPlaceholder],
      [{ message: '{link}\u0007' }, SHARE_MESSAGE_MESSAGES.notPlain],
      [{ message: '{link} \u202Eevil' }, SHARE_MESSAGE_MESSAGES.notPlain],
      [{ message: '   ' }, SHARE_MESSAGE_MESSAGES.required],
      [{ message: 42 }, SHARE_MESSAGE_MESSAGES.required],
      [{ message: ['{link}'] }, SHARE_MESSAGE_MESSAGES.required],
      [{}, SHARE_MESSAGE_MESSAGES.required],
    ];
    for (const [body, expected] of bad) {
      const reply = await owner
        .put('/api/settings/share-message')
        .send(body as object)
        .expect(400);
      expect(reply.body.message).toBe(expected);
      expect(reply.body.fieldErrors).toEqual({ message: expected });
    }
    // Exactly 500 characters (an accent is one) is allowed.
    const longest = `{link} ${'é'.repeat(493)}`;
    await owner.put('/api/settings/share-message').send({ message: longest }).expect(200);
    await owner.put('/api/settings/share-message').send({ message: kept }).expect(200);
    for (const [body] of bad)
      await owner
        .put('/api/settings/share-message')
        .send(body as object)
        .expect(400);
    expect(await message(owner)).toBe(kept);
    expect(await stored(businessId)).toBe(kept);
    const html = (await member.get('/member').expect(200)).text;
    expect(new URL(hrefOf(html, 'whatsapp')).searchParams.get('text')).toBe(
      `Come to O'Brien's Boxing & Fitness with me: ${ORIGIN}/referral/${link.code}?via=whatsapp`,
    );
  });

  it("needs a session and keeps each business's message its own", async () => {
    await t.agent().get('/api/settings/share-message').expect(401);
    await t
      .agent()
      .put('/api/settings/share-message')
      .send({ message: 'Hijack {link}' })
      .expect(401);
    const mine = await message(owner);
    expect(await message(other)).toBe(DEFAULT_SHARE_MESSAGE);
    await other
      .put('/api/settings/share-message')
      .send({ message: 'Pilates with {firstName}: {link}' })
      .expect(200);
    expect(await message(other)).toBe('Pilates with {firstName}: {link}');
    expect(await message(owner)).toBe(mine);
    expect(await stored(businessId)).toBe(mine);
    expect((await member.get('/member').expect(200)).text).not.toContain('Pilates');
  });
});
