#!/usr/bin/env node
// `npm run bench:analytics` (issue 14): the seed of `bench:scale` (100 businesses × 10,000
// members, half of them branches, links and prospects) plus a year of history for every member
// (lifecycle facts, join-page visits and price-ledger lines, generated set-based inside
// PostgreSQL like the members), then loads with autocannon (50 connections, 10 s each after 3 s
// of warm-up) each analytics endpoint (joins by channel included) of ONE business for the last 365 days and /api/health in
// the same run, and prints req/s, p50/p99 and each endpoint's ratio to health.
// Targets (issue 14): p99 within 3x of health's, ≥ 25% of its req/s.
// Under load every request after the first is answered from the kept answer (the business's
// facts do not change during the run; `AnalyticsService`), so the script also prints what an
// answer costs when it is computed: the median of 5 first requests, each for a period not asked
// before.
// Run `npm run build` first. BENCH_BUSINESSES, BENCH_TREES, BENCH_SECONDS, BENCH_WARMUP_SECONDS as
// in bench:scale.
// Last, issue 14's `members import`: BENCH_CSV_ROWS (10,000) CSV rows into the same business,
// rows/s and the ratio to the write floor (tools/bench/csv-import.mjs, also `npm run bench:csv-import`).
import os from 'node:os';
import { benchCsvImport } from './csv-import.mjs';
import { loadAgainstHealth, median, seedScale, startBenchApi } from './harness.mjs';

const businesses = Number(process.env.BENCH_BUSINESSES ?? 100);
const trees = Number(process.env.BENCH_TREES ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const connections = 50;
const routes = ['funnel', 'referrers', 'money', 'retention', 'channels'];
// The share channels a visit and a join are spread over (issue 33 item 3, `?via=`).
const channels = `(ARRAY['whatsapp', 'sms', 'email', 'copy', 'qr', 'direct'])`;

/**
 * A year of history for every seeded member, in one statement per table. Member n joined
 * (n × 37 mod 365) days ago; branches joined through their tree's link (a join the day before,
 * then the approval, the branch added to the tree and the tree's price cut); joins and visits
 * spread over the share channels (`?via=`) in turn; every 10th member
 * ended within 200 days; every odd member's link was created an hour after joining and every
 * 20th of those rotated two days later; one link in five was visited on one day a month.
 * @returns the counts of facts, visits and ledger lines in the tables
 */
async function seedHistory(sql) {
  // Bulk load first, indexes and unique constraints after (one sort each instead of millions of
  // index insertions); the same definitions as the migrations', read from the catalogue.
  const tables = `'lifecycle_facts', 'join_page_visits', 'price_changes'`;
  const { rows: constraints } = await sql(
    `SELECT conrelid::regclass::text AS table_name, conname, pg_get_constraintdef(oid) AS def
     FROM pg_constraint WHERE contype = 'u' AND conrelid::regclass::text IN (${tables})`,
  );
  const { rows: indexes } = await sql(
    `SELECT indexname, indexdef FROM pg_indexes
     WHERE tablename IN (${tables}) AND indexname NOT IN (SELECT conname FROM pg_constraint)`,
  );
  for (const c of constraints)
    await sql(`ALTER TABLE ${c.table_name} DROP CONSTRAINT ${c.conname}`);
  for (const i of indexes) await sql(`DROP INDEX ${i.indexname}`);
  const member = `
    SELECT m.id, m.business_id, m.referred_by_id, m.membership_price_cents, m.discount_cents,
           split_part(split_part(m.email, '@', 1), 'member', 2)::int AS n,
           now() - ((split_part(split_part(m.email, '@', 1), 'member', 2)::int * 37) % 365) * interval '1 day'
                 - (split_part(split_part(m.email, '@', 1), 'member', 2)::int % 1440) * interval '1 minute' AS joined_at
    FROM members m`;
  await sql(`CREATE TEMP TABLE bench_members AS ${member}`);
  await sql(`CREATE INDEX ON bench_members (id)`);
  await sql(`ANALYZE bench_members`);
  await sql(
    `INSERT INTO lifecycle_facts (business_id, kind, occurred_at, member_id, referrer_id, referral_link_id, prospect_id, source, event_key, channel)
     SELECT business_id, 'member_added', joined_at, id, NULL::uuid, NULL::uuid, NULL::uuid,
            CASE WHEN referred_by_id IS NULL THEN 'manual' ELSE 'approval' END, 'member_added:' || id, NULL::text
     FROM bench_members
     UNION ALL
     SELECT business_id, 'member_ended', joined_at + (n % 200) * interval '1 day', id, NULL, NULL, NULL, 'manual', 'member_ended:' || id, NULL
     FROM bench_members WHERE n % 10 = 3 AND joined_at + (n % 200) * interval '1 day' < now()
     UNION ALL
     SELECT business_id, 'prospect_joined', joined_at - interval '1 day', NULL, referred_by_id, NULL, md5('prospect ' || id)::uuid, NULL, 'prospect_joined:' || id,
            ${channels}[1 + n % 6]
     FROM bench_members WHERE referred_by_id IS NOT NULL
     UNION ALL
     SELECT business_id, 'prospect_approved', joined_at, id, referred_by_id, NULL, md5('prospect ' || id)::uuid, 'approval', 'prospect_approved:' || id, NULL
     FROM bench_members WHERE referred_by_id IS NOT NULL
     UNION ALL
     SELECT business_id, 'branch_added', joined_at, id, referred_by_id, NULL, NULL, 'approval', 'branch_added:' || id, NULL
     FROM bench_members WHERE referred_by_id IS NOT NULL`,
  );
  await sql(
    `INSERT INTO lifecycle_facts (business_id, kind, occurred_at, member_id, referrer_id, referral_link_id, prospect_id, source, event_key)
     SELECT l.business_id, 'link_created', b.joined_at + interval '1 hour', l.member_id, NULL::uuid, l.id, NULL::uuid, 'manual', 'link_created:' || l.id
     FROM referral_links l JOIN bench_members b ON b.id = l.member_id
     UNION ALL
     SELECT l.business_id, 'link_rotated', least(b.joined_at + interval '2 days', now()), l.member_id, NULL, md5('rotated ' || l.id)::uuid, NULL, 'manual', 'link_rotated:' || l.id
     FROM referral_links l JOIN bench_members b ON b.id = l.member_id WHERE b.n % 20 = 1`,
  );
  await sql(
    `INSERT INTO join_page_visits (business_id, referral_link_id, day, visits, channel)
     SELECT l.business_id, l.id, (b.joined_at + k * interval '30 days')::date, 1 + (b.n + k) % 7,
            ${channels}[1 + (b.n + k) % 6]
     FROM referral_links l JOIN bench_members b ON b.id = l.member_id
     CROSS JOIN generate_series(0, 11) AS k
     WHERE b.n % 5 = 1 AND b.joined_at + k * interval '30 days' < now()`,
  );
  await sql(
    `INSERT INTO price_changes (business_id, member_id, occurred_at, reason, old_price_cents, new_price_cents, membership_price_cents, branch_id, event_key)
     SELECT business_id, id, joined_at, 'member_added', NULL::int, membership_price_cents, membership_price_cents, NULL::uuid, 'price:member_added:' || id
     FROM bench_members
     UNION ALL
     SELECT b.business_id, b.referred_by_id, b.joined_at, 'branch_added', t.membership_price_cents,
            greatest(t.membership_price_cents - t.discount_cents, 0), t.membership_price_cents, b.id, 'price:branch_added:' || b.id
     FROM bench_members b JOIN bench_members t ON t.id = b.referred_by_id
     UNION ALL
     SELECT business_id, id, joined_at + (n % 200) * interval '1 day', 'membership_ended', membership_price_cents, 0, membership_price_cents, NULL, 'price:ended:' || id
     FROM bench_members WHERE n % 10 = 3 AND joined_at + (n % 200) * interval '1 day' < now()`,
  );
  await sql('DROP TABLE bench_members');
  for (const c of constraints)
    await sql(`ALTER TABLE ${c.table_name} ADD CONSTRAINT ${c.conname} ${c.def}`);
  for (const i of indexes) await sql(i.indexdef);
  await sql('VACUUM ANALYZE lifecycle_facts, join_page_visits, price_changes');
  const {
    rows: [counts],
  } = await sql(
    `SELECT (SELECT count(*)::int FROM lifecycle_facts) AS facts, (SELECT count(*)::int FROM join_page_visits) AS visit_days,
            (SELECT count(*)::int FROM price_changes) AS ledger`,
  );
  return counts;
}

const bench = await startBenchApi();
try {
  const { base, businessId, sql } = bench;
  await seedScale(sql, businessId, { businesses, trees, prospectsPerBusiness: 1_000 });
  let started = performance.now();
  const counts = await seedHistory(sql);
  console.log(
    `seeded a year of history: ${counts.facts.toLocaleString('en-AU')} lifecycle facts, ${counts.visit_days.toLocaleString('en-AU')} link-days of visits, ${counts.ledger.toLocaleString('en-AU')} ledger lines, vacuumed: ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const cookie = await bench.login();
  // What an answer costs when computed: first requests, each for a 365-day period not asked before.
  console.log('\ncomputed (not kept) answers, median of 5 first requests of a 365-day period:');
  const computed = {};
  for (const route of routes) {
    const times = [];
    for (let back = 1; back <= 5; back++) {
      const to = new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
      const from = new Date(Date.now() - (back + 364) * 86_400_000).toISOString().slice(0, 10);
      started = performance.now();
      const reply = await fetch(`${base}/api/analytics/${route}?from=${from}&to=${to}`, {
        headers: { cookie },
      });
      await reply.text();
      if (!reply.ok) throw new Error(`${route}: ${reply.status}`);
      times.push(performance.now() - started);
    }
    computed[route] = median(times);
    console.log(`${route.padEnd(10)} ${computed[route].toFixed(0).padStart(5)} ms`);
  }
  for (const route of routes) {
    const reply = await fetch(`${base}/api/analytics/${route}?period=365`, { headers: { cookie } });
    const body = await reply.json();
    if (!reply.ok) throw new Error(`${route}: ${reply.status} ${JSON.stringify(body)}`);
    console.log(`${route}: ${reply.status}, ${JSON.stringify(body).slice(0, 160)}…`);
  }

  console.log(
    `\nautocannon, ${connections} connections, ${seconds} s each after ${warmupSeconds} s of warm-up; load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${os.cpus().length} cores)`,
  );
  const { results, health } = await loadAgainstHealth(
    { base, cookie, connections, seconds, warmupSeconds },
    routes.map((route) => [route, `/api/analytics/${route}?period=365`]),
  );
  console.log(
    `load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `\none business of ${businesses} (${(businesses * trees).toLocaleString('en-AU')} members in the table), against health (targets: ≥ 25% of its req/s, p99 ≤ 3x):`,
  );
  for (const [route, result] of results) {
    const share = (result.requests.average / health.requests.average) * 100;
    const p99 = result.latency.p99 / health.latency.p99;
    console.log(
      `${route.padEnd(10)} ${share.toFixed(0).padStart(3)}% of health req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms = ${p99.toFixed(2)}x health's ${health.latency.p99} ms; computed answer ${computed[route].toFixed(0)} ms`,
    );
  }

  const csvRows = Number(process.env.BENCH_CSV_ROWS ?? 10_000);
  const imported = await benchCsvImport({ base, cookie: await bench.login(), sql, rows: csvRows });
  console.log(
    `\nmembers import of ${csvRows.toLocaleString('en-AU')} CSV rows into that business: upload + dry run ${imported.prepareMs.toFixed(0)} ms, import job ${imported.importMs.toFixed(0)} ms = ${imported.rowsPerSecond.toFixed(0)} rows/s; write floor (one INSERT of the same rows) ${imported.floorMs.toFixed(0)} ms; job / floor = ${imported.ratio.toFixed(2)}x`,
  );
} finally {
  await bench.close();
}
