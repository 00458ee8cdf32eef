// What every benchmark needs: a throwaway embedded PostgreSQL, the built API on a free port, and
// a signed-up owner's cookie. Used by `npm run bench:*`; run `npm run build` first.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort, startEmbeddedPostgres } from '../db/embedded-postgres.mjs';
import { databaseSignupTokens, signUpOwner } from './seed.mjs';

const root = path.resolve(import.meta.dirname, '../..');

/** The median of `values`: the middle one once sorted (the upper middle of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The public marketing pages issue 35 measures (`bench:public`, `public-first-layout.mjs`), or the
 * comma-separated paths in BENCH_PAGES.
 */
export const publicPages = () =>
  (process.env.BENCH_PAGES ?? '/,/pricing,/about,/contact,/privacyPolicy,/landingPage').split(',');

/**
 * CPU time (ms) a process has used so far, from /proc (Linux); with `children`, also that of its
 * children that have ended (and been waited for). 0 where /proc is not there.
 */
function cpuMs(pid, { children = false } = {}) {
  try {
    // Fields after the command name: state, ppid, …; utime, stime, cutime and cstime are the
    // 12th to 15th, in clock ticks (100 a second).
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    const ended = children ? Number(fields[13]) + Number(fields[14]) : 0;
    return ((own + ended) * 1000) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU time (ms) used so far by PostgreSQL: the postmaster `pid`, its running children (backends,
 * workers) and those that have ended (a pool closes idle connections during a run).
 */
function postgresCpuMs(pid) {
  let total = cpuMs(pid, { children: true });
  let entries = [];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1];
      if (Number(ppid) === pid) total += cpuMs(entry);
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/**
 * Starts PostgreSQL and the API with `env` added, signs an owner up and returns
 * `{ base, cookie, businessId, databaseUrl, sql(text, params), jwtSecret (the API's), login(), cpu(), close() }` (`login()` → a fresh
 * cookie; `cpu()` → the CPU time (ms) the API process and PostgreSQL have used so far,
 * `{ api, postgres }` from /proc, zeros elsewhere, for `load` to split each request's cost).
 * BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") is passed to the API's node;
 * BENCH_API_BUNDLE runs another build of the API (a copy of dist/apps/api made before a change,
 * kept under the repo so it finds node_modules, e.g. dist/ab/before/main.js): A/B in one run.
 * BENCH_PG_SETTINGS ("name=value;…", set by ALTER SYSTEM before the API connects) and
 * BENCH_PG_LOG (a file the server's log is appended to) profile the database side, e.g.
 * `session_preload_libraries=auto_explain;auto_explain.log_min_duration=0;auto_explain.log_analyze=on;
 * auto_explain.log_buffers=on;auto_explain.log_nested_statements=on` (EXPLAIN (ANALYZE, BUFFERS)
 * of every statement and trigger statement; it slows what it measures).
 * BENCH_DATA_DIR (a folder the postgres user can enter, e.g. /var/tmp/grove-bench-1m) keeps the
 * database there instead of a throwaway folder: a later run on the same folder reuses it (`fresh`
 * is false, the owner logs in instead of signing up), so a large seed is made once.
 * `sqlFloor(url)` (see {@link sqlFloorOf}) measures what one request's own statements cost run
 * database-only.
 */
export async function startBenchApi(env = {}) {
  const apiBundle = process.env.BENCH_API_BUNDLE ?? path.join(root, 'dist/apps/api/main.js');
  if (!fs.existsSync(apiBundle))
    throw new Error(`${apiBundle} is missing; run \`npm run build\` first.`);
  const keptDir = process.env.BENCH_DATA_DIR && path.resolve(process.env.BENCH_DATA_DIR);
  const dir = keptDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'grove-bench-'));
  fs.mkdirSync(dir, { recursive: true });
  fs.chmodSync(dir, 0o755);
  // The server's log, kept only while `captureStatements` listens.
  const serverLog = { listening: false, text: '' };
  const db = await startEmbeddedPostgres({
    dataDir: path.join(dir, 'db'),
    fast: true,
    log: () => {},
    onLog: (chunk) => {
      if (serverLog.listening) serverLog.text += chunk;
      if (process.env.BENCH_PG_LOG) fs.appendFileSync(process.env.BENCH_PG_LOG, chunk);
    },
  });
  let api;
  const close = async () => {
    api?.kill('SIGTERM');
    if (api && api.exitCode === null) await new Promise((resolve) => api.once('exit', resolve));
    await db.stop().catch(() => {});
    if (!keptDir) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const admin = new pg.Client(db.url('postgres'));
    await admin.connect();
    const { rowCount: reused } = await admin.query(
      `SELECT 1 FROM pg_database WHERE datname = 'grove_bench'`,
    );
    if (!reused) await admin.query('CREATE DATABASE grove_bench');
    // Profiling settings for every connection the API opens, e.g. auto_explain's (see above).
    for (const setting of (process.env.BENCH_PG_SETTINGS ?? '').split(';').filter(Boolean)) {
      const [name, ...value] = setting.split('=');
      await admin.query(`ALTER SYSTEM SET ${name.trim()} = '${value.join('=').trim()}'`);
    }
    if (process.env.BENCH_PG_SETTINGS) await admin.query('SELECT pg_reload_conf()');
    await admin.end();
    const port = await freePort();
    // Also opens the sealed sign-up emails (seed.mjs databaseSignupTokens).
    const jwtSecret = randomBytes(32).toString('base64url');
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    api = spawn(process.execPath, [...nodeArgs, apiBundle], {
      cwd: root,
      stdio: [
        'ignore',
        process.env.BENCH_API_STDOUT ? fs.openSync(process.env.BENCH_API_STDOUT, 'w') : 'ignore',
        'inherit',
      ],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        COOKIE_SECURE: 'false',
        // The benches send no email anywhere: they stay in outbox_emails (production needs one or the other).
        MAIL_OUTBOX_ONLY: 'true',
        // The benches bill nobody (production needs Stripe keys otherwise).
        GROVE_BILLING: 'off',
        JWT_SECRET: jwtSecret,
        MINDBODY_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
        // Required in production since the contact form's captcha (issue 5); unused by the benches.
        ALTCHA_HMAC_KEY: randomBytes(32).toString('base64url'),
        // Required in production (issue 22: never the sandbox's key); bench:import passes its sandbox's.
        MINDBODY_API_KEY: randomBytes(16).toString('hex'),
        DATABASE_URL: db.url('grove_bench'),
        PORT: String(port),
        // Required in production: the origin of every link Grove hands out (issue 24).
        PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: path.join(dir, 'no-web'),
        // The metrics listener on a free port: another Grove on this machine may hold 9464.
        METRICS_PORT: process.env.METRICS_PORT ?? '0',
        ...env,
      },
    });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (
        await fetch(`${base}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 600 || api.exitCode !== null) throw new Error('the API did not start');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const client = new pg.Client({
      connectionString: db.url('grove_bench'),
      application_name: 'grove-bench',
    });
    await client.connect();
    const login = async () => {
      const reply = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'bench@grove.local', password: 'bench password' }),
      });
      if (!reply.ok) throw new Error(`login failed: ${reply.status} ${await reply.text()}`);
      return reply.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
    };
    const cookie = reused
      ? await login()
      : await signUpOwner(
          base,
          {},
          databaseSignupTokens((text, params) => client.query(text, params), jwtSecret),
        );
    const {
      rows: [{ id: businessId }],
    } = await client.query(
      `SELECT business_id AS id FROM users WHERE email = 'bench@grove.local' LIMIT 1`,
    );
    const sql = (text, params) => client.query(text, params);
    const cpu = () => ({ api: cpuMs(api.pid), postgres: db.pid ? postgresCpuMs(db.pid) : 0 });
    return {
      base,
      cookie,
      businessId,
      fresh: !reused,
      databaseUrl: db.url('grove_bench'),
      sql,
      jwtSecret,
      cpu,
      // A fresh session cookie (the signup's access token lapses during a long seeding).
      login,
      sqlFloor: async (url, options = {}) =>
        sqlFloorOf(
          await captureStatements({ sql, serverLog, base, cookie: options.cookie ?? cookie, url }),
          { url: db.url('grove_bench'), cpu, ...options },
        ),
      close: async () => {
        await client.end();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * What Chromium sends as `Accept-Encoding` on a fetch: the loads ask for what a browser asks for,
 * so a JSON reply is measured compressed, as the dashboard gets it.
 */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/**
 * Measures the floor of the page `url` just loaded (`result`, from `load`): `floor(url, options)`
 * (a bench's `sqlFloor`: the request's own statements in a tight `pg` loop, same seconds), prints
 * it under the page's line with the page's req/s as a share of it (a page at ≥ 50%, within 2x of
 * its own SQL, is at its floor; further away it spends its time in Node) and keeps it as
 * `result.floor`.
 */
export async function withFloor(result, floor, url, { seconds, warmupSeconds, sqlConnections }) {
  const sql = await floor(url, {
    seconds,
    warmupSeconds,
    ...(sqlConnections && { connections: sqlConnections }),
  });
  result.floor = sql;
  const share = (result.requests.average / sql.requests.average) * 100;
  const cpu = sql.cpuPerRequest ? `, PostgreSQL ${sql.cpuPerRequest.postgres} µs a request` : '';
  console.log(
    `${'  its SQL alone'.padEnd(34)} ${sql.requests.average.toFixed(0).padStart(7)} req/s   p99 ${String(sql.latency.p99).padStart(4)} ms   (${sql.statements} statements a request, ${sql.connections} connections${cpu}): page = ${share.toFixed(0)}% of its SQL's req/s (${(sql.requests.average / result.requests.average).toFixed(2)}x away)`,
  );
  if (process.env.BENCH_SHOW_SQL)
    for (const { name, text, values } of sql.captured)
      console.log(
        `    ${name ?? 'unnamed'}: ${text.replace(/\s+/g, ' ').slice(0, 110)}… [${values.length} values]`,
      );
  return sql;
}

/**
 * Loads `base + url` with autocannon (`connections` at once for `seconds`, after `warmupSeconds`
 * unmeasured at the same concurrency: the first ~2 s at a new concurrency run slow while V8 grows
 * its heap and tiers up the code), prints one line (req/s, p50/p90/p99/max in ms) and returns
 * autocannon's result. Every request carries `cookie` and a browser's `Accept-Encoding`
 * (`BROWSER_ACCEPT_ENCODING`). Throws when any request failed (non-2xx, error or timeout).
 * With `cpu` (a bench's `cpu()`), the line also gives the CPU time per request (µs) of the API
 * process and of PostgreSQL during the measured seconds, and the result carries it as
 * `cpuPerRequest: { api, postgres }`: where a page's time goes, measured in the same run.
 */
export async function load({
  base,
  cookie,
  title,
  url,
  connections = 50,
  seconds = 10,
  warmupSeconds = 3,
  cpu,
}) {
  const options = {
    url: base + url,
    connections,
    headers: { cookie, 'accept-encoding': BROWSER_ACCEPT_ENCODING },
  };
  if (warmupSeconds > 0) await autocannon({ ...options, duration: warmupSeconds });
  const before = cpu?.();
  const result = await autocannon({ ...options, duration: seconds });
  const failures = result.non2xx + result.errors + result.timeouts;
  let split = '';
  if (before) {
    const after = cpu();
    const perRequest = (ms) => Math.round((ms * 1000) / Math.max(1, result.requests.total));
    result.cpuPerRequest = {
      api: perRequest(after.api - before.api),
      postgres: perRequest(after.postgres - before.postgres),
    };
    split = `; CPU per request: API ${result.cpuPerRequest.api} µs, PostgreSQL ${result.cpuPerRequest.postgres} µs`;
  }
  console.log(
    `${title.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p99 ${String(result.latency.p99).padStart(4)} ms   (p50 ${result.latency.p50}, p90 ${result.latency.p90}, max ${result.latency.max} ms; ${failures} failed${split})`,
  );
  if (failures > 0) throw new Error(`${title}: ${failures} requests failed`);
  return result;
}

/**
 * The statements one request to `base + url` sends to PostgreSQL, in order, with their values:
 * the server logs every statement (`log_statement = all`, prefixed by process and application
 * name) for the one request, then stops. Statements of the bench's own connection
 * (`grove-bench`) and of the job workers (`grove-jobs`) are left out. Requests still running
 * (a load just ended) or background work would add theirs: the capture is repeated (four times at
 * least, eight at most) and the set of statements seen at least twice with the fewest statements
 * is kept.
 * @returns `[{ name, text, values }]`: `name` is the prepared statement's name (null: unnamed or
 *   simple protocol), `values` the text of each `$n` as PostgreSQL logged it (null for NULL)
 */
export async function captureStatements(options) {
  const seen = new Map();
  for (let attempt = 0; attempt < 8; attempt++) {
    // Requests a load left in flight finish first (their statements are not this request's).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const statements = await captureOnce(options);
    const key = statements.map(({ text }) => text).join('\n;\n');
    seen.set(key, { statements, count: (seen.get(key)?.count ?? 0) + 1 });
    // A signed-in request checks its session in the database at most every
    // ACTIVE_SESSION_TRUST_MS (2 s): one-second-apart captures alternate with and without that
    // check. Once four are in, the set seen at least twice with the fewest statements is the
    // request as a steady load sends it (its session trusted from the cache).
    const repeated = [...seen.values()].filter(({ count }) => count >= 2);
    if (attempt >= 3 && repeated.length > 0)
      return repeated.reduce((a, b) => (b.statements.length < a.statements.length ? b : a))
        .statements;
  }
  throw new Error(`${options.url}: no two captures of its statements agreed`);
}

/** One capture of `captureStatements`. */
async function captureOnce({ sql, serverLog, base, cookie, url }) {
  const prefix = '@@bench|%p|%a|@@ ';
  const set = async (on) => {
    for (const [name, value] of [
      ['log_statement', "'all'"],
      ['log_line_prefix', `'${prefix}'`],
      ['log_parameter_max_length', '-1'],
    ])
      await sql(on ? `ALTER SYSTEM SET ${name} = ${value}` : `ALTER SYSTEM RESET ${name}`);
    await sql('SELECT pg_reload_conf()');
    // Every backend reads the new settings before its next statement; give the reload a moment.
    await new Promise((resolve) => setTimeout(resolve, 300));
  };
  await set(true);
  serverLog.text = '';
  serverLog.listening = true;
  try {
    const reply = await fetch(base + url, { headers: { cookie } });
    if (!reply.ok) throw new Error(`${url}: ${reply.status}`);
    await reply.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    serverLog.listening = false;
    await set(false);
  }
  const statements = [];
  for (const entry of serverLog.text.split('@@bench|').slice(1)) {
    const [, , application, rest] = /^(\d+)\|([^|]*)\|@@ ([\s\S]*)$/.exec(entry) ?? [];
    if (rest === undefined || application === 'grove-bench' || application === 'grove-jobs')
      continue;
    const message = rest.replace(/\n$/, '');
    if (process.env.BENCH_SHOW_SQL === 'all')
      console.log(
        `    [${entry.split('|')[0]} ${application}] ${message.replace(/\s+/g, ' ').slice(0, 140)}`,
      );
    const executed = /^LOG:\s+(?:execute ([^:]+)|statement): ([\s\S]*)$/.exec(message);
    if (executed) {
      const name = executed[1] && executed[1] !== '<unnamed>' ? executed[1] : null;
      statements.push({ name, text: executed[2], values: [] });
      continue;
    }
    const parameters = /^DETAIL:\s+Parameters: ([\s\S]*)$/i.exec(message);
    if (parameters && statements.length) {
      const values = [];
      for (const [, n, value] of parameters[1].matchAll(/\$(\d+) = (NULL|'(?:[^']|'')*')/g))
        values[Number(n) - 1] = value === 'NULL' ? null : value.slice(1, -1).replaceAll("''", "'");
      statements.at(-1).values = values;
    }
  }
  if (!statements.length) throw new Error(`${url}: no statement was logged`);
  return statements;
}

/**
 * The floor of a page: `statements` (one request's, `captureStatements`) run database-only, with
 * the `pg` driver in a tight loop on `connections` connections at once (each sends the request's
 * statements one after the other, named ones prepared once per connection as the API's
 * prepared-read pool does, its sessions with `plan_cache_mode = force_generic_plan` as that
 * pool's) for `seconds` after `warmupSeconds`. No Node work but the driver's.
 * @returns `{ requests: { average }, latency: { p99 }, statements, cpuPerRequest? }`: loops a
 *   second, the p99 of one loop (ms), how many statements a loop sends and, with `cpu`,
 *   PostgreSQL's CPU per loop (µs)
 */
export async function sqlFloorOf(
  statements,
  { url, connections = 8, seconds = 10, warmupSeconds = 3, cpu },
) {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new pg.Client({
        connectionString: url,
        options: '-c plan_cache_mode=force_generic_plan',
      });
      await client.connect();
      return client;
    }),
  );
  const once = async (client) => {
    for (const { name, text, values } of statements)
      await client.query(name ? { name, text, values } : { text, values });
  };
  const run = async (ms, latencies) => {
    const until = performance.now() + ms;
    let count = 0;
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < until) {
          const started = performance.now();
          await once(client);
          latencies?.push(performance.now() - started);
          count++;
        }
      }),
    );
    return count;
  };
  try {
    await run(warmupSeconds * 1000);
    const before = cpu?.();
    const latencies = [];
    const started = performance.now();
    const count = await run(seconds * 1000, latencies);
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const result = {
      requests: { average: count / elapsed },
      latency: { p99: Number(latencies[Math.floor(latencies.length * 0.99)].toFixed(1)) },
      statements: statements.length,
      captured: statements,
      connections,
    };
    if (before)
      result.cpuPerRequest = {
        postgres: Math.round(((cpu().postgres - before.postgres) * 1000) / Math.max(1, count)),
      };
    return result;
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}

/**
 * Seeds `trees` members into each of `businessIds` in ONE set-based statement (generated inside
 * PostgreSQL with generate_series, not row by row): member n (1…trees) of business b is named
 * "<First> <Last> n" from ten first and ten last names (so a search for a last name such as
 * "patel" matches 10% of a business), `member<n>@bench.example.com`, created n minutes ago; the
 * last `branches` members of each business are branches of one of its first `trees - branches`.
 * Rows of different businesses are interleaved in the table, as a SaaS's tables fill over time.
 * Ids are derived from (business, n) so a branch names its tree in the same statement.
 * @returns the count of members and of branches in the table
 */
export async function seedMembers(sql, businessIds, { trees, branches }) {
  const first = ['Olivia', 'Liam', 'Mia', 'Noah', 'Isla', 'Jack', 'Grace', 'Leo', 'Ava', 'Oscar'];
  const last = [
    'Smith',
    'Nguyen',
    'Patel',
    'Brown',
    'Wilson',
    'Taylor',
    'Chen',
    'Kelly',
    'Walker',
    'Harris',
  ];
  const roots = trees - branches;
  await sql(
    `INSERT INTO members (id, business_id, name, email, email_key, membership_price_cents, discount_cents,
       referred_by_id, created_at)
     SELECT md5('bench ' || g.b || ' ' || g.n)::uuid, ($1::uuid[])[g.b],
            ($2::text[])[1 + g.n % 10] || ' ' || ($3::text[])[1 + (g.n / 10) % 10] || ' ' || g.n,
            'member' || g.n || '@bench.example.com', 'member' || g.n || '@benchexamplecom',
            3900 + (g.n % 9) * 1000, 500 + (g.n % 3) * 500,
            CASE WHEN g.n > $5 THEN md5('bench ' || g.b || ' ' || ((g.n * 7919) % $5 + 1))::uuid END,
            now() - (g.n || ' minutes')::interval
     FROM (SELECT 1 + i % cardinality($1::uuid[]) AS b, 1 + i / cardinality($1::uuid[]) AS n
           FROM generate_series(0, cardinality($1::uuid[]) * $4::int - 1) AS i) g`,
    [businessIds, first, last, trees, roots],
  );
  const { rows } = await sql(
    'SELECT count(*)::int AS trees, count(referred_by_id)::int AS branches FROM members',
  );
  return rows[0];
}

/**
 * Prints EXPLAIN (ANALYZE, BUFFERS) of the statements behind the lists of `businessId`, for
 * tuning: the members count, the search's count and page ("patel"), the referral-links page and
 * the prospects page (page 3 of 50).
 */
export async function printPlans(sql, businessId) {
  const search = `m.business_id = $1 AND (lower(m.name) LIKE $2 ESCAPE '\\' OR lower(m.email) LIKE $2 ESCAPE '\\')`;
  const plans = {
    count: ['SELECT count(*)::int FROM members m WHERE m.business_id = $1', [businessId]],
    countSearch: [`SELECT count(*)::int FROM members m WHERE ${search}`, [businessId, '%patel%']],
    pageSearch: [
      `SELECT m.id FROM members m WHERE ${search} ORDER BY m.created_at, m.id LIMIT 50`,
      [businessId, '%patel%'],
    ],
    referralLinksPage: [
      `SELECT m.id, l.code FROM members m
       LEFT JOIN referral_links l ON l.member_id = m.id AND l.business_id = $1 AND l.revoked_at IS NULL
         AND (l.expires_at IS NULL OR l.expires_at > now())
       WHERE m.business_id = $1 ORDER BY m.created_at, m.id LIMIT 50 OFFSET 100`,
      [businessId],
    ],
    // The statement of ProspectsRepository.findPage (PROSPECT_PAGE), page 3 of 50.
    prospectsPage: [
      `SELECT p.id, p.name, p.email, p.referring_member_id, m.name AS referring_member_name, p.source, p.flags, p.created_at,
         CASE WHEN m.mindbody_client_id IS NOT NULL AND (m.mindbody_cancelled_at IS NOT NULL
             OR m.mindbody_priced_at IS NULL OR m.mindbody_autopay_cents IS NULL)
           THEN (SELECT default_membership_price_cents FROM businesses WHERE id = $1)
           ELSE m.membership_price_cents END AS prefill_price_cents,
         CASE WHEN m.mindbody_client_id IS NOT NULL
           THEN COALESCE((SELECT discount_on_referral_cents FROM mindbody_integrations WHERE business_id = $1), 0)
           ELSE m.discount_cents END AS prefill_discount_cents,
         (SELECT prospect_count FROM businesses WHERE id = $1) AS total
       FROM (SELECT id, name, email, referring_member_id, source, flags, created_at FROM prospects
             WHERE business_id = $1 ORDER BY created_at, id LIMIT 50 OFFSET 100) p
       JOIN LATERAL (
         SELECT m.name, m.membership_price_cents, m.discount_cents, m.mindbody_client_id,
           m.mindbody_cancelled_at, m.mindbody_priced_at, m.mindbody_autopay_cents
         FROM members m WHERE m.id = p.referring_member_id AND m.business_id = $1 OFFSET 0) m ON true
       ORDER BY p.created_at, p.id`,
      [businessId],
    ],
  };
  for (const [name, [text, params]] of Object.entries(plans)) {
    const { rows } = await sql(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
    console.log(`-- ${name}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
}

/**
 * The seed of `npm run bench:scale` (and `bench:analytics`): `businesses - 1` more businesses
 * beside the signed-up owner's `businessId` (which sits in the middle, so its rows are among the
 * others'), `trees` members each (half of them branches, `seedMembers`), a live referral link
 * for every odd-numbered member and `prospectsPerBusiness` prospects per business, then VACUUM
 * ANALYZE. Prints what it seeded and how long it took.
 * @returns `{ ids, trees, branches }`: every business id (the owner's included) and the counts
 */
export async function seedScale(sql, businessId, { businesses, trees, prospectsPerBusiness }) {
  const seconds_ = (started) => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  let started = performance.now();
  const { rows: others } = await sql(
    `INSERT INTO businesses (name, website, phone)
     SELECT 'Bench Gym ' || i, 'bench' || i || '.example.com', '0412 345 678' FROM generate_series(2, $1::int) AS i
     RETURNING id`,
    [businesses],
  );
  const ids = others.map((row) => row.id);
  ids.splice(Math.floor(ids.length / 2), 0, businessId);
  const counts = await seedMembers(sql, ids, { trees, branches: trees / 2 });
  console.log(
    `seeded ${counts.trees.toLocaleString('en-AU')} members (${counts.branches.toLocaleString('en-AU')} of them branches) in ${businesses} businesses: ${seconds_(started)}`,
  );
  started = performance.now();
  // A live link for every odd-numbered member: code = 32 hex characters, unique.
  await sql(
    `INSERT INTO referral_links (business_id, member_id, code, created_at)
     SELECT business_id, id, md5('link ' || id), created_at + interval '1 minute'
     FROM members WHERE right(split_part(email, '@', 1), 1) IN ('1', '3', '5', '7', '9')`,
  );
  // Prospects: friends referred by members 1…prospectsPerBusiness of each business.
  await sql(
    `INSERT INTO prospects (business_id, referring_member_id, name, email, email_key, created_at)
     SELECT m.business_id, m.id, 'Friend ' || g.n, 'friend' || g.n || '@bench.example.com',
            'friend' || g.n || '@benchexamplecom', now() - (g.n || ' seconds')::interval
     FROM generate_series(1, $1::int) AS g(n)
     JOIN members m ON m.email = 'member' || g.n || '@bench.example.com'`,
    [prospectsPerBusiness],
  );
  const {
    rows: [seeded],
  } = await sql(
    `SELECT (SELECT count(*)::int FROM referral_links) AS links, (SELECT count(*)::int FROM prospects) AS prospects`,
  );
  await sql('VACUUM ANALYZE');
  console.log(
    `seeded ${seeded.links.toLocaleString('en-AU')} referral links, ${seeded.prospects.toLocaleString('en-AU')} prospects, vacuumed: ${seconds_(started)}`,
  );
  return { ids, ...counts };
}

/**
 * Loads `/api/health`, then each `[title, url]` of `pages`, then `/api/health` again, one after
 * the other in the same run (`load` with `options`: base, cookie, connections, seconds,
 * warmupSeconds and optionally `cpu`). The pages are to be compared with the mean of the two
 * health readings: on a shared machine the load drifts during a run, and one reading at the end
 * measures a different moment from the first page's.
 * With `floor` (a bench's `sqlFloor`), each page is followed by its own statements run
 * database-only (`withFloor`).
 * @returns `{ results: [title, autocannon result][], health }`, `health` being that mean:
 *   `{ requests: { average }, latency: { p99 }, cpuPerRequest? }`
 */
export async function loadAgainstHealth(options, pages) {
  const before = await load({ ...options, title: 'health (before the pages)', url: '/api/health' });
  const results = [];
  for (const [title, url] of pages) {
    const result = await load({ ...options, title, url });
    if (options.floor) await withFloor(result, options.floor, url, options);
    results.push([title, result]);
  }
  const after = await load({ ...options, title: 'health (after the pages)', url: '/api/health' });
  const mean = (pick) => Math.round((pick(before) + pick(after)) / 2);
  const health = {
    requests: { average: mean((r) => r.requests.average) },
    latency: { p99: mean((r) => r.latency.p99) },
    ...(before.cpuPerRequest && {
      cpuPerRequest: {
        api: mean((r) => r.cpuPerRequest.api),
        postgres: mean((r) => r.cpuPerRequest.postgres),
      },
    }),
  };
  return { results, health };
}

/**
 * The API's own SQL for the automatic referral links (`automaticLinksSql`, `newReferralCode`),
 * loaded from its TypeScript source through `@swc-node/register` (a dev dependency), so a bench's
 * floor writes exactly what the imports write (issue 36), not a copy of it.
 */
let apiLinksSql;
function automaticLinks() {
  if (!apiLinksSql) {
    const require = createRequire(import.meta.url);
    process.env.SWC_NODE_PROJECT ??= path.join(root, 'tsconfig.base.json');
    require('@swc-node/register');
    const app = path.join(root, 'apps/api/src/app/referral');
    apiLinksSql = {
      ...require(path.join(app, 'links-for-everyone/automatic-links.sql.ts')),
      ...require(path.join(app, 'referrals/referral-code.ts')),
    };
  }
  return apiLinksSql;
}

/**
 * The write floor of an import benchmark: `rows` (objects keyed by column) inserted in ONE
 * statement, sent as one array per column (`columns`: name → PostgreSQL type), into an empty
 * business of the same `members` table with every index, trigger and foreign key; rolled back.
 * With `links` (issue 36: a new business gives every new member a referral link), the same
 * statement also writes each member's automatic referral link, `link_created` fact and
 * 'link.created' audit entry with the imports' own SQL (`automaticLinksSql`, authored by the
 * staff user `links.userId`), the floor's business having the setting on.
 * @param sql a client's query function (the bench's `sql`)
 * @param links `{ userId }` to write the links too; absent, members only
 * @returns milliseconds of the INSERT alone
 */
export async function membersWriteFloor(sql, columns, rows, links) {
  const names = Object.keys(columns);
  const arrays = names.map((name) => rows.map((row) => row[name]));
  const sqlOf = links && automaticLinks();
  await sql('BEGIN');
  try {
    const {
      rows: [floorBusiness],
    } = await sql(
      `INSERT INTO businesses (name, website, phone, auto_referral_links)
       VALUES ('Floor', 'floor.example.com', '0412 345 678', $1) RETURNING id`,
      [Boolean(links)],
    );
    const insert = `INSERT INTO members (business_id, ${names.join(', ')})
       SELECT $1, * FROM unnest(${names.map((name, i) => `$${i + 2}::${columns[name]}[]`).join(', ')})`;
    const next = names.length + 2;
    const started = performance.now();
    if (sqlOf)
      await sql(
        `WITH added AS (${insert} RETURNING id, name, email_key),
         coded AS (
           SELECT a.id, a.name, c.code FROM added a
           JOIN unnest($${next}::text[], $${next + 1}::text[]) AS c(email_key, code) ON c.email_key = a.email_key
         )${sqlOf.automaticLinksSql('coded', { business: '$1', actor: `$${next + 2}`, user: `$${next + 3}::uuid` })}
         SELECT 1`,
        [
          floorBusiness.id,
          ...arrays,
          rows.map((row) => row.email_key),
          rows.map(() => sqlOf.newReferralCode()),
          'staff',
          links.userId,
        ],
      );
    else await sql(insert, [floorBusiness.id, ...arrays]);
    return performance.now() - started;
  } finally {
    await sql('ROLLBACK');
  }
}
