import net, { type AddressInfo } from 'node:net';
import { Client } from 'pg';
import type TestAgent from 'supertest/lib/agent';
import { startThrowawayServer, type ThrowawayServer } from '../../../../test/embedded-server';
import { createTestApp, signupBody, type TestApp } from '../../../../test/test-app';
import { migrateTestDatabase, type TestDatabase } from '../../../../test/test-database';
import { MindbodyRepository } from '../../integrations/mindbody/persistence/mindbody.repository';
import { DATABASE_UNAVAILABLE_MESSAGE } from './database-faults';
import { runTransaction } from './transaction';

jest.setTimeout(120_000);

/** The timeouts these APIs run with (ms): short, so a fault shows quickly. */
const CONNECT_MS = 1000;
const STATEMENT_MS = 2000;
/** STATEMENT_MS plus the client's grace (`STATEMENT_GRACE_MS`). */
const UNANSWERED_MS = STATEMENT_MS + 1000;
const TIMEOUTS = {
  DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_MS),
  DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
};

/**
 * A TCP relay in front of PostgreSQL that can go silent: frozen, it keeps every connection open
 * but passes nothing on (as a server whose process is stopped, or a network that drops packets),
 * and accepts new connections without ever answering them.
 */
async function startRelay(targetPort: number): Promise<{
  port: number;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  let frozen = false;
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (frozen) return; // accepted, never answered
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    // Passes data on only while not frozen (what arrives while frozen is dropped).
    client.on('data', (chunk) => frozen || upstream.write(chunk));
    upstream.on('data', (chunk) => frozen || client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    freeze: () => {
      frozen = true;
    },
    // Connections from the silent spell are dropped (their streams lost bytes); new ones pass.
    thaw: () => {
      frozen = false;
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Times one request; returns its status, body, Retry-After and milliseconds. */
async function timed(
  send: () => Promise<{ status: number; body: unknown; headers: Record<string, string> }>,
): Promise<{ status: number; body: unknown; retryAfter: string | undefined; ms: number }> {
  const started = Date.now();
  const reply = await send();
  return {
    status: reply.status,
    body: reply.body,
    retryAfter: reply.headers['retry-after'],
    ms: Date.now() - started,
  };
}

/** Asserts that every named reply is the 503 of an unavailable database, with `Retry-After: 5`. */
function expectUnavailable(replies: Record<string, Awaited<ReturnType<typeof timed>>>): void {
  for (const [name, reply] of Object.entries(replies)) {
    expect({ name, status: reply.status, body: reply.body, retryAfter: reply.retryAfter }).toEqual({
      name,
      status: 503,
      body: { statusCode: 503, message: DATABASE_UNAVAILABLE_MESSAGE },
      retryAfter: '5',
    });
  }
}

describe('Database faults (integration, own embedded PostgreSQL)', () => {
  let pg: ThrowawayServer;
  let database: TestDatabase;

  beforeAll(async () => {
    pg = await startThrowawayServer({ hosted: true });
    const admin = new Client({ connectionString: pg.server.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE grove');
    await admin.end();
    database = { name: 'grove', url: pg.server.url('grove'), drop: async () => undefined };
    await migrateTestDatabase(database.url);
  });
  afterAll(async () => {
    await pg.remove();
  });

  /** A signed-in owner's members list, a login and a signup (both pools, a transaction). */
  const requests = (
    app: TestApp,
    agent: TestAgent,
    owner: { email: string; password: string },
  ) => ({
    members: () => agent.get('/api/members?page=1&pageSize=20'),
    login: () => app.agent().post('/api/auth/login').send(owner),
    signup: () => app.agent().post('/api/auth/signup').send(signupBody()),
  });

  it('a stopped database answers 503 with Retry-After; started again on its port, the same API serves again', async () => {
    const app = await createTestApp(TIMEOUTS, { database });
    try {
      const { agent, body: owner } = await app.signUp();
      const call = requests(app, agent, owner);
      await call.members().expect(200);
      // A search builds this instance's index of the business (MemberSearchIndexes).
      const search = () => agent.get('/api/members?search=a');
      await search().expect(200);

      await pg.server.stop();
      const stopped = {
        members: await timed(call.members),
        login: await timed(call.login),
        signup: await timed(call.signup),
      };
      expectUnavailable(stopped);
      for (const reply of Object.values(stopped)) {
        // Refused at once: nothing to wait for.
        expect(reply.ms).toBeLessThan(CONNECT_MS + 500);
      }
      expect((await app.agent().get('/api/health')).status).toBe(503);
      // The proxy's check (liveness) keeps the replica in rotation, so clients get this 503.
      expect((await app.agent().get('/api/health/live')).body).toEqual({ status: 'ok' });
      // With its index in memory, a search still needs the database for its page: 503, not 500.
      expectUnavailable({ search: await timed(search) });
      console.log(
        `[faults] stopped database: 503 after ${stopped.members.ms} ms (members), ${stopped.login.ms} ms (login), ${stopped.signup.ms} ms (signup)`,
      );

      await pg.start(pg.server.port);
      expect(pg.server.url('grove')).toBe(database.url);
      let health = 0;
      for (let i = 0; i < 50 && health !== 200; i++) {
        health = (await app.agent().get('/api/health')).status;
        if (health !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(health).toBe(200);
      // The first try of each succeeds: no broken connection is handed out.
      await call.members().expect(200);
      await search().expect(200);
      await call.login().expect(200);
      await call.signup().expect(202);
    } finally {
      await app.close();
    }
  });

  it('a database that accepts connections but never answers gets 503 within the timeouts, not a hang; then recovers', async () => {
    const relay = await startRelay(pg.server.port);
    const url = new URL(database.url);
    url.port = String(relay.port);
    const app = await createTestApp(TIMEOUTS, { database: { ...database, url: url.toString() } });
    try {
      const { agent, body: owner } = await app.signUp();
      const call = requests(app, agent, owner);
      await call.members().expect(200);
      await call.login().expect(200);

      relay.freeze();
      // Pooled connections: the statement goes unanswered (query timeout).
      const pooled = { members: await timed(call.members), login: await timed(call.login) };
      // Their connections were closed; new ones are accepted and never answered (connect timeout).
      const fresh = { members: await timed(call.members), signup: await timed(call.signup) };
      console.log(
        `[faults] unanswering database (connect ${CONNECT_MS} ms, statement ${STATEMENT_MS} ms): 503 after ` +
          `${pooled.members.ms} / ${pooled.login.ms} ms on pooled connections (members / login), ` +
          `${fresh.members.ms} / ${fresh.signup.ms} ms on new ones (members / signup)`,
      );

      expectUnavailable({ ...pooled, ...fresh });
      for (const reply of Object.values(pooled))
        expect(reply.ms).toBeLessThan(UNANSWERED_MS + 1000);
      for (const reply of Object.values(fresh)) expect(reply.ms).toBeLessThan(UNANSWERED_MS + 1000);
      relay.thaw();
      await call.members().expect(200);
      await call.login().expect(200);
      await call.signup().expect(202);
    } finally {
      await app.close();
      await relay.close();
    }
  });

  it('two transactions that deadlock both complete: the one PostgreSQL aborts (40P01) runs once more', async () => {
    const app = await createTestApp(TIMEOUTS, { database });
    const { dataSource } = app;
    try {
      await dataSource.query('CREATE TABLE deadlock_probe (id int PRIMARY KEY, n int NOT NULL)');
      await dataSource.query('INSERT INTO deadlock_probe VALUES (1, 0), (2, 0)');
      let attempts = 0;
      // Each transaction takes its first row, waits until the other holds its own, then wants the
      // other's: a deadlock PostgreSQL breaks after deadlock_timeout (1 s) by aborting one of them.
      let arrived = 0;
      let bothHold!: () => void;
      const held = new Promise<void>((resolve) => (bothHold = resolve));
      const crossing = (first: number, second: number) =>
        runTransaction(dataSource, async (manager) => {
          attempts += 1;
          await manager.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = $1', [first]);
          if (++arrived === 2) bothHold();
          await held;
          await manager.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = $1', [second]);
        });
      await Promise.all([crossing(1, 2), crossing(2, 1)]);
      expect(attempts).toBe(3);
      const rows: { id: number; n: number }[] = await dataSource.query(
        'SELECT id, n FROM deadlock_probe ORDER BY id',
      );
      expect(rows).toEqual([
        { id: 1, n: 2 },
        { id: 2, n: 2 },
      ]);
    } finally {
      await dataSource.query('DROP TABLE IF EXISTS deadlock_probe');
      await app.close();
    }
  });

  it("waits for a business's Mindbody lock longer than the statement timeout (a wait by design)", async () => {
    const app = await createTestApp(TIMEOUTS, { database });
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      const key = 'mindbody:00000000-0000-4000-8000-000000000001';
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
      const holdMs = UNANSWERED_MS + 1000;
      setTimeout(() => void holder.query('SELECT pg_advisory_unlock(hashtext($1))', [key]), holdMs);
      const started = Date.now();
      const result = await app.app
        .get(MindbodyRepository)
        .withBusinessLock('00000000-0000-4000-8000-000000000001', async () => 'ran');
      expect(result).toBe('ran');
      expect(Date.now() - started).toBeGreaterThanOrEqual(holdMs - 50);
    } finally {
      await holder.end();
      await app.close();
    }
  });
});
