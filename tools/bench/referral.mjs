#!/usr/bin/env node
// `npm run bench:referral` (issue 3): with throttling switched off by configuration, autocannon
// posts referral sign-ups with distinct emails to one link at 50 connections for 20 s, then
// prints accepted sign-ups/s and p99 and checks that the prospects stored equal the distinct
// emails accepted (nothing lost, nothing doubled). Run `npm run build` first.
import autocannon from 'autocannon';
import { startBenchApi } from './harness.mjs';
import { memberWithLink } from './seed.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const connections = 50;
const bench = await startBenchApi({ THROTTLE_DISABLED: 'true' });
try {
  const link = await memberWithLink(bench.base, bench.cookie);

  let sent = 0;
  const accepted = new Set();
  const result = await autocannon({
    url: bench.base,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: `/api/referrals/${link.code}/join`,
        headers: { 'content-type': 'application/json' },
        // Every request is a different friend; a connection sends one request at a time, so its
        // context remembers whose reply comes back.
        setupRequest: (request, context) => {
          context.email = `friend${sent++}@bench.example.com`;
          return {
            ...request,
            body: JSON.stringify({ name: 'Bench Friend', email: context.email }),
          };
        },
        onResponse: (status, _body, context) => {
          if (status >= 200 && status < 300) accepted.add(context.email);
        },
      },
    ],
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  await new Promise((resolve) => setTimeout(resolve, 500)); // let requests cut off by the clock finish
  const { rows } = await bench.sql(
    'SELECT email, count(*)::int AS n FROM prospects GROUP BY email',
  );
  const stored = new Set(rows.map((row) => row.email));
  const doubled = rows.filter((row) => row.n > 1).length;
  const lost = [...accepted].filter((email) => !stored.has(email)).length;
  // Requests still in flight when autocannon's clock stopped were stored but their reply was
  // never counted; there are at most as many as connections.
  const inFlight = stored.size - (accepted.size - lost);
  console.log(
    `autocannon, ${connections} connections, ${seconds} s, one link, distinct emails (${sent} sent):`,
  );
  console.log(
    `accepted sign-ups: ${accepted.size} (${(accepted.size / seconds).toFixed(0)}/s), p99 ${result.latency.p99} ms, failed ${failed}`,
  );
  console.log(
    `prospects stored: ${stored.size} = ${accepted.size} accepted + ${inFlight} in flight at the cut-off; lost ${lost}, doubled ${doubled}`,
  );
  if (lost > 0 || doubled > 0 || failed > 0 || inFlight > connections) process.exitCode = 1;
} finally {
  await bench.close();
}
