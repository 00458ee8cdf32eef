#!/usr/bin/env node
// `npm run bench:retention` (issue 31 item 6: retention jobs, "with figures in
// docs/operations.md"): what the daily retention sweep costs and whether it slows anyone else.
//  1. starts the built API on a throwaway embedded PostgreSQL (tools/bench/harness.mjs) and adds
//     one member (the rows of member tables need one);
//  2. fills every table of the sweep's rules (read from apps/api/src/app/platform/jobs/retention.ts,
//     the one place they are written) with BENCH_RETENTION_ROWS rows past their retention and as
//     many inside it, generated inside PostgreSQL (one INSERT … SELECT generate_series per table
//     and kind), then VACUUM ANALYZE (a live database has statistics);
//  3. loads /api/health with autocannon (BENCH_CONNECTIONS, 50) alone, then again while the real
//     sweep runs: its pg-boss job (`retention`) is queued, and the API's own worker runs it;
//  4. prints the rows per table, the job's time (pg-boss's started → completed stamps), rows per
//     second, health's req/s and p99 alone and during the sweep, and the load average; exits 1 when
//     a row past its retention is left or a row inside it was deleted.
// Run `npm run build` first. BENCH_RETENTION_ROWS (default 100,000 per table and kind),
// BENCH_CONNECTIONS, BENCH_SECONDS (each load, default 10).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PgBoss from 'pg-boss';
import { load, startBenchApi } from './harness.mjs';
import { memberWithLink } from './seed.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const ROWS = Number(process.env.BENCH_RETENTION_ROWS ?? 100_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const log = (line) => console.log(`[bench] ${line}`);
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

/**
 * The sweep's rules as retention.ts writes them: `{ table, column, days }` for each
 * `{ table: 'x', expired: \`column < now() - interval 'N days'\` }`.
 */
function retentionRules() {
  const source = fs.readFileSync(
    path.join(root, 'apps/api/src/app/platform/jobs/retention.ts'),
    'utf8',
  );
  const rules = [
    ...source.matchAll(/\{ table: '(\w+)', expired: `(\w+) < now\(\) - interval '(\d+) days'` \}/g),
  ].map(([, table, column, days]) => ({ table, column, days: Number(days) }));
  if (rules.length === 0) throw new Error('no retention rule found in retention.ts');
  return rules;
}

/**
 * One SQL expression per column that needs a value (NOT NULL without a default, or a foreign
 * key's, pointed at an existing row), for row number `g`; `time` for the rule's column.
 */
async function columnValues(sql, table, timeColumn, time) {
  const { rows: columns } = await sql(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS default_value,
            (SELECT format('%s.%s', c.confrelid::regclass, af.attname)
               FROM pg_constraint c
               JOIN pg_attribute af ON af.attrelid = c.confrelid AND af.attnum = c.confkey[1]
              WHERE c.contype = 'f' AND c.conrelid = a.attrelid AND c.conkey[1] = a.attnum
              LIMIT 1) AS reference
       FROM pg_attribute a
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
        AND a.attidentity = '' AND a.attgenerated = ''`,
    [table],
  );
  const values = {};
  for (const column of columns) {
    if (column.name === timeColumn) values[column.name] = time;
    else if (column.reference) {
      const [refTable, refColumn] = column.reference.split('.');
      const { rows } = await sql(`SELECT ${refColumn}::text AS v FROM ${refTable} LIMIT 1`);
      if (rows.length === 0) throw new Error(`${table}.${column.name}: ${refTable} is empty`);
      values[column.name] = `'${rows[0].v}'`;
    } else if (column.not_null && column.default_value === null) {
      const type = column.type;
      values[column.name] = type.startsWith('uuid')
        ? 'gen_random_uuid()'
        : /char|text/.test(type)
          ? `'bench-' || g || '-' || random()`
          : /int|numeric/.test(type)
            ? 'g'
            : type === 'boolean'
              ? 'false'
              : /json/.test(type)
                ? `'{}'`
                : type === 'bytea'
                  ? `sha256(('bench' || g || random())::bytea)`
                  : type.startsWith('timestamp')
                    ? 'now()'
                    : type === 'inet'
                      ? `'127.0.0.1'`
                      : null;
      if (values[column.name] === null) throw new Error(`${table}.${column.name}: type ${type}`);
    }
  }
  return values;
}

/** Inserts `count` rows into `table` whose `column` is `time` (an SQL expression). */
async function fill(sql, table, column, time, count) {
  const values = await columnValues(sql, table, column, time);
  const names = Object.keys(values);
  await sql(
    `INSERT INTO ${table} (${names.map((name) => `"${name}"`).join(', ')})
     SELECT ${names.map((name) => values[name]).join(', ')} FROM generate_series(1, $1) AS g`,
    [count],
  );
}

const api = await startBenchApi();
const boss = new PgBoss({ connectionString: api.databaseUrl, schema: 'pgboss', supervise: false });
try {
  await memberWithLink(api.base, api.cookie);
  const rules = retentionRules();
  log(
    `filling ${rules.length} tables with ${ROWS.toLocaleString('en')} rows past and inside retention each…`,
  );
  const started = Date.now();
  for (const rule of rules) {
    // Past: a day beyond the rule, spread over 60 days; inside: up to a day short of it.
    await fill(
      api.sql,
      rule.table,
      rule.column,
      `now() - interval '${rule.days + 1} days' - (g % 60) * interval '1 day'`,
      ROWS,
    );
    await fill(
      api.sql,
      rule.table,
      rule.column,
      `now() - interval '${rule.days - 1} days' + (g % 60) * interval '1 hour'`,
      ROWS,
    );
  }
  await api.sql('VACUUM ANALYZE');
  log(`filled in ${((Date.now() - started) / 1000).toFixed(1)} s; load average ${loadAverage()}`);
  const counts = async () => {
    const result = {};
    for (const rule of rules) {
      const { rows } = await api.sql(
        `SELECT count(*) FILTER (WHERE ${rule.column} < now() - interval '${rule.days} days')::int AS past,
                count(*) FILTER (WHERE ${rule.column} >= now() - interval '${rule.days} days')::int AS inside
           FROM ${rule.table}`,
      );
      result[rule.table] = rows[0];
    }
    return result;
  };
  const before = await counts();

  const options = { base: api.base, cookie: api.cookie, connections, seconds, warmupSeconds: 3 };
  const alone = await load({ ...options, title: 'health, no sweep', url: '/api/health' });

  await boss.start();
  const jobId = await boss.send('retention', {});
  if (!jobId) throw new Error('the retention job was not queued (one already queued?)');
  log(`sweep queued (job ${jobId}); load average ${loadAverage()}`);
  const during = [];
  let job;
  for (;;) {
    job = await boss.getJobById('retention', jobId);
    if (job?.state === 'completed' || job?.state === 'failed') break;
    during.push(
      await load({
        ...options,
        warmupSeconds: 0,
        title: 'health, during the sweep',
        url: '/api/health',
      }),
    );
  }
  if (job.state !== 'completed') throw new Error(`the sweep failed: ${JSON.stringify(job.output)}`);
  const sweepMs = new Date(job.completedOn).getTime() - new Date(job.startedOn).getTime();
  const after = await counts();

  console.log(
    '\ntable                        past before  inside before  past after  inside after',
  );
  let deleted = 0;
  let wrong = false;
  for (const rule of rules) {
    const [b, a] = [before[rule.table], after[rule.table]];
    deleted += b.past - a.past;
    if (a.past !== 0 || a.inside !== b.inside) wrong = true;
    console.log(
      `${rule.table.padEnd(28)} ${String(b.past).padStart(11)}  ${String(b.inside).padStart(13)}  ${String(a.past).padStart(10)}  ${String(a.inside).padStart(12)}`,
    );
  }
  const duringRps = during.length
    ? Math.round(during.reduce((sum, r) => sum + r.requests.average, 0) / during.length)
    : null;
  const duringP99 = during.length ? Math.max(...during.map((r) => r.latency.p99)) : null;
  console.log(
    `\nsweep: ${deleted.toLocaleString('en')} rows deleted in ${(sweepMs / 1000).toFixed(1)} s (${Math.round(deleted / (sweepMs / 1000)).toLocaleString('en')} rows/s)`,
  );
  console.log(
    `health alone ${Math.round(alone.requests.average)} req/s, p99 ${alone.latency.p99} ms; during the sweep ${duringRps ?? '—'} req/s (${duringRps ? Math.round((100 * duringRps) / alone.requests.average) : '—'}%), worst p99 ${duringP99 ?? '—'} ms (${during.length} load(s)); load average ${loadAverage()}`,
  );
  if (wrong) {
    console.error('a row past its retention was left, or a row inside it was deleted');
    process.exitCode = 1;
  }
} finally {
  await boss.stop({ graceful: false }).catch(() => undefined);
  await api.close();
}
