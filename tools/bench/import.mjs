#!/usr/bin/env node
// `npm run bench:import` (issue 4): a Mindbody sandbox seeded with 10,000 clients and no latency,
// the built API on a throwaway database. Times, in one run:
//  (a) fetching every client page straight from the sandbox (the same GET /client/clients requests
//      the import sends, 200 per page, one after the other),
//  (b) the full import job into an empty business (POST /api/mindbody/import until the process
//      state is 'completed'), which also reads each member's contract for its autopay price,
//  (c) for reference, (a) plus those contract reads at the import's concurrency (8),
// and prints them with the ratios b/a and b/c. Target: b within 1.5x of a. Run `npm run build` first
// (api and mindbody-sandbox). BENCH_CLIENTS changes the client count; BENCH_LATENCY_MS (default 0)
// adds that much latency to every client page, as a real Mindbody has.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../db/embedded-postgres.mjs';
import { startBenchApi } from './harness.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const clients = Number(process.env.BENCH_CLIENTS ?? 10_000);
const PAGE = 200;
const CONCURRENCY = 8;
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 0);
const login = { Username: 'owner@sandbox.example.com', Password: 'sandbox-pass-1234' };
const headers = { 'Api-Key': 'grove-sandbox-key', SiteId: '-99', Accept: 'application/json' };

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
    MINDBODY_SANDBOX_FAULTS:
      latencyMs > 0 ? JSON.stringify([{ path: '/client/clients', latencyMs }]) : '',
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

  await fetchPages(); // warm-up (JIT, sockets)
  const pagesA = await time(fetchPages);
  const withContracts = await time(async () => fetchContracts(await fetchPages()));

  bench = await startBenchApi({
    MINDBODY_API_URL: api,
    MINDBODY_WEBHOOKS_URL: `${origin}/push/api/v1`,
    MINDBODY_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
  });
  const call = (method, route, body) =>
    fetch(`${bench.base}${route}`, {
      method,
      headers: { cookie: bench.cookie, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => {
      if (!r.ok) throw new Error(`${method} ${route}: ${r.status} ${await r.text()}`);
      return r.json();
    });
  await call('POST', '/api/mindbody/credentials', {
    username: login.Username,
    password: login.Password,
    siteId: '-99',
  });
  const imported = await time(async () => {
    await call('POST', '/api/mindbody/import');
    for (;;) {
      const status = await call('GET', '/api/mindbody');
      if (status.processState !== 'running') return status;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  if (!imported.result.processState?.startsWith('completed'))
    throw new Error(`import ended ${imported.result.processState}`);
  // The follow-up 'prices' job reads each member's contract; time it until every running membership has its price.
  const priced = await time(async () => {
    for (;;) {
      const { rows } = await bench.sql(
        `SELECT count(*)::int AS n FROM members WHERE business_id = $1 AND mindbody_client_id IS NOT NULL
           AND mindbody_cancelled_at IS NULL AND mindbody_autopay_cents IS NULL`,
        [bench.businessId],
      );
      if (rows[0].n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  const pagesB = await time(fetchPages);
  const { rows } = await bench.sql(
    'SELECT count(*)::int AS n, count(mindbody_client_id)::int AS managed FROM members WHERE business_id = $1',
    [bench.businessId],
  );
  const prospects = await bench.sql(
    'SELECT count(*)::int AS n FROM prospects WHERE business_id = $1',
    [bench.businessId],
  );

  const bare = (pagesA.ms + pagesB.ms) / 2;
  const ms = (value) => `${value.toFixed(0)} ms`;
  const latency = latencyMs > 0 ? `${latencyMs} ms latency per page` : 'no latency';
  console.log(
    `Mindbody sandbox, ${clients.toLocaleString('en-AU')} clients, ${latency}; pages of ${PAGE}:`,
  );
  console.log(
    `(a) every page straight from the sandbox:        ${ms(bare)} (runs: ${ms(pagesA.ms)}, ${ms(pagesB.ms)})`,
  );
  console.log(
    `(c) (a) + each member's contracts, ${CONCURRENCY} at once:  ${ms(withContracts.ms)}`,
  );
  console.log(
    `(b) full import job into an empty business:      ${ms(imported.ms)} (${rows[0].n} members, ${rows[0].managed} managed, ${prospects.rows[0].n} prospects)`,
  );
  console.log(
    `    then every member priced by the follow-up job: +${ms(priced.ms)} (one contract read per member)`,
  );
  console.log(
    `ratio b/a: ${(imported.ms / bare).toFixed(2)}x (target ≤ 1.5x); b/c: ${(imported.ms / withContracts.ms).toFixed(2)}x`,
  );
} finally {
  await bench?.close();
  sandbox.kill('SIGTERM');
}
