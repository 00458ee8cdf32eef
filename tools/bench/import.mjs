#!/usr/bin/env node
// `npm run bench:import` (issue 4): a Mindbody sandbox seeded with 10,000 clients, the built API on
// a throwaway database. Two passes in one run, each into an empty business:
//  - zero latency: (a) every client page fetched straight from the sandbox (the same
//    GET /client/clients requests the import sends, 200 per page, one after the other), (b) the
//    full import job, (c) for reference, (a) plus each member's contract read at the import's
//    concurrency (8), and the follow-up 'prices' job that does those reads after the import;
//  - realistic latency: BENCH_LATENCY_MS (default 50) added to every client page, (a) and (b) again,
//    medians of BENCH_ROUNDS imports, each between two runs of the pages (target b/a ≤ 1.1x).
// Prints b/a for both, and with no latency (f), the write floor: ONE INSERT of the same members
// into the same indexed table, and b/(a+f) (target: ≤ 1.5x; the job cannot beat fetching every
// page plus writing its rows once). A new business has automatic referral links on, so (b) also
// writes each member's link, fact and audit entry (issue 36): each round also imports into a
// business with them off (b'), and takes the floor with them (f': ONE statement of the members and
// their links, facts and audit entries, by the import's own `automaticLinksSql`); prints
// b/(a+f') and b'/(a+f) (target ≤ 1.5x each) and the load average. Then the Mindbody calls (Mindbody bills them, issue 22) of an
// import, its prices job, a first sync and an unchanged sync, at 2,500 clients and BENCH_CLIENTS. Run `npm run build` first (api and
// mindbody-sandbox). BENCH_CLIENTS changes the client count; BENCH_LATENCY_MS=0 skips the second pass;
// BENCH_ROUNDS (default 5) sets how many imports, floors and page runs the no-latency medians take;
// BENCH_CALLS=0 skips the Mindbody call counts (two more imports and four syncs); BENCH_CONTRACTS=0
// skips (c).
//
// (b) runs from sending POST /api/mindbody/import to the time the job stamps in its process state
// ('completed <ISO time>', taken when the last write is done; same machine clock), polled every
// 100 ms (a faster poll takes the cores the import needs: docs/decisions/import-write-floor.md);
// end-of-poll timing adds up to one interval of error.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../db/embedded-postgres.mjs';
import { median, membersWriteFloor, startBenchApi } from './harness.mjs';
import { databaseSignupTokens, signUpOwner } from './seed.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const clients = Number(process.env.BENCH_CLIENTS ?? 10_000);
const PAGE = 200;
const CONCURRENCY = 8;
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const login = { Username: 'owner@sandbox.example.com', Password: 'sandbox-pass-1234' };
// The key the bench's sandbox takes and its API sends (production refuses the sandbox's default).
const apiKey = randomBytes(24).toString('hex');
const headers = { 'Api-Key': apiKey, SiteId: '-99', Accept: 'application/json' };

const sandboxBundle = path.join(root, 'dist/apps/mindbody-sandbox/main.js');
if (!fs.existsSync(sandboxBundle))
  throw new Error('dist/apps/mindbody-sandbox/main.js is missing; run `npm run build` first.');
const sandboxPort = await freePort();
const sandbox = spawn(process.execPath, [sandboxBundle], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PORT: String(sandboxPort),
    MINDBODY_SANDBOX_CLIENTS: String(clients),
    MINDBODY_SANDBOX_API_KEY: apiKey,
  },
});
const origin = `http://127.0.0.1:${sandboxPort}`;
const api = `${origin}/public/v6`;
let bench;
try {
  for (
    let i = 0;
    !(await fetch(`${origin}/health`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  ) {
    if (i > 200 || sandbox.exitCode !== null) throw new Error('the sandbox did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { AccessToken } = await fetch(`${api}/usertoken/issue`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(login),
  }).then((r) => r.json());
  const staff = { ...headers, Authorization: AccessToken };

  /** Every page, one after the other; returns the clients. */
  const fetchPages = async () => {
    const all = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await fetch(
        `${api}/client/clients?request.limit=${PAGE}&request.offset=${offset}`,
        { headers: staff },
      ).then((r) => r.json());
      all.push(...page.Clients);
      if (page.Clients.length === 0 || all.length >= page.PaginationResponse.TotalResults)
        return all;
    }
  };
  /** Each member's contracts, CONCURRENCY at once. */
  const fetchContracts = async (list) => {
    const members = list.filter((client) => !client.IsProspect);
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < members.length) {
          const client = members[next++];
          await fetch(
            `${api}/client/clientcontracts?request.clientId=${encodeURIComponent(client.Id)}`,
            { headers: staff },
          ).then((r) => r.json());
        }
      }),
    );
  };
  const time = async (work) => {
    const started = performance.now();
    const result = await work();
    return { ms: performance.now() - started, result };
  };
  /** Sets the page latency of the sandbox (0 = none). */
  const setLatency = async (ms) => {
    await fetch(`${origin}/_sandbox/faults`, { method: 'DELETE' });
    if (ms > 0)
      await fetch(`${origin}/_sandbox/faults`, {
        method: 'POST',
        body: JSON.stringify({ path: '/client/clients', latencyMs: ms }),
      });
  };

  bench = await startBenchApi({
    MINDBODY_API_URL: api,
    MINDBODY_WEBHOOKS_URL: `${origin}/api/v1`,
    MINDBODY_API_KEY: apiKey,
    MINDBODY_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    // A production API refuses to start without it (the bench never shows the contact form).
    ALTCHA_HMAC_KEY: randomBytes(24).toString('base64'),
    // One sign-up per round: more than the sign-up throttle lets one client make in a minute.
    THROTTLE_DISABLED: 'true',
    // 'Remove integration' between rounds releases ~9,000 managed members in one statement, which
    // a machine shared at load 20+ ran past the production 10 s (the bench measures, it does not
    // test the timeout).
    DATABASE_STATEMENT_TIMEOUT_MS: '120000',
  });
  const call = (cookie, method, route, body) =>
    fetch(`${bench.base}${route}`, {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => {
      if (!r.ok) throw new Error(`${method} ${route}: ${r.status} ${await r.text()}`);
      return r.json();
    });
  /** A new owner with an empty business, connected to the sandbox: its cookie and business id. */
  let owners = 0;
  /** The cookie of the owner `emptyBusiness` made last. */
  let lastCookie = '';
  const emptyBusiness = async () => {
    owners += 1;
    let cookie = bench.cookie;
    let businessId = bench.businessId;
    if (owners > 1) {
      const email = `bench${owners}@grove.local`;
      cookie = await signUpOwner(
        bench.base,
        { businessName: `Bench Gym ${owners}`, email },
        databaseSignupTokens(bench.sql, bench.jwtSecret),
      );
      const { rows } = await bench.sql('SELECT business_id FROM users WHERE email = $1', [email]);
      businessId = rows[0].business_id;
    }
    // A Mindbody site belongs to one business (issue 31): the previous round's business lets it go
    // first ('Remove integration'; its members stay, for the write floor).
    if (lastCookie) await call(lastCookie, 'DELETE', '/api/mindbody');
    await call(cookie, 'POST', '/api/mindbody/credentials', {
      username: login.Username,
      password: login.Password,
      siteId: '-99',
    });
    lastCookie = cookie;
    return { cookie, businessId };
  };
  /**
   * Runs the import job into an empty business; ms from the request to the job's completion stamp.
   * @param links the business's automatic referral links (on for a new business; off turns the
   *   setting off first: 'Referral links' settings, `autoCreate`)
   */
  const importJob = async (links = true) => {
    const { cookie, businessId } = await emptyBusiness();
    if (!links) await call(cookie, 'PUT', '/api/referral-links/settings', { autoCreate: false });
    const sent = Date.now();
    await call(cookie, 'POST', '/api/mindbody/import');
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const status = await call(cookie, 'GET', '/api/mindbody');
      if (status.processState === 'running') continue;
      if (!status.processState?.startsWith('completed'))
        throw new Error(`import ended ${status.processState}`);
      const doneAt = Date.parse(status.processState.split(' ')[1]);
      // Counted now: the next round's 'Remove integration' releases these managed members.
      return { ms: doneAt - sent, doneAt, businessId, counts: await counts(businessId) };
    }
  };
  const counts = async (businessId) => {
    const { rows } = await bench.sql(
      `SELECT count(*)::int AS n, count(mindbody_client_id)::int AS managed,
         (SELECT count(*)::int FROM prospects WHERE business_id = $1) AS prospects
       FROM members WHERE business_id = $1`,
      [businessId],
    );
    return `${rows[0].n} members, ${rows[0].managed} managed, ${rows[0].prospects} prospects`;
  };
  /** Waits for the follow-up 'prices' job to have priced every running membership. */
  const pricedBy = async (businessId) => {
    for (;;) {
      const { rows } = await bench.sql(
        `SELECT count(*)::int AS n FROM members WHERE business_id = $1 AND mindbody_client_id IS NOT NULL
           AND mindbody_cancelled_at IS NULL AND mindbody_priced_at IS NULL`,
        [businessId],
      );
      if (rows[0].n === 0) return Date.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  /**
   * The write floor: ONE INSERT of the members the import stored in `businessId` (the same rows
   * and columns, sent as arrays like the job's page statements) into an empty business of the
   * same table, with every index, trigger and foreign key of `members`; rolled back. Milliseconds.
   */
  const writeFloor = async (businessId, links = false) => {
    const columns = {
      name: 'text',
      email: 'text',
      email_key: 'text',
      membership_price_cents: 'int',
      discount_cents: 'int',
      mindbody_client_id: 'text',
      mindbody_autopay_cents: 'int',
      mindbody_referred_by: 'text',
      mindbody_cancelled_at: 'timestamptz',
      mindbody_priced_at: 'timestamptz',
      referred_by_id: 'uuid',
    };
    const { rows } = await bench.sql(
      `SELECT ${Object.keys(columns).join(', ')} FROM members WHERE business_id = $1`,
      [businessId],
    );
    const {
      rows: [owner],
    } = await bench.sql(`SELECT id FROM users WHERE business_id = $1 LIMIT 1`, [businessId]);
    return membersWriteFloor(bench.sql, columns, rows, links ? { userId: owner.id } : undefined);
  };
  const linkCount = async (businessId) => {
    const { rows } = await bench.sql(
      `SELECT count(*)::int AS n FROM referral_links WHERE business_id = $1 AND revoked_at IS NULL`,
      [businessId],
    );
    return rows[0].n;
  };
  const ms = (value) => `${value.toFixed(0)} ms`;
  console.log(`Mindbody sandbox, ${clients.toLocaleString('en-AU')} clients, pages of ${PAGE}:`);
  const loadAtStart = os.loadavg()[0];

  await setLatency(0);
  await fetchPages(); // warm-up (JIT, sockets)
  const pageRuns = [(await time(fetchPages)).ms];
  // BENCH_CONTRACTS=0 skips (c): 9,000 contract reads, minutes on a loaded machine.
  const withContracts =
    process.env.BENCH_CONTRACTS === '0'
      ? { ms: NaN }
      : await time(async () => fetchContracts(await fetchPages()));
  // `rounds` rounds of: the import job into a new empty business, its follow-up pricing, the
  // write floor of the rows it stored, the pages again. Medians: one run of each moved by up to
  // 60% between two runs of the same code on this machine.
  // Issue 36: each round also imports into a business with its automatic referral links off (b'),
  // and takes the floor with the links (f': the members and, in the same statement, one link,
  // fact and audit entry each, written by the import's own SQL); links on and off alternate.
  const jobs = [];
  const jobsNoLinks = [];
  const floors = [];
  const linkFloors = [];
  for (let round = 0; round < rounds; round++) {
    const job = await importJob();
    const pricedAt = await pricedBy(job.businessId);
    jobs.push({ ...job, pricedMs: pricedAt - job.doneAt });
    floors.push(await writeFloor(job.businessId));
    linkFloors.push(await writeFloor(job.businessId, true));
    pageRuns.push((await time(fetchPages)).ms);
    const noLinks = await importJob(false);
    await pricedBy(noLinks.businessId);
    jobsNoLinks.push(noLinks);
  }
  const bare = median(pageRuns);
  const floor = median(floors);
  const linkFloor = median(linkFloors);
  const fresh = jobs.find((job) => job.ms === median(jobs.map((run) => run.ms)));
  const unlinked = jobsNoLinks.find((job) => job.ms === median(jobsNoLinks.map((run) => run.ms)));
  const runs = (values) => values.map(ms).join(', ');
  console.log(`no latency (medians of ${rounds} rounds):`);
  console.log(
    `  (a) every page straight from the sandbox:       ${ms(bare)} (runs: ${runs(pageRuns)})`,
  );
  console.log(
    `  (c) (a) + each member's contracts, ${CONCURRENCY} at once: ${ms(withContracts.ms)}`,
  );
  console.log(
    `  (b) full import job into an empty business:     ${ms(fresh.ms)} (runs: ${runs(jobs.map((job) => job.ms))}; ${fresh.counts}, ${await linkCount(fresh.businessId)} automatic links)`,
  );
  console.log(
    `  (b') same, the business's automatic links off:  ${ms(unlinked.ms)} (runs: ${runs(jobsNoLinks.map((job) => job.ms))}; ${await linkCount(unlinked.businessId)} links)`,
  );
  console.log(
    `      then every member priced by the follow-up job: +${ms(fresh.pricedMs)} (one contract read per member)`,
  );
  console.log(
    `  (f) write floor, ONE INSERT of those members:   ${ms(floor)} (runs: ${runs(floors)}; same table and indexes, rolled back)`,
  );
  console.log(
    `  (f') (f) + their links, facts and audit entries: ${ms(linkFloor)} (runs: ${runs(linkFloors)}; one statement, automaticLinksSql, rolled back)`,
  );
  console.log(
    `  ratio b/(a+f'): ${(fresh.ms / (bare + linkFloor)).toFixed(2)}x; b'/(a+f): ${(unlinked.ms / (bare + floor)).toFixed(2)}x (target ≤ 1.5x each); b/(a+f): ${(fresh.ms / (bare + floor)).toFixed(2)}x; b/a: ${(fresh.ms / bare).toFixed(2)}x; b/c: ${(fresh.ms / withContracts.ms).toFixed(2)}x`,
  );
  console.log(
    `  load average (1 min) at start / end: ${loadAtStart.toFixed(2)} / ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`,
  );

  // Mindbody bills API calls past a free tier (issue 22): the calls of an import, of the prices
  // job after it, of a first sync and of a sync with nothing changed, at 2,500 clients and at
  // BENCH_CLIENTS, as each run counts them (GET /api/mindbody → mindbodyCalls).
  const callsAt = async (count) => {
    await fetch(`${origin}/_sandbox/reset`, {
      method: 'POST',
      body: JSON.stringify({ clientCount: count }),
    });
    const job = await importJob();
    await pricedBy(job.businessId);
    const cookie = lastCookie;
    const status = async () => call(cookie, 'GET', '/api/mindbody');
    // The prices job records its calls as it ends: a moment after the last member is priced.
    let afterImport = (await status()).mindbodyCalls;
    for (let tries = 0; tries < 50 && afterImport.thisMonth === afterImport.lastRun; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      afterImport = (await status()).mindbodyCalls;
    }
    await call(cookie, 'PUT', '/api/mindbody/discounts', { discountOnReferralCents: 500 });
    const sync = async () => {
      // The job marks itself running when a worker picks it: until then the state is the last run's.
      const before = (await status()).processState;
      // A sync confirms the preview of the bills it changes (issue 25).
      const preview = await call(cookie, 'GET', '/api/mindbody/sync/preview');
      await call(cookie, 'POST', '/api/mindbody/sync', { confirm: preview.fingerprint });
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const now = await status();
        if (now.processState === 'running' || now.processState === before) continue;
        if (!now.processState?.startsWith('completed'))
          throw new Error(`sync: ${now.processState}`);
        return now.mindbodyCalls.lastRun;
      }
    };
    const first = await sync();
    const unchanged = await sync();
    console.log(
      `  ${count.toLocaleString('en-AU')} clients: import ${afterImport.lastRun} calls (${Math.ceil(count / PAGE)} pages), prices job ${afterImport.thisMonth - afterImport.lastRun}, first sync ${first}, unchanged sync ${unchanged}`,
    );
  };
  if (process.env.BENCH_CALLS !== '0') {
    console.log('Mindbody calls (Mindbody bills them):');
    for (const count of [...new Set([2_500, clients])]) await callsAt(count);
  }
  await fetch(`${origin}/_sandbox/reset`, {
    method: 'POST',
    body: JSON.stringify({ clientCount: clients }),
  });

  if (latencyMs > 0) {
    // Rounds as the no-latency pass: each import between two runs of the bare pages, medians.
    await setLatency(latencyMs);
    const slowPages = [(await time(fetchPages)).ms];
    const slowImports = [];
    for (let round = 0; round < rounds; round++) {
      slowImports.push(await importJob());
      slowPages.push((await time(fetchPages)).ms);
    }
    await setLatency(0);
    const slowBare = median(slowPages);
    const slow = median(slowImports.map(({ ms: value }) => value));
    const last = slowImports.at(-1);
    console.log(`${latencyMs} ms latency per client page (medians of ${rounds} rounds):`);
    console.log(
      `  (a) every page straight from the sandbox:       ${ms(slowBare)} (runs: ${slowPages.map(ms).join(', ')})`,
    );
    console.log(
      `  (b) full import job into an empty business:     ${ms(slow)} (runs: ${slowImports.map(({ ms: value }) => ms(value)).join(', ')}; ${last.counts})`,
    );
    console.log(`  ratio b/a: ${(slow / slowBare).toFixed(2)}x (target ≤ 1.1x, issue 36)`);
  }
} finally {
  await bench?.close();
  sandbox.kill('SIGTERM');
}
