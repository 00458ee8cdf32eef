import { loadAppConfig } from '../../app-config';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';
import { waitFor } from '../../../../test/stub-servers';
import { JobsService } from '../jobs/jobs.service';
import { MailService } from '../mail/mail.service';
import { MetricsServer } from './metrics-server';

jest.setTimeout(60_000);

/** One sample of a Prometheus text exposition: metric name, labels, value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Every sample line of a scrape (comments left out). */
function samples(body: string): Sample[] {
  return body
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The value of the sample `name` whose labels include `labels`; undefined when none has them. */
function valueOf(body: string, name: string, labels: Record<string, string> = {}) {
  return samples(body).find(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('GET /metrics on its own port (integration, issue 23.5)', () => {
  let t: TestApp;
  let metricsUrl: string;
  const logLines: string[] = [];
  const scrape = async (headers: Record<string, string> = {}) => {
    const reply = await fetch(metricsUrl, { headers });
    return {
      status: reply.status,
      type: reply.headers.get('content-type'),
      body: await reply.text(),
    };
  };

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logLines });
    const port = await t.app.get(MetricsServer).listen();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
  });
  afterAll(() => t.close());

  it('answers the Prometheus text format, requests labelled by route pattern, never a raw id', async () => {
    const { agent } = await t.signUp({ businessName: "Siobhán O'Brien Fitness" });
    const member = (
      await agent
        .post('/api/members')
        .send(treeBody("Siobhán O'Brien", 'siobhan.obrien@example.com'))
        .expect(201)
    ).body as { id: string };
    await agent.get(`/api/members/${member.id}`).expect(200);
    await agent.get(`/api/members/${member.id}`).expect(200);
    await agent.get('/api/members/6f1c2d1e-0000-4000-8000-000000000000').expect(404);
    await t.agent().get('/api/no-such-route/12345').expect(404);

    const { status, type, body } = await scrape();
    expect(status).toBe(200);
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(body).toContain('# TYPE grove_http_request_duration_seconds histogram');
    expect(body).toContain('# TYPE grove_http_requests_total counter');
    const route = { method: 'GET', route: '/api/members/:id' };
    expect(valueOf(body, 'grove_http_requests_total', { ...route, status: '200' })).toBe(2);
    expect(valueOf(body, 'grove_http_requests_total', { ...route, status: '404' })).toBe(1);
    expect(valueOf(body, 'grove_http_request_duration_seconds_count', route)).toBe(3);
    expect(
      valueOf(body, 'grove_http_request_duration_seconds_bucket', { ...route, le: '+Inf' }),
    ).toBe(3);
    expect(
      valueOf(body, 'grove_http_requests_total', {
        method: 'POST',
        route: '/api/members',
        status: '201',
      }),
    ).toBe(1);
    // A path no route matched: one fixed label, whatever the path.
    expect(
      valueOf(body, 'grove_http_requests_total', { route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    // No id, code or raw path anywhere in a label.
    const routes = new Set(samples(body).flatMap((s) => (s.labels.route ? [s.labels.route] : [])));
    expect([...routes].filter((label) => UUID.test(label) || /\d{3,}/.test(label))).toEqual([]);
    expect(body).not.toContain(member.id);
    expect(body).not.toContain('no-such-route');
    // Node's own process metrics come along.
    expect(body).toContain('process_cpu_seconds_total');
  });

  it('reads the database pools at scrape time: open, idle, waiting and max per pool', async () => {
    const { body } = await scrape();
    expect(valueOf(body, 'grove_db_pool_max_connections', { pool: 'typeorm' })).toBe(10);
    expect(valueOf(body, 'grove_db_pool_max_connections', { pool: 'prepared' })).toBe(8);
    expect(valueOf(body, 'grove_db_pool_max_connections', { pool: 'jobs' })).toBe(4);
    for (const pool of ['typeorm', 'prepared', 'jobs']) {
      expect(valueOf(body, 'grove_db_pool_waiting', { pool })).toBe(0);
      const idle = valueOf(body, 'grove_db_pool_connections', { pool, state: 'idle' });
      const inUse = valueOf(body, 'grove_db_pool_connections', { pool, state: 'in_use' });
      expect(idle).toBeGreaterThanOrEqual(0);
      expect(inUse).toBeGreaterThanOrEqual(0);
    }
    // The sign-up and member reads above went through TypeORM's pool: its connections stay open.
    expect(
      valueOf(body, 'grove_db_pool_connections', { pool: 'typeorm', state: 'idle' }),
    ).toBeGreaterThan(0);
  });

  it('counts pg-boss queue depths at scrape time and every job attempt by outcome', async () => {
    const jobs = t.app.get(JobsService);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await jobs.register<{ fail: boolean }>(
      { name: 'metrics.check', retryLimit: 0 },
      async ({ fail }) => {
        await gate;
        if (fail) throw new Error('the check job fails on purpose');
      },
    );
    await jobs.send('metrics.check', { fail: true });
    await jobs.send('metrics.check', { fail: false });
    const depth = (body: string, state: string) =>
      valueOf(body, 'grove_job_queue_jobs', { queue: 'metrics.check', state });
    // One job taken by the worker (concurrency 1), the other waiting behind it.
    let body = '';
    await waitFor(async () => {
      body = (await scrape()).body;
      return depth(body, 'active') === 1;
    });
    expect(depth(body, 'waiting')).toBe(1);

    release();
    const attempts = (outcome: string) =>
      valueOf(body, 'grove_job_attempts_total', { queue: 'metrics.check', outcome });
    await waitFor(async () => {
      body = (await scrape()).body;
      return attempts('completed') === 1 && attempts('failed') === 1;
    });
    expect(attempts('retried')).toBeUndefined();
    expect(depth(body, 'waiting')).toBe(0);
    expect(depth(body, 'active')).toBe(0);
  });

  it('counts emails by outcome: kept in the outbox (no SMTP_URL) and refused', async () => {
    const mail = t.app.get(MailService);
    // The first test's sign-up link was outboxed too (docs/product.md#signup): count from here.
    const before = await scrape();
    const outboxedBefore = valueOf(before.body, 'grove_emails_total', { outcome: 'outboxed' }) ?? 0;
    await mail.deliver({
      to: 'anne-marie.dubois@example.com',
      subject: 'Bienvenue',
      text: 'Bonjour Anne-Marie',
    });
    await mail.deliver({ to: 'anne-marie, eve@example.com', subject: 'x', text: 'x' });
    const { body } = await scrape();
    expect(valueOf(body, 'grove_emails_total', { outcome: 'outboxed' })).toBe(outboxedBefore + 1);
    expect(valueOf(body, 'grove_emails_total', { outcome: 'refused' })).toBe(1);
    expect(body).not.toContain('anne-marie');
  });

  it('is not served on the public port: /metrics is 404 there', async () => {
    const reply = await t.agent().get('/metrics').expect(404);
    expect(reply.text).not.toContain('grove_http_requests_total');
    await t.agent().get('/api/metrics').expect(404);
    // The metrics port serves nothing else.
    const other = await fetch(metricsUrl.replace('/metrics', '/api/health'));
    expect(other.status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
  });

  it('answers X-Request-Id (the caller’s when it is 8–64 letters, digits or dashes, else a UUID) and logs one line per request with it', async () => {
    const given = 'c0ffee-4a5b-request-0001';
    const kept = await t.agent().get('/api/health').set('X-Request-Id', given);
    expect(kept.headers['x-request-id']).toBe(given);

    for (const refused of ['short', 'has spaces in it', 'x'.repeat(65), 'semi;colon-1234']) {
      const reply = await t.agent().get('/api/health').set('X-Request-Id', refused);
      expect(reply.headers['x-request-id']).toMatch(new RegExp(`^${UUID.source}$`, 'i'));
    }
    const fresh = await t.agent().get('/api/no-such-route');
    expect(fresh.status).toBe(404);
    const freshId = fresh.headers['x-request-id'] as string;
    expect(freshId).toMatch(UUID);

    const lines = () =>
      logLines
        .map((line) => JSON.parse(line) as { req?: { id?: string; url?: string }; res?: object })
        .filter((entry) => entry.req && entry.res);
    await waitFor(async () => lines().some((entry) => entry.req?.id === freshId));
    expect(lines().filter((entry) => entry.req?.id === given)).toHaveLength(1);
    expect(lines().filter((entry) => entry.req?.id === freshId)).toHaveLength(1);
  });
});

describe('GET /metrics with METRICS_TOKEN (integration)', () => {
  const token = 'metrics-token-0f3a9c7d2b1e4a6f';
  let t: TestApp;
  let metricsUrl: string;

  beforeAll(async () => {
    // Nothing listens on port 1: every SMTP delivery fails.
    t = await createTestApp({ METRICS_TOKEN: token, SMTP_URL: 'smtp://127.0.0.1:1' });
    metricsUrl = `http://127.0.0.1:${await t.app.get(MetricsServer).listen()}/metrics`;
  });
  afterAll(() => t.close());

  it('needs Authorization: Bearer <METRICS_TOKEN>: none or a wrong one is 401 without a metric', async () => {
    const none = await fetch(metricsUrl);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await none.text()).not.toContain('grove_');
    const wrong = await fetch(metricsUrl, { headers: { Authorization: `Bearer ${token}x` } });
    expect(wrong.status).toBe(401);
    const basic = await fetch(metricsUrl, {
      headers: { Authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` },
    });
    expect(basic.status).toBe(401);
    const right = await fetch(metricsUrl, { headers: { Authorization: `Bearer ${token}` } });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('grove_db_pool_connections');
  });

  it('labels what no route matched with one fixed label, also without the request logger (LOG_LEVEL silent)', async () => {
    await t.agent().get('/api/no-such-route/8a1e2f').expect(404);
    await t.agent().get('/join-us/Anne-Marie/42');
    const body = await (
      await fetch(metricsUrl, { headers: { Authorization: `Bearer ${token}` } })
    ).text();
    expect(valueOf(body, 'grove_http_requests_total', { route: 'unmatched', status: '404' })).toBe(
      1,
    );
    expect(valueOf(body, 'grove_http_requests_total', { route: 'web-apps' })).toBe(1);
    expect(body).not.toContain('8a1e2f');
    expect(body).not.toContain('Anne-Marie');
  });

  it('counts an email SMTP did not take as failed (the job retries it)', async () => {
    await expect(
      t.app.get(MailService).deliver({ to: 'siobhan@example.com', subject: 'x', text: 'x' }),
    ).rejects.toThrow();
    const body = await (
      await fetch(metricsUrl, { headers: { Authorization: `Bearer ${token}` } })
    ).text();
    expect(valueOf(body, 'grove_emails_total', { outcome: 'failed' })).toBe(1);
    expect(valueOf(body, 'grove_emails_total', { outcome: 'sent' })).toBeUndefined();
  });

  it('refuses to start with a METRICS_TOKEN shorter than 16 characters', () => {
    expect(() =>
      loadAppConfig({ DATABASE_URL: 'postgres://x', METRICS_TOKEN: 'too-short' }),
    ).toThrow(/METRICS_TOKEN must be longer than or equal to 16 characters/);
  });
});
