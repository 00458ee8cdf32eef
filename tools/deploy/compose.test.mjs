// Checks docker-compose.yml, Grove's production topology, without running it (`npm run
// test:deploy`, part of `npm test`; `npm run test:compose` builds and runs it): one base image
// (debian:trixie-slim) for every Containerfile stage, every runtime image unprivileged with a
// health check; every build context, Containerfile and file it copies exists; secrets are required (`${VAR:?…}`), never
// defaulted; cookies are Secure; the API runs ≥ 2 replicas behind the proxy with TRUST_PROXY set;
// each remote has its own static service the proxy routes to; every service has a health check;
// and the proxy and remote configs pass `haproxy -c` / `nginx -t` when those programs exist.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { selfSignedCertificate } from './tls.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const composeFile = path.join(root, 'docker-compose.yml');
const compose = parse(fs.readFileSync(composeFile, 'utf8'), { merge: true });
const services = compose.services ?? {};

const REMOTES = ['marketing', 'dashboard', 'integrations', 'referral'];
const SECRETS = ['JWT_SECRET', 'ALTCHA_HMAC_KEY', 'MINDBODY_CREDENTIALS_KEY', 'MINDBODY_API_KEY'];
/** Names that hold a secret: none may have a default in the compose file. */
const SECRET_NAME = /SECRET|PASSWORD|_KEY$/;

/** A service's environment as an object (compose allows a list of `NAME=value` too). */
function environmentOf(service) {
  const env = service.environment ?? {};
  if (!Array.isArray(env)) return env;
  return Object.fromEntries(
    env.map((line) => [line.split('=')[0], line.slice(line.indexOf('=') + 1)]),
  );
}

/** Whether a command exists on this machine. */
function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

/** Files a Dockerfile copies from its build context (`COPY`/`ADD` without `--from`). */
function copiedSources(dockerfile) {
  const sources = [];
  for (const line of fs.readFileSync(dockerfile, 'utf8').split('\n')) {
    const match = /^\s*(COPY|ADD)\s+(.*)$/i.exec(line);
    if (!match || /--from=/.test(match[2])) continue;
    const parts = match[2].split(/\s+/).filter((part) => part && !part.startsWith('--'));
    sources.push(...parts.slice(0, -1));
  }
  return sources;
}

/** The proxy service: the one built from the Containerfile's `proxy` target (HAProxy). */
const proxyName = Object.keys(services).find((name) => services[name].build?.target === 'proxy');
/** The one image every Grove image starts from (tools/deploy/base-image.sh). */
const BASE_IMAGE = 'debian:trixie-slim';

describe('docker-compose.yml (production topology)', () => {
  it('has postgres, the API, a reverse proxy and one static service per remote', () => {
    for (const name of ['postgres', 'api', ...REMOTES])
      assert.ok(services[name], `service ${name} is missing`);
    assert.ok(proxyName, 'no haproxy or nginx service');
    assert.ok(services[proxyName].ports?.length > 0, 'the proxy publishes no port');
    for (const name of Object.keys(services)) {
      if (name !== proxyName)
        assert.equal(
          services[name].ports,
          undefined,
          `${name} must be reached through the proxy only`,
        );
    }
  });

  it(`names one base image only: every FROM is ${BASE_IMAGE} or an earlier stage, every service is built here`, () => {
    const containerfiles = new Set();
    for (const [name, service] of Object.entries(services)) {
      assert.ok(service.build, `${name} is not built from this repository`);
      assert.match(service.image ?? '', /^localhost\/grove-/, `${name}: image ${service.image}`);
      containerfiles.add(
        path.resolve(root, service.build.context ?? '.', service.build.dockerfile),
      );
    }
    for (const file of containerfiles) {
      const stages = new Set();
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
        if (!from) continue;
        assert.ok(
          from[1] === BASE_IMAGE || stages.has(from[1]),
          `${path.relative(root, file)}: FROM ${from[1]} is neither ${BASE_IMAGE} nor an earlier stage`,
        );
        if (from[2]) stages.add(from[2]);
      }
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/--from=(\S+)/g))
        assert.ok(stages.has(match[1]), `COPY --from=${match[1]} is not a stage`);
    }
  });

  it('runs every runtime image as an unprivileged user, with a health check', () => {
    const text = fs.readFileSync(path.join(root, 'Containerfile'), 'utf8');
    const targets = new Set(Object.values(services).map((service) => service.build.target));
    for (const target of targets) {
      const stage = new RegExp(
        `^FROM \\S+ AS ${target}\\n([\\s\\S]*?)(?=^FROM |$(?![\\s\\S]))`,
        'm',
      ).exec(text);
      assert.ok(stage, `no stage ${target}`);
      assert.match(stage[1], /^USER (?!root)\w+/m, `${target} runs as root`);
      assert.match(stage[1], /^HEALTHCHECK /m, `${target} has no HEALTHCHECK`);
    }
  });

  it('builds from contexts, Dockerfiles and copied files that exist', () => {
    for (const [name, service] of Object.entries(services)) {
      if (!service.build) {
        assert.ok(service.image, `${name} has neither build nor image`);
        continue;
      }
      const build = typeof service.build === 'string' ? { context: service.build } : service.build;
      const context = path.resolve(root, build.context ?? '.');
      assert.ok(
        fs.statSync(context).isDirectory(),
        `${name}: build context ${build.context} does not exist`,
      );
      const dockerfile = path.resolve(context, build.dockerfile ?? 'Containerfile');
      assert.ok(fs.existsSync(dockerfile), `${name}: ${dockerfile} does not exist`);
      for (const source of copiedSources(dockerfile)) {
        if (source === '.') continue;
        assert.ok(
          fs.existsSync(path.resolve(context, source)),
          `${name}: ${path.relative(root, dockerfile)} copies ${source}, which does not exist`,
        );
      }
      for (const arg of Object.keys(build.args ?? {})) {
        assert.match(
          fs.readFileSync(dockerfile, 'utf8'),
          new RegExp(`^ARG ${arg}\\b`, 'm'),
          `${name}: build arg ${arg} is not declared`,
        );
      }
    }
  });

  it('mounts config files that exist', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const volume of service.volumes ?? []) {
        const source = typeof volume === 'string' ? volume.split(':')[0] : volume.source;
        if (!source.startsWith('.') && !source.startsWith('/')) continue; // a named volume
        assert.ok(
          fs.existsSync(path.resolve(root, source)),
          `${name}: mounted ${source} does not exist`,
        );
      }
    }
  });

  it('requires every secret (${VAR:?…}) and defaults none', () => {
    const api = environmentOf(services.api);
    for (const secret of SECRETS) {
      assert.match(
        String(api[secret]),
        new RegExp(`^\\$\\{${secret}:\\?.+\\}$`),
        `${secret} must be \${${secret}:?…}`,
      );
    }
    assert.match(
      String(environmentOf(services.postgres).POSTGRES_PASSWORD),
      /^\$\{POSTGRES_PASSWORD:\?.+\}$/,
    );
    // The password apart from the URL (any characters), never a default.
    assert.match(String(api.PGPASSWORD), /^\$\{POSTGRES_PASSWORD:\?.+\}$/);
    // The API's own role (its password hex, required); the owner migrates.
    assert.match(
      String(api.DATABASE_URL),
      /^postgres:\/\/grove_api:\$\{POSTGRES_API_PASSWORD:\?.+\}@postgres:5432\/grove$/,
    );
    assert.match(String(api.DATABASE_MIGRATION_URL), /^postgres:\/\/grove@postgres:5432\/grove$/);
    assert.match(String(api.PUBLIC_ORIGIN), /^\$\{PUBLIC_ORIGIN:\?.+\}$/);
    assert.match(String(compose.secrets?.tls_pem?.file), /^\$\{GROVE_TLS_PEM:\?.+\}$/);
    const text = fs.readFileSync(composeFile, 'utf8');
    for (const [, name, fallback] of text.matchAll(/\$\{([A-Z0-9_]+):?-([^}]*)\}/g)) {
      if (SECRET_NAME.test(name))
        assert.equal(fallback, '', `${name} has the default '${fallback}'`);
    }
    for (const [name, service] of Object.entries(services)) {
      for (const [key, value] of Object.entries(environmentOf(service))) {
        if (SECRET_NAME.test(key) && !String(value).startsWith('${'))
          assert.fail(`${name}: ${key} is written in the file`);
      }
    }
  });

  it('gives no variable an empty default (podman-compose 1.0.3 passes `${X:-}` on as that literal text)', () => {
    const text = fs
      .readFileSync(composeFile, 'utf8')
      .split('\n')
      .filter((line) => !line.trim().startsWith('#'))
      .join('\n');
    const empty = [...text.matchAll(/\$\{([A-Z0-9_]+):?-\}/g)].map(([, name]) => name);
    assert.deepEqual(empty, [], `write these as plain \${NAME}: ${empty.join(', ')}`);
  });

  it('runs the API in production: Secure cookies, no demo business, the proxy hop trusted, ≥ 2 replicas', () => {
    const api = environmentOf(services.api);
    assert.equal(String(api.NODE_ENV), 'production');
    assert.equal(String(api.COOKIE_SECURE), 'true');
    assert.notEqual(String(api.GROVE_SEED_DEMO ?? 'false'), 'true');
    assert.equal(String(api.TRUST_PROXY), '1');
    assert.ok(Number(services.api.deploy?.replicas) >= 2, 'deploy.replicas must be at least 2');
    assert.equal(
      services.api.container_name,
      undefined,
      'a container_name allows one replica only',
    );
  });

  it('points each REMOTE_<NAME>_URL at a remote served by its own nginx service', () => {
    const api = environmentOf(services.api);
    const proxyConfig = proxyConfigFile();
    const routes = fs.readFileSync(proxyConfig, 'utf8');
    for (const remote of REMOTES) {
      const url = String(api[`REMOTE_${remote.toUpperCase()}_URL`]);
      assert.match(
        url,
        new RegExp(`/remotes/${remote}/mf-manifest\\.json\\}?$`),
        `REMOTE_${remote.toUpperCase()}_URL`,
      );
      const build = services[remote].build;
      assert.equal(build.target, 'remote');
      assert.equal(build.args?.REMOTE, remote);
      assert.match(
        routes,
        new RegExp(`path_beg /remotes/${remote}/`),
        `the proxy does not route /remotes/${remote}/`,
      );
      assert.match(
        routes,
        new RegExp(`\\b${remote}:8080\\b`),
        `the proxy does not reach ${remote}:8080`,
      );
    }
    const nginx = fs.readFileSync(path.join(root, 'deploy/nginx/remote-headers.conf'), 'utf8');
    assert.match(nginx, /add_header Access-Control-Allow-Origin/);
  });

  it('gives every service a health check', () => {
    for (const [name, service] of Object.entries(services)) {
      const test = service.healthcheck?.test;
      assert.ok(
        Array.isArray(test) ? test.length > 1 : Boolean(test),
        `${name} has no health check`,
      );
      assert.notEqual(service.healthcheck?.disable, true, `${name} disables its health check`);
    }
    for (const dependency of Object.values(services[proxyName].depends_on ?? {})) {
      assert.equal(dependency.condition, 'service_healthy');
    }
  });

  it(
    'has a proxy config that HAProxy accepts',
    { skip: !has('haproxy') && 'haproxy is not installed' },
    () => {
      const config = fs.readFileSync(proxyConfigFile(), 'utf8');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-compose-'));
      try {
        // The certificate is the deployment's (the tls_pem secret); a throwaway one stands in.
        const pem = selfSignedCertificate(dir, 'grove.test').pem;
        const checked = path.join(dir, 'haproxy.cfg');
        fs.writeFileSync(checked, config.replaceAll('/run/secrets/tls_pem', pem));
        const result = spawnSync('haproxy', ['-c', '-f', checked], { encoding: 'utf8' });
        assert.equal(result.status, 0, `haproxy -c failed:\n${result.stdout}${result.stderr}`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it(
    'has a remote config that nginx accepts',
    { skip: !has('nginx') && 'nginx is not installed' },
    () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-nginx-'));
      try {
        const server = fs
          .readFileSync(path.join(root, 'deploy/nginx/remote.conf'), 'utf8')
          .replaceAll(
            '/etc/nginx/snippets/remote-headers.conf',
            path.join(root, 'deploy/nginx/remote-headers.conf'),
          );
        fs.writeFileSync(path.join(dir, 'remote.conf'), server);
        fs.writeFileSync(
          path.join(dir, 'nginx.conf'),
          `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  include ${dir}/remote.conf;\n}\n`,
        );
        const result = spawnSync(
          'nginx',
          ['-t', '-q', '-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`],
          { encoding: 'utf8' },
        );
        assert.equal(result.status, 0, `nginx -t failed:\n${result.stdout}${result.stderr}`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

/** A free local TCP port. */
async function freePort() {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An HTTP server standing in for one service: it answers with its name and the headers it saw. */
async function startStub(name) {
  const server = http.createServer((request, response) => {
    response.setHeader('Content-Type', 'application/json');
    response.end(JSON.stringify({ service: name, url: request.url, headers: request.headers }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => new Promise((resolve) => server.close(resolve));
  return { name, port: server.address().port, close };
}

/** One GET to the proxy; `https` requests accept the throwaway certificate. */
function send(url, headers = {}) {
  const client = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const options = { headers, rejectUnauthorized: false };
    const request = client.get(url, options, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode, headers: response.headers, body }),
      );
    });
    request.on('error', reject);
    request.setTimeout(5_000, () => request.destroy(new Error(`no answer from ${url}`)));
  });
}

/** The proxy's config file in this repository (what the `proxy` stage copies to /etc/haproxy). */
function proxyConfigFile() {
  const text = fs.readFileSync(path.join(root, 'Containerfile'), 'utf8');
  const copy = /^COPY (\S+) \/etc\/haproxy\/haproxy\.cfg$/m.exec(text);
  assert.ok(copy, 'the proxy stage copies no haproxy.cfg');
  return path.resolve(root, copy[1]);
}

describe(
  'deploy/haproxy/haproxy.cfg with real traffic (services replaced by local stubs)',
  {
    skip: !has('haproxy') && 'haproxy is not installed',
  },
  () => {
    let dir;
    let haproxy;
    let stubs = {};
    let httpPort;
    let httpsPort;
    const routes = ['/api/health', ...REMOTES.map((name) => `/remotes/${name}/mf-manifest.json`)];

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-haproxy-'));
      for (const name of ['api', ...REMOTES]) stubs[name] = await startStub(name);
      httpPort = await freePort();
      httpsPort = await freePort();
      // Docker's DNS is not here: each server template becomes one server at its stub.
      let config = fs
        .readFileSync(proxyConfigFile(), 'utf8')
        .replaceAll('/run/secrets/tls_pem', selfSignedCertificate(dir, 'grove.test').pem)
        .replace('bind :8080', `bind 127.0.0.1:${httpPort}`)
        .replace('bind :8443', `bind 127.0.0.1:${httpsPort}`)
        .replace(/^resolvers docker[\s\S]*?(?=^\S)/m, '')
        .replaceAll(' resolvers docker init-addr none', '');
      for (const { name, port } of Object.values(stubs)) {
        const template = new RegExp(`server-template ${name} \\d+ ${name}:\\d+`);
        config = config.replace(template, `server ${name}1 127.0.0.1:${port}`);
      }
      assert.doesNotMatch(config, /^\s*(server-template|resolvers)\b|resolvers docker/m);
      const file = path.join(dir, 'haproxy.cfg');
      fs.writeFileSync(file, config);
      haproxy = spawn('haproxy', ['-db', '-f', file], { stdio: 'ignore' });
      // Until the health checks have seen every stub up (rise 2 × inter 2 s at most).
      const deadline = Date.now() + 15_000;
      for (;;) {
        const replies = await Promise.all(
          routes.map((route) =>
            send(`https://127.0.0.1:${httpsPort}${route}`).catch(() => ({ status: 0 })),
          ),
        );
        if (replies.every((reply) => reply.status === 200)) break;
        if (Date.now() > deadline) {
          throw new Error(`HAProxy does not route to every stub: ${replies.map((r) => r.status)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });

    after(async () => {
      haproxy?.kill('SIGTERM');
      await Promise.all(Object.values(stubs).map((stub) => stub.close()));
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('redirects HTTP to HTTPS and answers its health check on HTTP', async () => {
      const redirect = await send(`http://127.0.0.1:${httpPort}/dashboard`, { Host: 'grove.test' });
      assert.equal(redirect.status, 301);
      assert.equal(redirect.headers.location, 'https://grove.test/dashboard');
      assert.equal((await send(`http://127.0.0.1:${httpPort}/haproxy-health`)).status, 200);
    });

    it("routes /remotes/<name>/ to that remote's service and everything else to the API", async () => {
      const serviceOf = async (route) =>
        JSON.parse((await send(`https://127.0.0.1:${httpsPort}${route}`)).body).service;
      for (const name of REMOTES) {
        assert.equal(await serviceOf(`/remotes/${name}/remoteEntry.js`), name);
      }
      for (const route of ['/', '/dashboard', '/api/members', '/remotes.json', '/remotes/x/a.js']) {
        assert.equal(await serviceOf(route), 'api', route);
      }
    });

    it('sets X-Forwarded-Proto/-Host itself and appends the client to X-Forwarded-For', async () => {
      const reply = await send(`https://127.0.0.1:${httpsPort}/api/health`, {
        Host: 'grove.test',
        'X-Forwarded-For': '203.0.113.9',
        'X-Forwarded-Proto': 'http',
        'X-Forwarded-Host': 'evil.example',
      });
      const { headers } = JSON.parse(reply.body);
      assert.equal(headers['x-forwarded-proto'], 'https');
      assert.equal(headers['x-forwarded-host'], 'grove.test');
      // TRUST_PROXY=1: the API reads the last entry, the address HAProxy saw, not the client's own.
      assert.equal(headers['x-forwarded-for'].split(',').pop().trim(), '127.0.0.1');
      assert.equal(
        reply.headers['strict-transport-security'],
        'max-age=31536000; includeSubDomains',
      );
    });

    /** The TLS version and suite HAProxy agrees to for a client offering only `options`, or the refusal. */
    const handshake = (options) =>
      new Promise((resolve) => {
        const socket = tls.connect({
          host: '127.0.0.1',
          port: httpsPort,
          servername: 'grove.test',
          rejectUnauthorized: false,
          ...options,
        });
        socket.once('secureConnect', () => {
          resolve({ version: socket.getProtocol(), cipher: socket.getCipher().standardName });
          socket.end();
        });
        socket.once('error', (error) => resolve({ refused: error.code ?? error.message }));
      });

    it("speaks Mozilla's intermediate TLS: forward-secret AEAD suites on TLS 1.2 and 1.3, nothing older or weaker", async () => {
      assert.deepEqual(await handshake({}), {
        version: 'TLSv1.3',
        cipher: 'TLS_AES_256_GCM_SHA384',
      });
      assert.deepEqual(
        await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256' }),
        { version: 'TLSv1.2', cipher: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256' },
      );
      // No forward secrecy (static RSA key exchange), CBC with SHA-1, or TLS 1.1: refused.
      for (const options of [
        { maxVersion: 'TLSv1.2', ciphers: 'AES256-GCM-SHA384' },
        { maxVersion: 'TLSv1.2', ciphers: 'AES128-SHA' },
        { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-SHA' },
        { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' },
      ])
        assert.ok('refused' in (await handshake(options)), JSON.stringify(options));
    });
  },
);

describe(
  'deploy/nginx/remote.conf serving a remote build',
  {
    skip: !has('nginx') && 'nginx is not installed',
  },
  () => {
    let dir;
    let port;
    let nginx;

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-remote-'));
      fs.chmodSync(dir, 0o755); // nginx's workers (nobody when started as root) read the files
      const build = path.join(dir, 'html/remotes/marketing');
      fs.mkdirSync(build, { recursive: true, mode: 0o755 });
      fs.chmodSync(path.join(dir, 'html'), 0o755);
      fs.chmodSync(path.join(dir, 'html/remotes'), 0o755);
      fs.writeFileSync(path.join(build, 'mf-manifest.json'), '{"name":"marketing"}');
      fs.writeFileSync(path.join(build, 'remoteEntry.js'), 'var marketing;');
      fs.writeFileSync(path.join(build, 'page.0123456789abcdef.js'), 'console.log(1);');
      fs.mkdirSync(path.join(build, 'prerendered'), { mode: 0o755 });
      fs.writeFileSync(path.join(build, 'prerendered/manifest.json'), '{"pages":[]}');
      port = await freePort();
      const server = fs
        .readFileSync(path.join(root, 'deploy/nginx/remote.conf'), 'utf8')
        .replace('listen 8080;', `listen 127.0.0.1:${port};`)
        .replace('root /usr/share/nginx/html;', `root ${dir}/html;`)
        .replaceAll('/etc/nginx/snippets/', path.join(root, 'deploy/nginx') + '/');
      fs.writeFileSync(
        path.join(dir, 'nginx.conf'),
        `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\n` +
          `http {\n  access_log off;\n  default_type application/octet-stream;\n` +
          `  types { application/javascript js; application/json json; }\n${server}\n}\n`,
      );
      const args = ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`];
      nginx = spawn('nginx', [...args, '-g', 'daemon off;'], { stdio: 'ignore' });
      const deadline = Date.now() + 10_000;
      while (
        (
          await send(`http://127.0.0.1:${port}/remotes/marketing/mf-manifest.json`).catch(
            () => ({}),
          )
        ).status !== 200
      ) {
        if (Date.now() > deadline) throw new Error(fs.readFileSync(`${dir}/error.log`, 'utf8'));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });

    after(() => {
      nginx?.kill('SIGTERM');
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    const get = (route) =>
      send(`http://127.0.0.1:${port}${route}`, { Origin: 'https://grove.test' });

    it('serves the manifest and remoteEntry.js with CORS, always revalidated', async () => {
      for (const file of ['mf-manifest.json', 'remoteEntry.js']) {
        const reply = await get(`/remotes/marketing/${file}`);
        assert.equal(reply.status, 200);
        assert.equal(reply.headers['access-control-allow-origin'], '*');
        assert.equal(reply.headers['cache-control'], 'no-cache');
        assert.equal(reply.headers['x-content-type-options'], 'nosniff');
      }
    });

    it('serves the prerendered pages (fixed names) with CORS, always revalidated', async () => {
      const reply = await get('/remotes/marketing/prerendered/manifest.json');
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['access-control-allow-origin'], '*');
      assert.equal(reply.headers['cache-control'], 'no-cache');
    });

    it('serves content-hashed chunks with CORS, cached for a year; nothing outside /remotes/', async () => {
      const chunk = await get('/remotes/marketing/page.0123456789abcdef.js');
      assert.equal(chunk.status, 200);
      assert.equal(chunk.body, 'console.log(1);');
      assert.equal(chunk.headers['access-control-allow-origin'], '*');
      assert.equal(chunk.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal((await get('/remotes/marketing/missing.js')).status, 404);
      assert.equal((await get('/')).status, 404);
    });
  },
);
