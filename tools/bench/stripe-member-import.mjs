// `npm run bench:stripe`, second part (issue 32): the Stripe member import of BENCH_STRIPE_CUSTOMERS
// (default 10,000) customers with active subscriptions, seeded in the stand-in, against its floor,
// and the Stripe calls of an import and of a sync with nothing to change. Called by stripe.mjs
// with its running bench API (whose STRIPE_API_URL is `countingProxy`'s, so every call Grove
// makes to Stripe is counted) and the stand-in's origin.
//  (a) fetch floor: the same list pages the import asks for (GET /v1/subscriptions, status=active,
//      limit=100, expand[]=data.customer, starting_after), one after the other, straight from the
//      stand-in with the same restricted key;
//  (f) write floor: ONE INSERT of the members the import stored plus ONE INSERT of their
//      subscriptions (the same rows and columns, every index and trigger), rolled back;
//  (b) the import job, from POST /api/stripe-members/import (202) to its run's `finishedAt`
//      (stamped by the job when its last write is done; polled every 100 ms).
// Prints b/(a+f) (target ≤ 1.5x, as Mindbody's import), an unchanged import's, and the calls.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const PERMISSIONS = { customer: 'read', subscription: 'write', coupon: 'write', invoice: 'read' };

/**
 * A counting HTTP proxy in front of `target` (the stand-in): every request is forwarded as is and
 * counted by method and path (no query). @returns its origin, the counts so far and close()
 */
export async function countingProxy(target) {
  const calls = [];
  const server = http.createServer((request, response) => {
    calls.push(`${request.method} ${request.url.split('?')[0]}`);
    const upstream = http.request(
      `${target}${request.url}`,
      { method: request.method, headers: request.headers },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    calls: () => calls.length,
    since: (start) => calls.slice(start),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const json = async (reply, what) => {
  if (!reply.ok) throw new Error(`${what}: ${reply.status} ${await reply.text()}`);
  return reply.status === 204 ? null : reply.json();
};

/**
 * Runs the member-import measurement on the bench API `bench` (base, cookie, sql) with the
 * stand-in at `origin` and Grove's calls counted by `proxy` (`countingProxy`). Prints its lines.
 */
export async function benchStripeMemberImport({ bench, origin, proxy, customers }) {
  const { base, sql } = bench;
  // A fresh session (the signup's access token may have lapsed during the webhook burst).
  const cookie = await bench.login();
  const api = (method, path, body) =>
    fetch(`${base}${path}`, {
      method,
      headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  await json(
    await fetch(`${origin}/_sandbox/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: customers, seed: 'bench', amount: 4_900 }),
    }),
    'seeding the stand-in',
  );
  const { id: key } = await json(
    await fetch(`${origin}/_sandbox/restricted_keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ permissions: PERMISSIONS }),
    }),
    'a restricted key',
  );
  await json(await api('PUT', '/api/stripe-members/credentials', { apiKey: key }), 'connecting');

  // (a) The fetch floor: the import's pages, straight from the stand-in.
  const fetchPages = async () => {
    const started = performance.now();
    let after = null;
    let pages = 0;
    for (;;) {
      const query = new URLSearchParams({ status: 'active', limit: '100' });
      query.append('expand[]', 'data.customer');
      if (after) query.set('starting_after', after);
      const page = await json(
        await fetch(`${origin}/v1/subscriptions?${query}`, {
          headers: { authorization: `Bearer ${key}` },
        }),
        'a subscriptions page',
      );
      pages += 1;
      if (!page.has_more) break;
      after = page.data.at(-1).id;
    }
    return { ms: performance.now() - started, pages };
  };
  await fetchPages(); // warm-up (JIT, sockets)
  const floorFetch = await fetchPages();

  // (b) The import job: POST → 202, then the run's own finish time.
  const runImport = async () => {
    const before = proxy.calls();
    const started = Date.now();
    await json(await api('POST', '/api/stripe-members/import'), 'starting the import');
    for (;;) {
      const status = await json(await api('GET', '/api/stripe-members'), 'the status');
      if (status.run && status.run.state !== 'running') {
        if (status.run.state !== 'done') throw new Error(`import failed: ${status.run.error}`);
        return {
          ms: Date.parse(status.run.finishedAt) - started,
          run: status.run,
          calls: proxy.since(before),
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const first = await runImport();
  const again = await runImport();

  // (f) The write floor: the stored members and subscriptions, ONE INSERT each, rolled back.
  const {
    rows: [{ business_id: businessId }],
  } = await sql('SELECT business_id FROM stripe_member_integrations LIMIT 1');
  const { rows: members } = await sql(
    `SELECT m.name, m.email, m.email_key, m.membership_price_cents, m.discount_cents,
            s.stripe_subscription_id, s.stripe_customer_id, s.currency, s.price_cents
       FROM members m JOIN stripe_member_subscriptions s ON s.business_id = m.business_id AND s.member_id = m.id
      WHERE m.business_id = $1`,
    [businessId],
  );
  const column = (name) => members.map((row) => row[name]);
  await sql('BEGIN');
  let floorWrite;
  try {
    const {
      rows: [floorBusiness],
    } = await sql(
      `INSERT INTO businesses (name, website, phone) VALUES ('Floor', 'floor.example.com', '0412 345 678') RETURNING id`,
    );
    const started = performance.now();
    const { rows: ids } = await sql(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::int[]) RETURNING id`,
      [
        floorBusiness.id,
        column('name'),
        column('email'),
        column('email_key'),
        column('membership_price_cents'),
        column('discount_cents'),
      ],
    );
    // Unique subscription ids of their own: the real ones are the bench business's.
    await sql(
      `INSERT INTO stripe_member_subscriptions (business_id, member_id, stripe_subscription_id, stripe_customer_id, currency, price_cents)
       SELECT $1, * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[])`,
      [
        floorBusiness.id,
        ids.map((row) => row.id),
        column('stripe_subscription_id').map((id) => `floor_${id}`),
        column('stripe_customer_id'),
        column('currency'),
        column('price_cents'),
      ],
    );
    floorWrite = performance.now() - started;
  } finally {
    await sql('ROLLBACK');
  }

  // A sync with nothing to change (discounts saved, no branch): its Stripe calls.
  await json(
    await api('PUT', '/api/stripe-members/discounts', { discountOnReferralCents: 1_000 }),
    'saving the discounts',
  );
  const beforeSync = proxy.calls();
  const preview = await json(await api('GET', '/api/stripe-members/sync/preview'), 'the preview');
  await json(
    await api('POST', '/api/stripe-members/sync', { confirm: preview.fingerprint }),
    'starting the sync',
  );
  for (;;) {
    const status = await json(await api('GET', '/api/stripe-members'), 'the status');
    if (status.run?.kind === 'sync' && status.run.state !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const syncCalls = proxy.since(beforeSync);

  const s = (value) => `${(value / 1000).toFixed(1)} s`;
  const floor = floorFetch.ms + floorWrite;
  const byPath = (calls) =>
    Object.entries(
      calls.reduce((counts, call) => ({ ...counts, [call]: (counts[call] ?? 0) + 1 }), {}),
    )
      .map(([call, n]) => `${n} × ${call}`)
      .join(', ') || 'none';
  console.log(
    `\nStripe member import, ${customers.toLocaleString('en-AU')} customers with active subscriptions (issue 32):`,
  );
  console.log(`  (a) fetch floor, ${floorFetch.pages} list pages: ${s(floorFetch.ms)}`);
  console.log(`  (f) write floor, ONE INSERT of members + subscriptions: ${s(floorWrite)}`);
  console.log(
    `  (b) import job: ${s(first.ms)} (${first.run.listed} listed, ${first.run.membersWritten} members written); b/(a+f): ${(first.ms / floor).toFixed(2)}x (target ≤ 1.5x)`,
  );
  console.log(
    `  unchanged import: ${s(again.ms)} (${again.run.membersWritten} written); /(a+f): ${(again.ms / floor).toFixed(2)}x`,
  );
  console.log(`  Stripe calls of the import: ${byPath(first.calls)}`);
  console.log(`  Stripe calls of an unchanged import: ${byPath(again.calls)}`);
  console.log(
    `  Stripe calls of a sync with nothing to change (preview + confirmed sync): ${byPath(syncCalls)} (target: the list pages only)`,
  );
  return {
    ratio: first.ms / floor,
    listed: first.run.listed,
    syncCalls: syncCalls.length,
    importCalls: first.calls.length,
    pages: floorFetch.pages,
  };
}
