import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createTestApp, type TestApp } from '../../../../test/test-app';

describe('web apps, health, docs and cross-cutting HTTP rules (integration)', () => {
  let t: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-web-'));
    const write = (file: string, content: string) => {
      fs.mkdirSync(path.dirname(path.join(webDir, file)), { recursive: true });
      fs.writeFileSync(path.join(webDir, file), content);
    };
    write(
      'shell/index.html',
      '<!doctype html><html><head><title>Grove shell</title></head><body></body></html>',
    );
    write('shell/main.0123abcd89.js', 'console.log("shell")');
    const bundle = 'console.log("a precompressed bundle");'.repeat(40);
    write('shell/app.0123abcd89.js', bundle);
    fs.writeFileSync(
      path.join(webDir, 'shell/app.0123abcd89.js.br'),
      zlib.brotliCompressSync(bundle),
    );
    fs.writeFileSync(path.join(webDir, 'shell/app.0123abcd89.js.gz'), zlib.gzipSync(bundle));
    write('dashboard/mf-manifest.json', '{"name":"dashboard"}');
    write('dashboard/remoteEntry.js', 'var dashboard;');
    write('dashboard/src_Routes.a1b2c3d4e5.js', 'export {}');
    // A deployed version of marketing (npm run remote:deploy), not yet switched to.
    write(
      'remotes/marketing/20261123-120000-0123456789ab/mf-manifest.json',
      '{"name":"marketing","v":2}',
    );
    write('remotes/marketing/20261123-120000-0123456789ab/home.0123abcd89.js', 'console.log("v2")');
    t = await createTestApp({
      WEB_DIST_DIR: webDir,
      REMOTES_DIR: path.join(webDir, 'remotes'),
      REMOTE_REFERRAL_URL: 'https://cdn.example.com/referral/mf-manifest.json',
      ALLOWED_ORIGINS: 'https://partner.example.com',
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('GET /api/health is public and reports the database', async () => {
    const reply = await t.agent().get('/api/health').expect(200);
    expect(reply.body.status).toBe('ok');
    expect(reply.body.info.database.status).toBe('up');
  });

  it('serves OpenAPI at /api/docs', async () => {
    await t
      .agent()
      .get('/api/docs-json')
      .expect(200)
      .expect((reply) => expect(reply.body.paths['/api/members']).toBeDefined());
  });

  it('answers unknown /api routes with a JSON 404', async () => {
    const reply = await t.agent().get('/api/nope').expect(404);
    expect(reply.body.statusCode).toBe(404);
    expect(typeof reply.body.message).toBe('string');
  });

  it('serves the remotes manifest with no-cache, env overriding a URL', async () => {
    const reply = await t.agent().get('/remotes.json').expect(200);
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.body).toEqual({
      marketing: '/remotes/marketing/mf-manifest.json',
      dashboard: '/remotes/dashboard/mf-manifest.json',
      integrations: '/remotes/integrations/mf-manifest.json',
      referral: 'https://cdn.example.com/referral/mf-manifest.json',
    });
  });

  it('serves remote files: manifests and entries revalidate, hashed files are cached long; no SPA fallback', async () => {
    const manifest = await t.agent().get('/remotes/dashboard/mf-manifest.json').expect(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const entry = await t.agent().get('/remotes/dashboard/remoteEntry.js').expect(200);
    expect(entry.headers['cache-control']).toBe('no-cache');
    const chunk = await t.agent().get('/remotes/dashboard/src_Routes.a1b2c3d4e5.js').expect(200);
    expect(chunk.headers['cache-control']).toContain('immutable');
    await t.agent().get('/remotes/dashboard/missing.js').expect(404);
    await t.agent().get('/remotes/dashboard/some/route').expect(404);
    await t.agent().get('/remotes/unknown/mf-manifest.json').expect(404);
  });

  it('switches a remote to a deployed version and back on the next request, no restart', async () => {
    const current = path.join(webDir, 'remotes/current.json');
    const versioned = '/remotes/marketing@20261123-120000-0123456789ab/mf-manifest.json';
    fs.writeFileSync(
      current,
      '{"marketing":"20261123-120000-0123456789ab","referral":"20261123-120000-0123456789ab"}',
    );
    try {
      const manifest = await t.agent().get('/remotes.json').expect(200);
      expect(manifest.body.marketing).toBe(versioned);
      // REMOTE_REFERRAL_URL still wins over current.json.
      expect(manifest.body.referral).toBe('https://cdn.example.com/referral/mf-manifest.json');
      const page = await t.agent().get('/pricing').expect(200);
      expect(page.text).toContain(`<link rel="preload" href="${versioned}"`);
      const file = await t.agent().get(versioned).expect(200);
      expect(file.body).toEqual({ name: 'marketing', v: 2 });
      expect(file.headers['cache-control']).toBe('no-cache');
      const chunk = await t
        .agent()
        .get('/remotes/marketing@20261123-120000-0123456789ab/home.0123abcd89.js')
        .expect(200);
      expect(chunk.headers['cache-control']).toContain('immutable');
      await t.agent().get('/remotes/marketing@20261123-120000-0123456789ab/missing.js').expect(404);
      await t.agent().get('/remotes/marketing@never-deployed/mf-manifest.json').expect(404);
      await t.agent().get('/remotes/marketing@..%2F..%2Fshell/index.html').expect(404);
    } finally {
      fs.rmSync(current);
    }
    const back = await t.agent().get('/remotes.json').expect(200);
    expect(back.body.marketing).toBe('/remotes/marketing/mf-manifest.json');
  });

  it('serves the shell with an SPA fallback to index.html', async () => {
    const home = await t.agent().get('/').expect(200);
    expect(home.text).toContain('Grove shell');
    expect(home.headers['cache-control']).toBe('no-cache');
    const deep = await t.agent().get('/dashboard/prospective-members').expect(200);
    expect(deep.text).toContain('Grove shell');
    const asset = await t.agent().get('/main.0123abcd89.js').expect(200);
    expect(asset.headers['cache-control']).toContain('max-age=31536000');
    await t.agent().get('/missing.js').expect(404);
  });

  it('answers a path no screen has with the shell (its 404 screen) and HTTP 404', async () => {
    for (const known of ['/pricing', '/privacyPolicy/', '/login', '/dashboard/anything'])
      await t.agent().get(known).expect(200);
    for (const unknown of ['/no-such-page', '/pricing/extra', '/login/again']) {
      const reply = await t.agent().get(unknown).expect(404);
      expect(reply.text).toContain('Grove shell');
      expect(reply.headers['content-type']).toContain('text/html');
    }
  });

  it('serves the build’s precompressed Brotli or gzip copy to clients that accept it', async () => {
    const br = await t
      .agent()
      .get('/app.0123abcd89.js')
      .set('Accept-Encoding', 'gzip, br')
      .buffer(true)
      .parse((reply, done) => {
        const chunks: Buffer[] = [];
        reply.on('data', (chunk: Buffer) => chunks.push(chunk));
        reply.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['vary']).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toContain('immutable');
    const gzip = await t
      .agent()
      .get('/app.0123abcd89.js')
      .set('Accept-Encoding', 'gzip')
      .expect(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.text).toContain('a precompressed bundle');
    const plain = await t
      .agent()
      .get('/app.0123abcd89.js')
      .set('Accept-Encoding', 'identity')
      .expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toContain('a precompressed bundle');
  });

  it('sends scripts without document-only headers, and keeps nosniff', async () => {
    const script = await t.agent().get('/main.0123abcd89.js').expect(200);
    expect(script.headers['content-security-policy']).toBeUndefined();
    expect(script.headers['x-frame-options']).toBeUndefined();
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    const page = await t.agent().get('/').expect(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('compresses JSON replies in one piece for clients that accept it: Brotli first, else gzip', async () => {
    // supertest decodes a br or gzip body; its headers still say what was sent.
    const raw = (encoding: string) =>
      t
        .agent()
        .get('/api/docs-json')
        .set('Accept-Encoding', encoding)
        .buffer(true)
        .parse((reply, done) => {
          const chunks: Buffer[] = [];
          reply.on('data', (chunk: Buffer) => chunks.push(chunk));
          reply.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
    const plain = await raw('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toContain('Accept-Encoding');
    const text = (plain.body as Buffer).toString('utf8');
    expect(JSON.parse(text)).toHaveProperty('paths');
    // What Chromium asks for: Brotli, one body with its length (not a chunked stream).
    const br = await raw('gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.headers['vary']).toContain('Accept-Encoding');
    expect(br.headers['transfer-encoding']).toBeUndefined();
    expect(Number(br.headers['content-length'])).toBeLessThan(text.length / 3);
    expect((br.body as Buffer).toString('utf8')).toBe(text);
    const gzip = await raw('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(Number(gzip.headers['content-length'])).toBeLessThan(text.length / 3);
    expect((gzip.body as Buffer).toString('utf8')).toBe(text);
    // A reply under 1 KB is sent as it is.
    const health = await t.agent().get('/api/health').set('Accept-Encoding', 'br').expect(200);
    expect(health.headers['content-encoding']).toBeUndefined();
  });

  it('preloads the manifest of the remote each page needs from index.html', async () => {
    const home = await t.agent().get('/pricing').expect(200);
    expect(home.text).toContain(
      '<link rel="preload" href="/remotes/marketing/mf-manifest.json" as="fetch" crossorigin="anonymous" />',
    );
    // /referral/<code> alone is the join page the API renders (referrals/join-page).
    const join = await t.agent().get('/referral/abc/more').expect(200);
    expect(join.text).toContain('href="https://cdn.example.com/referral/mf-manifest.json"');
    const login = await t.agent().get('/login').expect(200);
    expect(login.text).not.toContain('rel="preload"');
  });

  it('sends a CSP allowing self and the configured remote origins in every directive a remote needs', async () => {
    const reply = await t.agent().get('/');
    const csp = String(reply.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' https://cdn.example.com");
    expect(csp).toContain("style-src 'self' 'unsafe-inline' https://cdn.example.com");
    expect(csp).toContain("img-src 'self' data: https://cdn.example.com");
    expect(csp).toContain("font-src 'self' data: https://cdn.example.com");
    expect(csp).toContain("media-src 'self' https://cdn.example.com");
    expect(csp).toContain("connect-src 'self' https://cdn.example.com");
    // helmet's other headers stay.
    expect(reply.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(reply.headers['strict-transport-security']).toBeDefined();
  });

  describe('Origin check on unsafe methods', () => {
    it('refuses a foreign Origin → 403', async () => {
      const reply = await t
        .agent()
        .post('/api/auth/login')
        .set('Origin', 'https://evil.example.com')
        .send({ email: 'a@b.com', password: 'whatever1' })
        .expect(403);
      expect(reply.body).toEqual({ statusCode: 403, message: 'Origin not allowed' });
      const { agent, user } = await t.signUp();
      await agent
        .delete(`/api/members/${user.id}`)
        .set('Origin', 'http://evil.example.com')
        .expect(403);
    });

    it('allows the request’s own origin, an allow-listed origin, and no Origin', async () => {
      const own = await t
        .agent()
        .post('/api/auth/refresh')
        .set('Host', 'grove.test')
        .set('Origin', 'http://grove.test');
      expect(own.status).toBe(401); // passed the origin check, then no refresh token
      const partner = await t
        .agent()
        .post('/api/auth/refresh')
        .set('Origin', 'https://partner.example.com');
      expect(partner.status).toBe(401);
      await t.agent().post('/api/auth/refresh').expect(401);
    });

    it('does not check safe methods', async () => {
      await t.agent().get('/api/health').set('Origin', 'https://evil.example.com').expect(200);
    });
  });
});
