#!/usr/bin/env node
// `npm run bench:join-timing` (issue 11): can a stopwatch tell who is a member? A business of
// 10,000 members, 3 × (BENCH_JOINS + BENCH_WARMUP) of them with a referral link. One client
// posts joins one at a time, interleaving five cases so all share the same moment of the
// machine: a stranger (queued as a prospect), another member's email (flagged), the referrer's
// own email (flagged), and the stranger's and the member's join once more (each a repeat that
// updates its row). Every first join inserts one new row (fresh emails, fresh referrers). Prints
// median / p90 / mean per case and their ratios to the stranger's, and checks that every reply
// was the same 201 body and that only strangers became prospects. Run `npm run build` first.
import { performance } from 'node:perf_hooks';
import { startBenchApi } from './harness.mjs';

const joins = Number(process.env.BENCH_JOINS ?? 1000);
const warmup = Number(process.env.BENCH_WARMUP ?? 100);
const MEMBERS = 10_000;
const perCase = joins + warmup;
if (3 * perCase + perCase > MEMBERS)
  throw new Error('BENCH_JOINS + BENCH_WARMUP too large for 10,000 members');

const bench = await startBenchApi({ THROTTLE_DISABLED: 'true' });
try {
  const { base, businessId } = bench;
  await bench.sql(
    `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, created_at)
     SELECT $1, 'Member ' || i, 'member' || i || '@bench.example.com', 'member' || i || '@benchexamplecom',
            4900, 500, now() - (i || ' minutes')::interval
     FROM generate_series(1, $2::int) AS i`,
    [businessId, MEMBERS],
  );
  // Members 1 .. 3 × perCase get a link; member n's code is 'benchcode' + n, zero-padded (16+ characters).
  await bench.sql(
    `INSERT INTO referral_links (business_id, member_id, code)
     SELECT m.business_id, m.id, 'benchcode' || lpad(substring(m.email FROM 'member([0-9]+)@')::text, 8, '0')
     FROM members m WHERE m.business_id = $1 AND substring(m.email FROM 'member([0-9]+)@')::int <= $2`,
    [businessId, 3 * perCase],
  );
  await bench.sql('VACUUM ANALYZE');
  const code = (n) => `benchcode${String(n).padStart(8, '0')}`;
  const email = (n) => `member${n}@bench.example.com`;

  // Case k's i-th join uses referrer k × perCase + i + 1 (its own fresh link).
  const cases = [
    {
      name: 'stranger',
      body: (i) => ({ referrer: i + 1, email: `stranger${i}@elsewhere.example.com` }),
    },
    // Another member's email: members above 3 × perCase have no link, one per join.
    {
      name: 'member of the business',
      body: (i) => ({ referrer: perCase + i + 1, email: email(3 * perCase + i + 1) }),
    },
    {
      name: 'referrer (own link)',
      body: (i) => ({ referrer: 2 * perCase + i + 1, email: email(2 * perCase + i + 1) }),
    },
    // The same stranger and member once more, right after their first join in the same round:
    // a repeat must not tell them apart either (each repeat updates its one row).
    {
      name: 'stranger, again',
      body: (i) => ({ referrer: i + 1, email: `stranger${i}@elsewhere.example.com` }),
    },
    {
      name: 'member, again',
      body: (i) => ({ referrer: perCase + i + 1, email: email(3 * perCase + i + 1) }),
    },
  ];
  const times = cases.map(() => []);
  const replies = new Set();
  for (let i = 0; i < perCase; i++) {
    for (const [k, { body }] of cases.entries()) {
      const { referrer, email: friendEmail } = body(i);
      const started = performance.now();
      const reply = await fetch(`${base}/api/referrals/${code(referrer)}/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bench Friend', email: friendEmail }),
      });
      const text = await reply.text();
      const elapsed = performance.now() - started;
      replies.add(`${reply.status} ${text}`);
      if (i >= warmup) times[k].push(elapsed);
    }
  }

  const quantile = (sorted, q) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const stats = times.map((list) => {
    const sorted = [...list].sort((a, b) => a - b);
    return {
      median: quantile(sorted, 0.5),
      p90: quantile(sorted, 0.9),
      mean: list.reduce((a, b) => a + b, 0) / list.length,
    };
  });
  console.log(
    `${joins} joins per case (after ${warmup} unmeasured), one client, cases interleaved; ${MEMBERS} members in the business`,
  );
  console.log(
    `${'case'.padEnd(24)} ${'median'.padStart(9)} ${'p90'.padStart(9)} ${'mean'.padStart(9)}   median / stranger   p90 / stranger`,
  );
  for (const [k, { name }] of cases.entries()) {
    const s = stats[k];
    const ratio = (value, ref) => `${(value / ref).toFixed(3)}x`;
    console.log(
      `${name.padEnd(24)} ${s.median.toFixed(2).padStart(6)} ms ${s.p90.toFixed(2).padStart(6)} ms ${s.mean.toFixed(2).padStart(6)} ms   ${ratio(s.median, stats[0].median).padStart(17)}   ${ratio(s.p90, stats[0].p90).padStart(14)}`,
    );
  }
  const {
    rows: [counts],
  } = await bench.sql(
    `SELECT (SELECT count(*)::int FROM prospects) AS prospects, (SELECT count(*)::int FROM join_flags) AS flags,
            (SELECT count(*)::int FROM join_flags WHERE reasons = '{already_member}') AS members,
            (SELECT count(*)::int FROM join_flags WHERE reasons = '{self_referral}') AS selves,
            (SELECT sum(join_attempts)::int FROM prospects) AS stranger_joins,
            (SELECT sum(attempts)::int FROM join_flags WHERE reasons = '{already_member}') AS member_joins`,
  );
  console.log(`replies: ${[...replies].join(' | ')}`);
  console.log(
    `stored: ${counts.prospects} prospects (${counts.stranger_joins} joins), ${counts.flags} flags (${counts.members} already_member with ${counts.member_joins} joins, ${counts.selves} self_referral)`,
  );
  const expected =
    counts.prospects === perCase &&
    counts.members === perCase &&
    counts.selves === perCase &&
    counts.stranger_joins === 2 * perCase &&
    counts.member_joins === 2 * perCase;
  if (replies.size !== 1 || !expected) {
    console.error('FAILED: replies differ or the stored rows are not one per join');
    process.exitCode = 1;
  }
} finally {
  await bench.close();
}
