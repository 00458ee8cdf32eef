import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { JOIN_PAGE_IDS, MESSAGES, type MemberRow, type ReferralLink } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import { writeWebBuild } from '../../../../../test/web-build';

const tree = (name: string, email: string) => ({
  memberName: name,
  memberEmail: email,
  membershipPriceCents: 10_000,
  discountCents: 1500,
});

/** A stand-in for the referral build's inline assets (apps/referral `features/join/page`). */
const PAGE_SCRIPT = 'document.documentElement.dataset.enhanced="yes";';
const PAGE_STYLE = '.referral-join{max-width:480px}';
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
/** The body of the page's one inline `<script>` / `<style>`. */
const inline = (html: string, tag: 'script' | 'style') =>
  new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(html)?.[1];
const prospectCount = async (t: TestApp, memberId: string): Promise<number> =>
  (
    (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM prospects WHERE referring_member_id = $1`,
      [memberId],
    )) as { n: number }[]
  )[0].n;

describe('the referral join page rendered by the API (integration)', () => {
  let t: TestApp;
  let webDir: string;
  let owner: TestAgent;
  let referrer: MemberRow;
  let link: ReferralLink;
  const businessName = 'Tom & Jerry\'s "Gym" <b>Club</b>';
  const escaped = 'Tom &amp; Jerry&#39;s &quot;Gym&quot; &lt;b&gt;Club&lt;/b&gt;';

  beforeAll(async () => {
    webDir = writeWebBuild('join-page', { script: PAGE_SCRIPT, style: PAGE_STYLE });
    t = await createTestApp({
      WEB_DIST_DIR: webDir,
      REMOTES_DIR: path.join(webDir, 'remotes'),
      THROTTLE_REFERRAL_LIMIT: '10000',
    });
    ({ agent: owner } = await t.signUp({ businessName }));
    referrer = (
      await owner.post('/api/members').send(tree('Sofia Rossi', 'sofia@x.com')).expect(201)
    ).body as MemberRow;
    await owner.post('/api/members').send(tree('Ella Evans', 'ella@x.com')).expect(201);
    link = (await owner.post(`/api/members/${referrer.id}/referral-link`).expect(201))
      .body as ReferralLink;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const post = (code: string, form: Record<string, string>) =>
    t
      .agent()
      .post(`/referral/${code}`)
      .set('Host', 'grove.example')
      // A browser's form POST names the page's origin.
      .set('Origin', 'http://grove.example')
      .type('form')
      .send(form);

  it('puts the business name (escaped), who invited the friend and the form in the first response', async () => {
    const reply = await t.agent().get(`/referral/${link.code}`).expect(200);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.headers['cache-control']).toBe('no-store');
    // Not helmet's no-referrer: with it a browser posts the form with `Origin: null`.
    expect(reply.headers['referrer-policy']).toBe('same-origin');
    const html = reply.text;
    expect(html).toContain(
      '<p class="referral-join__eyebrow">Tom &amp; Jerry&#39;s &quot;Gym&quot; &lt;b&gt;Club&lt;/b&gt;</p>',
    );
    expect(html).not.toContain('<b>Club</b>');
    expect(html).toContain('<h1>Sofia invited you to join</h1>');
    expect(html).toContain(
      `<form id="${JOIN_PAGE_IDS.form}" method="post" action="/referral/${link.code}" data-code="${link.code}" novalidate>`,
    );
    expect(html).toContain(
      `<label class="g-field__label" for="${JOIN_PAGE_IDS.name}">Name</label>`,
    );
    expect(html).toContain(
      `<label class="g-field__label" for="${JOIN_PAGE_IDS.email}">Email</label>`,
    );
    expect(html).toMatch(/<input[^>]+id="referral-website" name="website" tabindex="-1"/);
    expect(html).toContain('<button type="submit"');
    expect(html).not.toContain('the shell');
  });

  it("shows the gym's name in the header (not Grove), the offer and what happens next, the same for every visitor", async () => {
    const html = (await t.agent().get(`/referral/${link.code}`).expect(200)).text;
    expect(html).toContain(
      `<header class="join-topbar"><span class="join-topbar__brand">${escaped}</span></header>`,
    );
    expect(html).not.toContain('aria-label="Grove home"');
    // The offer: the referrer's price goes down (no amount: a member's price is theirs).
    expect(html).toContain(
      `Sofia thinks you would like ${escaped}. Join through this link and Sofia gets a lower membership price as a thank-you for bringing a friend.`,
    );
    expect(html).not.toMatch(/\$\d/);
    // What happens next.
    expect(html).toContain('<h2 id="join-next">What happens next</h2>');
    expect(html).toContain(
      `<li>${escaped} contacts you to welcome you and approves your membership.</li>`,
    );
    expect(html).toContain(
      '<li>Once approved, you are a member, with a referral link of your own to invite friends.</li>',
    );
    // Nothing about the referrer beyond the link's first name: no surname, email, other member.
    expect(html).not.toMatch(/Rossi|sofia@x\.com|Ella/);
    // Another visitor sees exactly the same page.
    expect((await t.agent().get(`/referral/${link.code}`).expect(200)).text).toBe(html);
    // The success page keeps what happens next; a dead link's page names no business.
    const liam = (
      await owner.post('/api/members').send(tree('Liam Byrne', 'liam@x.com')).expect(201)
    ).body as MemberRow;
    const liamLink = (await owner.post(`/api/members/${liam.id}/referral-link`).expect(201))
      .body as ReferralLink;
    const done = await post(liamLink.code, {
      name: 'Siobhán Walsh',
      email: 'siobhan.walsh@x.com',
      website: '',
    }).expect(200);
    expect(done.text).toContain('<h2 id="join-next">What happens next</h2>');
    expect(done.text).toContain('<span class="join-topbar__brand">');
    const dead = await t.agent().get('/referral/AAAAAAAAAAAAAAAA').expect(404);
    expect(dead.text).toContain('aria-label="Grove home"');
    expect(dead.text).not.toContain('What happens next');
  });

  it('allows exactly its inline script and stylesheet by hash: no unsafe-inline, no nonce, nothing else', async () => {
    const reply = await t.agent().get(`/referral/${link.code}`).expect(200);
    expect(inline(reply.text, 'script')).toBe(PAGE_SCRIPT);
    expect(inline(reply.text, 'style')).toBe(PAGE_STYLE);
    const csp = String(reply.headers['content-security-policy']);
    expect(csp).toContain(`script-src 'sha256-${sha256(PAGE_SCRIPT)}';`);
    expect(csp).toContain(`style-src 'sha256-${sha256(PAGE_STYLE)}';`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|nonce-/);
    expect(reply.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });

  it('inlines the assets of the referral version REMOTES_DIR/current.json names, and its hash', async () => {
    const version = '20261123-120000-0123456789ab';
    const folder = path.join(webDir, 'remotes/referral', version);
    fs.mkdirSync(path.join(folder, 'join-page'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'mf-manifest.json'), '{"name":"referral"}');
    const deployed = 'document.title="deployed version";';
    fs.writeFileSync(path.join(folder, 'join-page/page.js'), deployed);
    fs.writeFileSync(path.join(folder, 'join-page/page.css'), PAGE_STYLE);
    const current = path.join(webDir, 'remotes/current.json');
    fs.writeFileSync(current, JSON.stringify({ referral: version }));
    try {
      const reply = await t.agent().get(`/referral/${link.code}`).expect(200);
      expect(inline(reply.text, 'script')).toBe(deployed);
      expect(String(reply.headers['content-security-policy'])).toContain(
        `script-src 'sha256-${sha256(deployed)}';`,
      );
    } finally {
      fs.rmSync(current);
    }
    const back = await t.agent().get(`/referral/${link.code}`).expect(200);
    expect(inline(back.text, 'script')).toBe(PAGE_SCRIPT);
  });

  it('answers an unknown, malformed or revoked code with the failure text and no form, nothing about members', async () => {
    const other = (
      await owner.post('/api/members').send(tree('Gone Link', 'gone@x.com')).expect(201)
    ).body as MemberRow;
    const revoked = (await owner.post(`/api/members/${other.id}/referral-link`).expect(201))
      .body as ReferralLink;
    await owner.delete(`/api/members/${other.id}/referral-link`).expect(204);
    const pages: Response[] = [];
    for (const code of ['AAAAAAAAAAAAAAAA', 'not-a-code!', revoked.code])
      pages.push(
        await t
          .agent()
          .get(`/referral/${encodeURIComponent(code)}`)
          .expect(404),
      );
    for (const page of pages) {
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain(MESSAGES.referralFailed);
      expect(page.text).not.toContain('<form');
      expect(page.text).not.toContain(businessName);
      expect(page.text).toBe(pages[0].text);
      expect(String(page.headers['content-security-policy'])).not.toContain('unsafe-inline');
    }
  });

  it('joins with JavaScript off: a plain form POST answers the success page and queues the friend', async () => {
    const reply = await post(link.code, {
      name: '  Marco Bianchi ',
      email: 'marco@x.com',
      website: '',
    }).expect(200);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.text).toContain(
      `<div class="g-alert g-alert--success" role="status">${MESSAGES.referralSuccess}</div>`,
    );
    expect(reply.text).toContain('<h1>Sofia invited you to join</h1>');
    expect(reply.text).not.toContain('<form');
    const rows: { name: string; email: string }[] = await t.dataSource.query(
      `SELECT name, email FROM prospects WHERE referring_member_id = $1`,
      [referrer.id],
    );
    expect(rows).toEqual([{ name: 'Marco Bianchi', email: 'marco@x.com' }]);
  });

  it('answers a stranger, a member of the business, the referrer and a bot identically; only the stranger is queued', async () => {
    const before = await prospectCount(t, referrer.id);
    const replies: Response[] = [];
    for (const form of [
      { name: 'Nina Stranger', email: 'nina@x.com', website: '' },
      { name: 'Ella Evans', email: 'Ella@X.com', website: '' },
      { name: 'Sofia Rossi', email: 'SOFIA@x.com', website: '' },
      { name: 'Bot Person', email: 'bot@x.com', website: 'http://spam.example' },
    ])
      replies.push(await post(link.code, form));
    const visible = (reply: Response) => ({
      status: reply.status,
      text: reply.text,
      headers: Object.fromEntries(
        Object.entries(reply.headers).filter(
          // X-Request-Id: a fresh random id on every reply (platform/common/request-id.ts).
          ([name]) => name !== 'date' && name !== 'x-request-id' && !name.startsWith('x-ratelimit'),
        ),
      ),
    });
    expect(visible(replies[0]).status).toBe(200);
    for (const reply of replies.slice(1)) expect(visible(reply)).toEqual(visible(replies[0]));
    expect(await prospectCount(t, referrer.id)).toBe(before + 1);
  });

  it('refuses a bad name or email with the product messages, keeps what was typed (escaped) and stores nothing', async () => {
    const before = await prospectCount(t, referrer.id);
    const reply = await post(link.code, {
      name: 'R2D2 <i>',
      email: '"><script>x',
      website: '',
    }).expect(400);
    expect(reply.text).toContain(
      `<div id="${JOIN_PAGE_IDS.name}-error" class="g-field__error">${MESSAGES.invalidName}</div>`,
    );
    expect(reply.text).toContain(
      `<div id="${JOIN_PAGE_IDS.email}-error" class="g-field__error">${MESSAGES.invalidEmail}</div>`,
    );
    expect(reply.text).toContain('aria-invalid="true" aria-describedby="join-name-error"');
    expect(reply.text).toContain('value="R2D2 &lt;i&gt;"');
    expect(reply.text).toContain('value="&quot;&gt;&lt;script&gt;x"');
    expect(reply.text).not.toContain('<script>x');
    expect(inline(reply.text, 'script')).toBe(PAGE_SCRIPT);
    const empty = await post(link.code, {}).expect(400);
    expect(empty.text).toContain(MESSAGES.invalidName);
    expect(empty.text).toContain(MESSAGES.invalidEmail);
    // A body no parser reads (not a form) is a form with empty fields, not a 500.
    const unreadable = await t
      .agent()
      .post(`/referral/${link.code}`)
      .set('Content-Type', 'application/xml')
      .send('<name>x</name>')
      .expect(400);
    expect(unreadable.text).toContain(MESSAGES.invalidName);
    expect(await prospectCount(t, referrer.id)).toBe(before);
  });

  it('answers a POST to an unknown code with the failure page (404), whatever was typed', async () => {
    for (const form of [
      { name: 'Good Name', email: 'good@x.com' },
      { name: 'R2D2', email: 'nope' },
    ]) {
      const reply = await post('AAAAAAAAAAAAAAAA', form).expect(404);
      expect(reply.text).toContain(MESSAGES.referralFailed);
      expect(reply.text).not.toContain('<form');
    }
  });

  it('refuses a post from another site (Origin, or Sec-Fetch-Site without Origin) with a page, storing nothing', async () => {
    const before = await prospectCount(t, referrer.id);
    for (const [header, value] of [
      ['Origin', 'https://evil.example'],
      ['Sec-Fetch-Site', 'cross-site'],
    ]) {
      const refused = await t
        .agent()
        .post(`/referral/${link.code}`)
        .set(header, value)
        .type('form')
        .send({ name: 'Csrf Victim', email: 'victim@x.com' })
        .expect(403);
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.text).toContain(MESSAGES.referralFailed);
    }
    expect(await prospectCount(t, referrer.id)).toBe(before);
  });

  it("counts the page's openings per link and day, once per visitor, not the form's answers nor dead codes", async () => {
    const visits = async (): Promise<number> =>
      (
        (await t.dataSource.query(
          `SELECT COALESCE(sum(visits), 0)::int AS n FROM join_page_visits v
           JOIN referral_links l ON l.id = v.referral_link_id WHERE l.code = $1`,
          [link.code],
        )) as { n: number }[]
      )[0].n;
    // Earlier tests opened the page from this client: it is a new visitor again (issue 24 part 6).
    await t.dataSource.query(
      `DELETE FROM join_page_visitors WHERE referral_link_id = (SELECT id FROM referral_links WHERE code = $1)`,
      [link.code],
    );
    const before = await visits();
    await t.agent().get(`/referral/${link.code}`).expect(200);
    await t.agent().get(`/referral/${link.code}`).expect(200);
    expect(await visits()).toBe(before + 1);
    await post(link.code, { name: 'Visit Counter', email: 'visits@x.com' }).expect(200);
    await post(link.code, { name: 'R2D2', email: 'nope' }).expect(400);
    await t.agent().get('/referral/AAAAAAAAAAAAAAAA').expect(404);
    expect(await visits()).toBe(before + 1);
  });

  it("states the business's welcome offer on the form and the success page, the same for every friend (issue 33)", async () => {
    await owner
      .put('/api/settings/welcome-offer')
      .send({ kind: 'text', text: 'a free class & a <b>towel</b>' })
      .expect(200);
    try {
      const html = (await t.agent().get(`/referral/${link.code}`).expect(200)).text;
      // Beside the referrer's offer, escaped.
      expect(html).toContain(
        'gets a lower membership price as a thank-you for bringing a friend.</p><p class="referral-join__welcome" data-testid="welcome-offer"><strong>Your welcome offer:</strong> A free class &amp; a &lt;b&gt;towel&lt;/b&gt;</p>',
      );
      expect(html).not.toContain('<b>towel</b>');
      const next = `Your welcome offer once ${escaped} approves your membership: A free class &amp; a &lt;b&gt;towel&lt;/b&gt;`;
      // The form carries the success line for the inline script's in-place success.
      expect(html).toContain(`data-welcome-next="${next}" novalidate>`);
      // The success page says it, identical for a stranger, a member and the referrer.
      const replies: Response[] = [];
      for (const form of [
        { name: 'Órla Stranger', email: 'orla@x.com', website: '' },
        { name: 'Ella Evans', email: 'ella@x.com', website: '' },
        { name: 'Sofia Rossi', email: 'sofia@x.com', website: '' },
      ])
        replies.push(await post(link.code, form).expect(200));
      expect(replies[0]?.text).toContain(
        `<p class="referral-join__welcome-next" data-testid="welcome-offer-next">${next}</p>`,
      );
      for (const reply of replies) expect(reply.text).toBe(replies[0]?.text);
    } finally {
      await owner.put('/api/settings/welcome-offer').send({ kind: 'none' }).expect(200);
    }
    // Without an offer the page says nothing of one.
    const none = (await t.agent().get(`/referral/${link.code}`).expect(200)).text;
    expect(none).not.toContain('welcome offer');
  });

  it('leaves the other /referral paths to the shell', async () => {
    const reply = await t.agent().get(`/referral/${link.code}/more`).expect(200);
    expect(reply.text).toContain('the shell');
  });
});
