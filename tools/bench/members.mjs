#!/usr/bin/env node
// `npm run bench:members` (issue 2): seeds a business with 10,000 trees and 5,000 branches on a
// throwaway embedded PostgreSQL, starts the built API, then loads with autocannon (50
// connections) the members list (a sorted 50-row page, then a search) and /api/health in the
// same run, and prints req/s, p99 and the ratios. Needs a build first (`npm run build`).
// Targets: members page p99 < 50 ms and ≥ 40% of the health endpoint's req/s.
import autocannon from 'autocannon';
import { startBenchApi } from './harness.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
// Each endpoint first runs unmeasured at the same 50 connections (autocannon's `warmup`), so the
// figures are the steady state: the first ~2 s at a new concurrency run slow while V8 grows its
// heap and tiers up the code (seen as a burst of slow requests at the start of every run).
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const connections = 50;
const TREES = 10_000;
const BRANCHES = 5_000;

const bench = await startBenchApi();
try {
  const { base, cookie, businessId } = bench;
  const client = { query: bench.sql };
  const first = ['Olivia', 'Liam', 'Mia', 'Noah', 'Isla', 'Jack', 'Grace', 'Leo', 'Ava', 'Oscar'];
  const last = ['Smith', 'Nguyen', 'Patel', 'Brown', 'Wilson', 'Taylor', 'Chen', 'Kelly', 'Walker', 'Harris'];
  await client.query(
    `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, created_at)
     SELECT $1, ($2::text[])[1 + i % 10] || ' ' || ($3::text[])[1 + (i / 10) % 10] || ' ' || i,
            'member' || i || '@bench.example.com', 'member' || i || '@benchexamplecom',
            3900 + (i % 9) * 1000, 500 + (i % 3) * 500, now() - (i || ' minutes')::interval
     FROM generate_series(1, $4::int) AS i`,
    [businessId, first, last, TREES],
  );
  // 5,000 branches: members 5,001..10,000 each referred by one of the first 5,000.
  await client.query(
    `WITH numbered AS (SELECT id, row_number() OVER (ORDER BY email) AS n FROM members WHERE business_id = $1)
     UPDATE members m SET referred_by_id = r.id
     FROM numbered b JOIN numbered r ON r.n = ((b.n * 7919) % $2) + 1
     WHERE m.id = b.id AND b.n > $2 AND b.n <= $2 + $3`,
    [businessId, TREES - BRANCHES, BRANCHES],
  );
  const counts = await client.query('SELECT count(*)::int AS trees, count(referred_by_id)::int AS branches FROM members');
  await client.query('VACUUM ANALYZE members');
  if (process.env.BENCH_EXPLAIN) {
    // BENCH_EXPLAIN=1 prints the plans of the list's statements, for tuning.
    const like = '%patel%';
    const plans = {
      count: ['SELECT count(*)::int FROM members m WHERE m.business_id = $1', [businessId]],
      countSearch: [`SELECT count(*)::int FROM members m WHERE m.business_id = $1 AND (lower(m.name) LIKE $2 OR lower(m.email) LIKE $2)`, [businessId, like]],
      pageSearch: [`SELECT m.id FROM members m WHERE m.business_id = $1 AND (lower(m.name) LIKE $2 OR lower(m.email) LIKE $2) ORDER BY m.created_at, m.id LIMIT 50`, [businessId, like]],
    };
    for (const [name, [sql, params]] of Object.entries(plans)) {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
      console.log(`-- ${name}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
    }
  }
  console.log(`seeded ${counts.rows[0].trees} trees, ${counts.rows[0].branches} of them branches`);

  const run = async (title, url) => {
    const result = await autocannon({
      url: base + url,
      connections,
      duration: seconds,
      headers: { cookie },
      ...(warmupSeconds > 0 ? { warmup: { connections, duration: warmupSeconds } } : {}),
    });
    const failures = result.non2xx + result.errors + result.timeouts;
    console.log(`${title.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p99 ${String(result.latency.p99).padStart(4)} ms   (p50 ${result.latency.p50}, p90 ${result.latency.p90}, max ${result.latency.max} ms; ${failures} failed)`);
    if (failures > 0) throw new Error(`${title}: ${failures} requests failed`);
    return result;
  };
  const pageUrl = process.env.BENCH_PAGE_URL ?? '/api/members?page=3&pageSize=50&sort=memberName&order=asc';
  const sample = await fetch(base + pageUrl, { headers: { cookie } });
  const sampleBody = await sample.text();
  console.log(`members page response: ${sample.status}, ${sampleBody.length} bytes of JSON`);
  if (process.env.BENCH_SHOW_PAGE) console.log(sampleBody.slice(0, 1500));
  console.log(`\nautocannon, ${connections} connections, ${seconds} s each after ${warmupSeconds} s of warm-up:`);
  const page = await run('members page (50 rows, by name)', pageUrl);
  // BENCH_ONLY_PAGE=1 loads the list alone (for profiling it with BENCH_NODE_ARGS).
  if (!process.env.BENCH_ONLY_PAGE) {
    const search = await run('members search ("patel")', '/api/members?page=1&pageSize=50&search=patel');
    const me = await run('auth/me (signed-in baseline)', '/api/auth/me');
    const health = await run('health', '/api/health');
    const ratio = (a) => (a.requests.average / health.requests.average) * 100;
    console.log(`\nmembers page: ${ratio(page).toFixed(0)}% of health req/s, p99 ${page.latency.p99} ms (targets: ≥ 40%, < 50 ms)`);
    console.log(`members search: ${ratio(search).toFixed(0)}% of health req/s, p99 ${search.latency.p99} ms`);
    console.log(`auth/me (session check, no list): ${ratio(me).toFixed(0)}% of health req/s`);
  }
} finally {
  await bench.close();
}
