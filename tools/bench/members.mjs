#!/usr/bin/env node
// `npm run bench:members` (issue 2): seeds a business with 10,000 trees and 5,000 branches on a
// throwaway embedded PostgreSQL, starts the built API, then loads with autocannon (50
// connections) the members list (a sorted 50-row page, then a search) and /api/health in the
// same run, and prints req/s, p99 and the ratios. Needs a build first (`npm run build`).
// Targets: members page p99 < 50 ms and ≥ 40% of the health endpoint's req/s.
import { load, printPlans, seedMembers, startBenchApi, withFloor } from './harness.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
// Each endpoint first runs unmeasured at the same 50 connections (see `load`).
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const connections = 50;
const TREES = 10_000;
const BRANCHES = 5_000;

const bench = await startBenchApi();
try {
  const { base, cookie, businessId } = bench;
  const client = { query: bench.sql };
  const counts = await seedMembers(bench.sql, [businessId], { trees: TREES, branches: BRANCHES });
  await client.query('VACUUM ANALYZE members');
  // BENCH_EXPLAIN=1 prints the plans of the list's statements, for tuning.
  if (process.env.BENCH_EXPLAIN) await printPlans(bench.sql, businessId);
  console.log(`seeded ${counts.trees} trees, ${counts.branches} of them branches`);

  // Each list is followed by its own statements run database-only (`withFloor`).
  const run = async (title, url, floor = false) => {
    const result = await load({
      base,
      cookie,
      title,
      url,
      connections,
      seconds,
      warmupSeconds,
      cpu: bench.cpu,
    });
    if (floor) await withFloor(result, bench.sqlFloor, url, { seconds, warmupSeconds });
    return result;
  };
  const pageUrl =
    process.env.BENCH_PAGE_URL ?? '/api/members?page=3&pageSize=50&sort=memberName&order=asc';
  const sample = await fetch(base + pageUrl, { headers: { cookie } });
  const sampleBody = await sample.text();
  console.log(`members page response: ${sample.status}, ${sampleBody.length} bytes of JSON`);
  if (process.env.BENCH_SHOW_PAGE) console.log(sampleBody.slice(0, 1500));
  console.log(
    `\nautocannon, ${connections} connections, ${seconds} s each after ${warmupSeconds} s of warm-up:`,
  );
  const page = await run('members page (50 rows, by name)', pageUrl, true);
  // BENCH_ONLY_PAGE=1 loads the list alone (for profiling it with BENCH_NODE_ARGS).
  if (!process.env.BENCH_ONLY_PAGE) {
    const search = await run(
      'members search ("patel")',
      '/api/members?page=1&pageSize=50&search=patel',
      true,
    );
    const me = await run('auth/me (signed-in baseline)', '/api/auth/me');
    const health = await run('health', '/api/health');
    const ratio = (a) => (a.requests.average / health.requests.average) * 100;
    console.log(
      `\nmembers page: ${ratio(page).toFixed(0)}% of health req/s, p99 ${page.latency.p99} ms (targets: ≥ 40%, < 50 ms)`,
    );
    console.log(
      `members search: ${ratio(search).toFixed(0)}% of health req/s, p99 ${search.latency.p99} ms`,
    );
    console.log(`auth/me (session check, no list): ${ratio(me).toFixed(0)}% of health req/s`);
    const floor = (result) =>
      `${((result.requests.average / result.floor.requests.average) * 100).toFixed(0)}% of its own SQL's req/s run database-only (target ≥ 50%: within 2x)`;
    console.log(`members page: ${floor(page)}\nmembers search: ${floor(search)}`);
  }
} finally {
  await bench.close();
}
