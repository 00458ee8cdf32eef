import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  MARKETING_PAGES,
  PRERENDERED_ASSET_BASE,
  type PrerenderedManifest,
} from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { PrerenderedPages } from './prerendered-pages';
import { PRERENDERED_APP_LOADER_SHA256 } from './prerendered-app-loader';

/** Link previews fetch a page once and run no JavaScript. */
const LINK_PREVIEW_AGENTS = [
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'WhatsApp/2.23.20.0',
];

/** The shell's index.html as the production build writes it (minified: unquoted attributes). */
const SHELL_INDEX =
  '<!doctype html><html lang=en><head><meta charset=utf-8>' +
  '<meta name=description content="Grove turns your members’ friends into new members.">' +
  '<link rel=preload href=/remotes.json as=fetch crossorigin=anonymous>' +
  '<title>Grove</title><script defer src=/main.0123abcd89.js></script>' +
  '<link rel=preload href=/14.0123abcd89.js as=script></head>' +
  '<body><noscript>Grove needs JavaScript to run.</noscript><div id=root></div></body></html>';

/** A marketing build with prerendered pages, each naming `label` (a version's own words). */
function writeMarketingBuild(folder: string, label: string): void {
  const pages = [...MARKETING_PAGES.map((segment) => `/${segment}`), null];
  const manifest: PrerenderedManifest = {
    stylesheet: 'page.css',
    pages: pages.map((pagePath) => {
      const name = pagePath === null ? '404' : pagePath.slice(1) || 'home';
      return {
        path: pagePath,
        file: `${name}.html`,
        title: `${name} page · Grove`,
        description: `What the ${name} page says (${label}).`,
        headline: `The ${name} headline`,
        image: `og/${name}.png`,
        imageType: 'image/png',
      };
    }),
  };
  const dir = path.join(folder, 'prerendered');
  fs.mkdirSync(path.join(dir, 'og'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'mf-manifest.json'), '{"name":"marketing"}');
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  fs.writeFileSync(path.join(dir, 'page.css'), '.mk-main{color:#123}');
  for (const page of manifest.pages) {
    fs.writeFileSync(
      path.join(dir, page.file),
      `<main class="mk-main"><h1>${page.headline}</h1><p>${label} text of ${page.file}</p>` +
        `<img src="${PRERENDERED_ASSET_BASE}assets/poster.0123456789abcdef.webp" alt=""></main>`,
    );
  }
}

describe('prerendered marketing pages (integration)', () => {
  let t: TestApp;
  let webDir: string;
  const version = '20261129-030000-0123456789ab';

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-prerendered-'));
    fs.mkdirSync(path.join(webDir, 'shell'), { recursive: true });
    fs.writeFileSync(path.join(webDir, 'shell/index.html'), SHELL_INDEX);
    fs.writeFileSync(path.join(webDir, 'shell/main.0123abcd89.js'), 'console.log("shell")');
    writeMarketingBuild(path.join(webDir, 'marketing'), 'built');
    writeMarketingBuild(path.join(webDir, 'remotes/marketing', version), 'deployed');
    t = await createTestApp({
      WEB_DIST_DIR: webDir,
      REMOTES_DIR: path.join(webDir, 'remotes'),
      PUBLIC_ORIGIN: 'https://grove.example.com',
    });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('answers each public path, for a link preview, with its own title, description, image and headline in the first HTML', async () => {
    for (const segment of MARKETING_PAGES) {
      const name = segment || 'home';
      for (const agent of LINK_PREVIEW_AGENTS) {
        const page = await t.agent().get(`/${segment}`).set('User-Agent', agent).expect(200);
        expect(page.headers['content-type']).toContain('text/html');
        expect(page.text).toContain(`<title>${name} page · Grove</title>`);
        expect(page.text).toContain(
          `<meta name="description" content="What the ${name} page says (built)." />`,
        );
        expect(page.text).not.toContain('Grove turns your members’ friends');
        expect(page.text.match(/name="?description/g)).toHaveLength(1);
        expect(page.text).toContain(
          `<meta property="og:image" content="https://grove.example.com/remotes/marketing/prerendered/og/${name}.png" />`,
        );
        expect(page.text).toContain(`<meta property="og:title" content="${name} page · Grove" />`);
        expect(page.text).toContain(
          `<link rel="canonical" href="https://grove.example.com/${segment}" />`,
        );
        expect(page.text).toContain('<meta name="twitter:card" content="summary_large_image" />');
        expect(page.text).toContain(`<h1>The ${name} headline</h1>`);
        // Its stylesheet first in the body, after whatever the app adds to the head.
        expect(page.text).toContain(
          '<body><style id="grove-prerendered-style">.mk-main{color:#123}</style><div id="grove-prerendered">',
        );
        // The page's images come from where the remote is served.
        expect(page.text).toContain('src="/remotes/marketing/assets/poster.0123456789abcdef.webp"');
        // The shell's script still boots the app, over a hidden root: through the loader, inline
        // (no request before the first paint) and allowed by the CSP by its hash, which fetches
        // it on the visitor's first use or once the page is idle.
        expect(page.text).toContain('<script data-app="/main.0123abcd89.js">(');
        expect(String(page.headers['content-security-policy'])).toContain(
          `'sha256-${PRERENDERED_APP_LOADER_SHA256}'`,
        );
        expect(page.text).toContain('<div id="root" hidden></div>');
        // Nothing of the app's is fetched ahead of the first paint but its first script.
        expect(page.text).not.toContain('preload');
        expect(page.text).not.toContain('Grove needs JavaScript to run.');
      }
    }
  });

  it('describes the offer in JSON-LD on home and pricing, and Grove on every page', async () => {
    const pricing = await t.agent().get('/pricing').expect(200);
    const blocks = [
      ...pricing.text.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g),
    ].map((match) => JSON.parse(match[1]));
    expect(blocks.map((block) => block['@type'])).toEqual(['Organization', 'SoftwareApplication']);
    expect(blocks[1].offers).toMatchObject({
      price: '99.00',
      priceCurrency: 'USD',
      description: '$99 per month. Free until your first 2 members arrive through Grove.',
    });
    const about = await t.agent().get('/about').expect(200);
    expect(about.text.match(/application\/ld\+json/g)).toHaveLength(1);
  });

  it('answers an unknown path with the prerendered 404 screen, not indexed', async () => {
    const page = await t.agent().get('/no-such-page').expect(404);
    expect(page.text).toContain('<h1>The 404 headline</h1>');
    expect(page.text).toContain('<meta name="robots" content="noindex" />');
    expect(page.text).not.toContain('rel="canonical"');
  });

  it('serves the pages of the version current.json names, with nothing of the shell changed', async () => {
    const shellBefore = fs.readFileSync(path.join(webDir, 'shell/index.html'), 'utf8');
    const current = path.join(webDir, 'remotes/current.json');
    fs.writeFileSync(current, JSON.stringify({ marketing: version }));
    try {
      const page = await t.agent().get('/pricing').expect(200);
      expect(page.text).toContain('deployed text of pricing.html');
      expect(page.text).toContain(
        `content="https://grove.example.com/remotes/marketing@${version}/prerendered/og/pricing.png"`,
      );
      expect(page.text).toContain(`src="/remotes/marketing@${version}/assets/poster.`);
    } finally {
      fs.rmSync(current);
    }
    const back = await t.agent().get('/pricing').expect(200);
    expect(back.text).toContain('built text of pricing.html');
    expect(fs.readFileSync(path.join(webDir, 'shell/index.html'), 'utf8')).toBe(shellBefore);
  });

  it('serves the shell page as before where there is no prerendered page', async () => {
    const login = await t.agent().get('/login').expect(200);
    expect(login.text).toBe(SHELL_INDEX);
    const dashboard = await t.agent().get('/dashboard').expect(200);
    expect(dashboard.text).toContain('<meta name="robots" content="noindex" />');
    expect(dashboard.text).toContain('<div id=root></div>');

    const prerendered = path.join(webDir, 'marketing/prerendered');
    const aside = `${prerendered}-aside`;
    fs.renameSync(prerendered, aside);
    try {
      const page = await t.agent().get('/pricing').expect(200);
      expect(page.text).toContain('<title>Grove</title>');
      expect(page.text).toContain('Grove needs JavaScript to run.');
      expect(page.text).toContain('<div id=root></div>');
      expect(page.text).not.toContain('grove-prerendered');
    } finally {
      fs.renameSync(aside, prerendered);
    }
  });

  it('serves robots.txt and a sitemap of the public pages only', async () => {
    const robots = await t.agent().get('/robots.txt').expect(200);
    expect(robots.headers['content-type']).toContain('text/plain');
    expect(robots.text).toContain('Disallow: /dashboard\n');
    expect(robots.text).toContain('Disallow: /mindbody-setup\n');
    expect(robots.text).toContain('Sitemap: https://grove.example.com/sitemap.xml');
    const sitemap = await t.agent().get('/sitemap.xml').expect(200);
    expect(sitemap.headers['content-type']).toContain('application/xml');
    const locs = [...sitemap.text.matchAll(/<loc>(.*?)<\/loc>/g)].map((match) => match[1]);
    expect(locs).toEqual(MARKETING_PAGES.map((segment) => `https://grove.example.com/${segment}`));
    expect(sitemap.text).not.toMatch(/dashboard|referral|member|login/);
  });
});

describe('prerendered pages of a remote on its own origin (integration)', () => {
  let t: TestApp;
  let remoteDir: string;
  let server: http.Server;
  let origin: string;

  beforeAll(async () => {
    remoteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-remote-origin-'));
    writeMarketingBuild(path.join(remoteDir, 'marketing'), 'on the CDN');
    fs.mkdirSync(path.join(remoteDir, 'web/shell'), { recursive: true });
    fs.writeFileSync(path.join(remoteDir, 'web/shell/index.html'), SHELL_INDEX);
    server = http.createServer((request, response) => {
      const file = path.join(remoteDir, decodeURIComponent(request.url ?? '/'));
      if (!file.startsWith(remoteDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'Access-Control-Allow-Origin': '*' }).end(fs.readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestApp({
      WEB_DIST_DIR: path.join(remoteDir, 'web'),
      REMOTES_DIR: path.join(remoteDir, 'remotes'),
      REMOTE_MARKETING_URL: `${origin}/marketing/mf-manifest.json`,
      PUBLIC_ORIGIN: 'https://grove.example.com',
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(remoteDir, { recursive: true, force: true });
  });

  it('puts the page fetched from the remote origin into the first HTML, its images on that origin', async () => {
    const page = await t
      .agent()
      .get('/pricing')
      .set('User-Agent', LINK_PREVIEW_AGENTS[1])
      .expect(200);
    expect(page.text).toContain('<title>pricing page · Grove</title>');
    expect(page.text).toContain('on the CDN text of pricing.html');
    expect(page.text).toContain(
      `<meta property="og:image" content="${origin}/marketing/prerendered/og/pricing.png" />`,
    );
    expect(page.text).toContain(`src="${origin}/marketing/assets/poster.0123456789abcdef.webp"`);
  });

  it('gives no page when the remote origin cannot be reached', async () => {
    const unreachable = new PrerenderedPages();
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/marketing/mf-manifest.json`;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      unreachable.page({ url, base: url.replace(/[^/]*$/, '') }, '/pricing'),
    ).resolves.toBeNull();
  });
});

describe('the stylesheet a prerendered page gets (integration)', () => {
  let folder: string;

  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-page-css-'));
    writeMarketingBuild(folder, 'built');
    const file = path.join(folder, 'prerendered/manifest.json');
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as PrerenderedManifest;
    for (const page of manifest.pages)
      if (page.path === '/pricing') page.stylesheet = 'css/pricing.css';
    fs.writeFileSync(file, JSON.stringify(manifest));
    fs.mkdirSync(path.join(folder, 'prerendered/css'));
    fs.writeFileSync(path.join(folder, 'prerendered/css/pricing.css'), '.mk-pricing{color:#456}');
  });
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it("inlines the page's own stylesheet where the build made one, else the remote's whole one", async () => {
    const pages = new PrerenderedPages();
    const location = { folder, base: '/remotes/marketing/' };
    await expect(pages.page(location, '/pricing')).resolves.toMatchObject({
      css: '.mk-pricing{color:#456}',
    });
    await expect(pages.page(location, '/about')).resolves.toMatchObject({
      css: '.mk-main{color:#123}',
    });
  });

  it('gives no page when its own stylesheet is missing (the shell page is served as before)', async () => {
    fs.rmSync(path.join(folder, 'prerendered/css/pricing.css'));
    await expect(
      new PrerenderedPages().page({ folder, base: '/remotes/marketing/' }, '/pricing'),
    ).resolves.toBeNull();
  });
});
