import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MESSAGES, type PrerenderedManifest } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';

const TEST_ANSWER = 'integration-code';

/** A shell build and a marketing build whose prerendered contact page has the form slot. */
function writeWebBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-contact-page-'));
  fs.mkdirSync(path.join(dir, 'shell'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'shell/index.html'),
    '<!doctype html><html lang=en><head><title>Grove</title><script defer src=/main.0123abcd89.js></script></head>' +
      '<body><noscript>Grove needs JavaScript to run.</noscript><div id=root></div></body></html>',
  );
  const prerendered = path.join(dir, 'marketing/prerendered');
  fs.mkdirSync(prerendered, { recursive: true });
  fs.writeFileSync(path.join(dir, 'marketing/mf-manifest.json'), '{"name":"marketing"}');
  const manifest: PrerenderedManifest = {
    stylesheet: 'page.css',
    pages: [
      {
        path: '/contact',
        file: 'contact.html',
        title: 'Contact · Grove',
        description: 'Talk to the Grove team.',
        headline: 'Contact us',
      },
    ],
  };
  fs.writeFileSync(path.join(prerendered, 'manifest.json'), JSON.stringify(manifest));
  fs.writeFileSync(path.join(prerendered, 'page.css'), '.mk-contact{display:grid}');
  fs.writeFileSync(
    path.join(prerendered, 'contact.html'),
    '<main class="mk-contact"><h1>Contact us</h1><div class="mk-contact__form-slot" data-grove-form-slot="contact">' +
      '<div class="g-spinner-wrap">Loading the contact form…</div></div></main>',
  );
  return dir;
}

/** The form's fields as the browser posts them (urlencoded). */
const fields = (overrides: Record<string, string> = {}): Record<string, string> => ({
  firstName: 'Siobhán',
  lastName: "O'Brien",
  email: 'siobhan@example.ie',
  country: 'IE',
  phoneNumber: '087 123 4567',
  website: 'corkclimbing.ie',
  message: 'Could we see a walkthrough?',
  captchaAnswer: TEST_ANSWER,
  ...overrides,
});

const tokenOf = (html: string): string =>
  /name="captchaToken" value="([^"]+)"/.exec(html)?.[1] ?? '';

describe('the contact page without JavaScript (integration)', () => {
  let t: TestApp;
  let webDir: string;
  const stored = async (): Promise<number> =>
    (
      (await t.dataSource.query(`SELECT count(*)::int AS n FROM contact_messages`)) as {
        n: number;
      }[]
    )[0].n;
  const freshToken = async (): Promise<string> =>
    tokenOf((await t.agent().get('/contact').expect(200)).text);

  beforeAll(async () => {
    webDir = writeWebBuild();
    t = await createTestApp({
      WEB_DIST_DIR: webDir,
      CAPTCHA_IMAGE_TEST_ANSWER: TEST_ANSWER,
      THROTTLE_CONTACT_LIMIT: '1000',
    });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('answers /contact with the prerendered page and the form in its slot, a new code each time', async () => {
    const reply = await t.agent().get('/contact').expect(200);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['referrer-policy']).toBe('same-origin');
    expect(reply.text).toContain('<title>Contact · Grove</title>');
    expect(reply.text).toMatch(
      /data-grove-form-slot="contact"><form class="grove-server-form[^"]*" method="post" action="\/contact\/send"/,
    );
    for (const label of ['First Name', 'Last Name', 'Email', 'Country', 'Phone', 'Company Website'])
      expect(reply.text).toContain(`>${label}</label>`);
    expect(reply.text).toContain('<svg');
    expect(tokenOf(reply.text)).not.toBe('');
    expect(await freshToken()).not.toBe(tokenOf(reply.text));
  });

  it('sends a message: 200 with the thanks, stored once; the same code again is refused', async () => {
    const before = await stored();
    const captchaToken = await freshToken();
    const reply = await t
      .agent()
      .post('/contact/send')
      .type('form')
      .send(fields({ captchaToken }))
      .expect(200);
    expect(reply.text).toContain(MESSAGES.contactSuccess.replace("'", '&#39;'));
    expect(reply.text).not.toContain('<form class="grove-server-form');
    expect(await stored()).toBe(before + 1);

    const again = await t
      .agent()
      .post('/contact/send')
      .type('form')
      .send(fields({ captchaToken }))
      .expect(400);
    expect(again.text).toContain(MESSAGES.contactFailed);
    expect(await stored()).toBe(before + 1);
  });

  it('answers bad fields with 400, each message under its field and the typed values (escaped); nothing stored', async () => {
    const before = await stored();
    const reply = await t
      .agent()
      .post('/contact/send')
      .type('form')
      .send(
        fields({
          firstName: '<script>alert(1)</script>',
          email: 'siobhan@',
          phoneNumber: '12',
          website: 'not a site',
          message: '',
          captchaAnswer: '',
          captchaToken: await freshToken(),
        }),
      )
      .expect(400);
    for (const message of [
      MESSAGES.invalidName,
      MESSAGES.invalidEmail,
      MESSAGES.invalidPhone,
      MESSAGES.invalidUrl,
      MESSAGES.messageRequired,
      MESSAGES.captchaRequired,
    ])
      expect(reply.text).toContain(`class="g-field__error">${message}</div>`);
    expect(reply.text).not.toContain('<script>alert(1)</script>');
    expect(reply.text).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(reply.text).toContain('value="siobhan@"');
    expect(await stored()).toBe(before);
  });

  it('refuses a wrong code, a made-up token, a repeated field or no body with a 400 page, never a 500', async () => {
    const before = await stored();
    const wrong = await t
      .agent()
      .post('/contact/send')
      .type('form')
      .send(fields({ captchaAnswer: 'WRONG', captchaToken: await freshToken() }))
      .expect(400);
    expect(wrong.text).toContain(MESSAGES.contactFailed);
    expect(wrong.text).toContain('value="Siobhán"');
    await t
      .agent()
      .post('/contact/send')
      .type('form')
      .send(fields({ captchaToken: '1.abc.def' }))
      .expect(400);
    await t
      .agent()
      .post('/contact/send')
      .type('form')
      .send('firstName=A&firstName=B&captchaAnswer=x')
      .expect(400);
    await t
      .agent()
      .post('/contact/send')
      .set('Content-Type', 'application/xml')
      .send('<a/>')
      .expect(400);
    expect(await stored()).toBe(before);
  });

  it('refuses a post from another site with a 403 page', async () => {
    const reply = await t
      .agent()
      .post('/contact/send')
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send(fields({ captchaToken: await freshToken() }))
      .expect(403);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.text).toContain('<h1>Contact us</h1>');
  });
});

describe('the contact page without JavaScript, throttled (integration)', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = writeWebBuild();
    t = await createTestApp({
      WEB_DIST_DIR: webDir,
      CAPTCHA_IMAGE_TEST_ANSWER: TEST_ANSWER,
      THROTTLE_CONTACT_LIMIT: '1',
    });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('answers past THROTTLE_CONTACT_LIMIT with a 429 page, like the JSON form', async () => {
    const token = async () => tokenOf((await t.agent().get('/contact').expect(200)).text);
    await t
      .agent()
      .post('/contact/send')
      .type('form')
      .send(fields({ captchaToken: await token() }))
      .expect(200);
    const reply = await t
      .agent()
      .post('/contact/send')
      .type('form')
      .send(fields({ captchaToken: await token() }))
      .expect(429);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.text).toContain('role="alert"');
  });
});
