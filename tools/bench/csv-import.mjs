#!/usr/bin/env node
// `npm run bench:csv-import` (issue 14 part 5): `members import` of BENCH_CSV_ROWS (default 10,000)
// CSV rows into an empty business of the built API on a throwaway database, against the write
// floor, in one run:
//  - (a) upload + dry run (parse, plan every row against the business's members);
//  - (b) the import itself: from POST …/run to the job's 'done' (polled every 100 ms), i.e. the
//    plan made again under the business's lock plus the set-based writes (members, referrers,
//    lifecycle facts, price ledger) in one transaction;
//  - (f) the write floor: ONE INSERT … SELECT of the same member rows (same columns, referrers
//    included) into an empty business of the same indexed, triggered `members` table; rolled back;
//  - issue 36: a new business gives every new member an automatic referral link, so (b) includes
//    10,000 links, their facts and audit entries. (b') the same import into a second business with
//    the setting off, and (f') the floor with, in the same statement, each member's link, fact and
//    audit entry written by the API's own SQL (`automaticLinksSql`).
// Prints rows/s of (b) and (a)+(b), the ratios (b)/(f'), (b')/(f) and (b)/(f), with the machine's
// load average (the machine may be shared). Run `npm run build` first (api).
//
// `benchCsvImport({ base, cookie, sql })` is exported so another bench (bench:analytics) can run
// the same measurement on its own API: `cookie` is a signed-in owner whose business gets the rows.
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { membersWriteFloor, startBenchApi } from './harness.mjs';
import { databaseSignupTokens, signUpOwner } from './seed.mjs';

/** 0 → "a", 25 → "z", 26 → "ba": a name of letters only (the add-member form's name rule). */
const letters = (n) => {
  let out = '';
  do {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
};

/**
 * A CSV of `rows` members: a tree every 100 rows, the others its branches (referrer by email).
 * @param tag makes the emails unique per run
 */
export function benchCsv(rows, tag = 'bench') {
  const lines = ['Name,Email,Membership price,Discount,Referrer email'];
  for (let i = 0; i < rows; i++) {
    const tree = i - (i % 100);
    const referrer = i === tree ? '' : `m${tree}.${tag}@example.com`;
    lines.push(`Member ${letters(i)},m${i}.${tag}@example.com,49.95,5,${referrer}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Measures one CSV import of `rows` rows into the business of `cookie` and the write floor; with
 * `linkFloor`, also the floor with the members' automatic links (`linkFloorMs`).
 * @returns `{ rows, prepareMs, importMs, floorMs, linkFloorMs?, rowsPerSecond, ratio }` (ms, rows/s)
 */
export async function benchCsvImport({
  base,
  cookie,
  sql,
  rows = 10_000,
  tag = `b${Date.now()}`,
  linkFloor = false,
}) {
  const call = async (method, route, body, contentType = 'application/json') => {
    const reply = await fetch(`${base}${route}`, {
      method,
      headers: { cookie, 'content-type': contentType, origin: base },
      body:
        body === undefined ? undefined : contentType === 'text/csv' ? body : JSON.stringify(body),
    });
    if (!reply.ok) throw new Error(`${method} ${route}: ${reply.status} ${await reply.text()}`);
    return reply.json();
  };
  const csv = benchCsv(rows, tag);
  const prepareStarted = performance.now();
  const upload = await call('POST', '/api/members-csv/imports', csv, 'text/csv');
  const dry = await call('POST', `/api/members-csv/imports/${upload.importId}/dry-run`, {
    mapping: upload.mapping,
  });
  const prepareMs = performance.now() - prepareStarted;
  if (dry.counts.add !== rows) throw new Error(`dry run: ${JSON.stringify(dry.counts)}`);
  const started = performance.now();
  await call('POST', `/api/members-csv/imports/${upload.importId}/run`, {
    mapping: upload.mapping,
  });
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const status = await call('GET', `/api/members-csv/imports/${upload.importId}`);
    if (status.state === 'done') break;
    if (status.state === 'failed') throw new Error(`import failed: ${status.error}`);
  }
  const importMs = performance.now() - started;
  const floorMs = await writeFloor(sql, tag);
  const linkFloorMs = linkFloor ? await writeFloor(sql, tag, true) : undefined;
  return {
    rows,
    tag,
    prepareMs,
    importMs,
    floorMs,
    linkFloorMs,
    rowsPerSecond: rows / (importMs / 1000),
    ratio: importMs / floorMs,
  };
}

/**
 * The write floor: the imported members (name, email, email key, price, discount, referrer) as
 * arrays, inserted in ONE statement into an empty business of the same table; rolled back. ms.
 * With `links`, the same statement writes their automatic links, facts and audit entries too.
 */
async function writeFloor(sql, tag, links = false) {
  const columns = {
    name: 'text',
    email: 'text',
    email_key: 'text',
    membership_price_cents: 'int',
    discount_cents: 'int',
    referred_by_id: 'uuid',
  };
  const { rows } = await sql(
    `SELECT ${Object.keys(columns).join(', ')} FROM members WHERE email LIKE $1`,
    [`%.${tag}@example.com`],
  );
  const {
    rows: [owner],
  } = await sql(
    `SELECT u.id FROM users u JOIN members m ON m.business_id = u.business_id
     WHERE m.email LIKE $1 LIMIT 1`,
    [`%.${tag}@example.com`],
  );
  return membersWriteFloor(sql, columns, rows, links ? { userId: owner.id } : undefined);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = Number(process.env.BENCH_CSV_ROWS ?? 10_000);
  // A second sign-up (the business with its automatic links off) within the sign-up throttle.
  const bench = await startBenchApi({ THROTTLE_DISABLED: 'true' });
  try {
    const loadBefore = os.loadavg()[0];
    // Warm-up: a small import (JIT, pools, the queue) into the same business.
    await benchCsvImport({ ...bench, rows: 200, tag: 'warmup' });
    const result = await benchCsvImport({ ...bench, rows, linkFloor: true });
    const email = 'bench-links-off@grove.local';
    const cookie = await signUpOwner(
      bench.base,
      { businessName: 'Bench Gym Links Off', email },
      databaseSignupTokens(bench.sql, bench.jwtSecret),
    );
    const off = await fetch(`${bench.base}/api/referral-links/settings`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json', origin: bench.base },
      body: JSON.stringify({ autoCreate: false }),
    });
    if (!off.ok) throw new Error(`links off: ${off.status} ${await off.text()}`);
    const unlinked = await benchCsvImport({ ...bench, cookie, rows, tag: `n${Date.now()}` });
    const linksOf = async (tag) =>
      (
        await bench.sql(
          `SELECT count(*)::int AS n FROM referral_links l JOIN members m ON m.id = l.member_id
           WHERE m.email LIKE $1 AND l.revoked_at IS NULL`,
          [`%.${tag}@example.com`],
        )
      ).rows[0].n;
    const loadAfter = os.loadavg()[0];
    const ms = (value) => `${value.toFixed(0)} ms`;
    console.log(`CSV import of ${rows.toLocaleString('en-AU')} rows (a tree every 100 rows):`);
    console.log(`  (a) upload + dry run:               ${ms(result.prepareMs)}`);
    console.log(
      `  (b) import job (run → done):        ${ms(result.importMs)}  = ${result.rowsPerSecond.toFixed(0)} rows/s`,
    );
    console.log(
      `  (a)+(b) the owner's whole import:   ${ms(result.prepareMs + result.importMs)}  = ${(rows / ((result.prepareMs + result.importMs) / 1000)).toFixed(0)} rows/s`,
    );
    console.log(
      `      with ${await linksOf(result.tag)} automatic links; (b') same, links off: ${ms(unlinked.importMs)} (${await linksOf(unlinked.tag)} links)`,
    );
    console.log(`  (f) write floor, one INSERT:        ${ms(result.floorMs)}`);
    console.log(
      `  (f') (f) + links, facts, audit:     ${ms(result.linkFloorMs)}  (one statement, automaticLinksSql)`,
    );
    console.log(
      `  (b)/(f'): ${(result.importMs / result.linkFloorMs).toFixed(1)}x; (b')/(f): ${(unlinked.importMs / result.floorMs).toFixed(1)}x (target ≤ 2.5x each); (b)/(f): ${result.ratio.toFixed(1)}x`,
    );
    console.log(
      `  load average (1 min) before/after: ${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)} on ${os.cpus().length} cores`,
    );
  } finally {
    await bench.close();
  }
}
