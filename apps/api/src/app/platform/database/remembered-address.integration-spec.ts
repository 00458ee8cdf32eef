import { lookup as dnsLookup } from 'node:dns';
import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '../../../../test/test-database';
import { isDatabaseUnavailable } from './database-faults';
import { poolTimeoutOptions } from './pool-options';
import { databaseSocket, RememberingLookup, type Resolver } from './remembered-address';

jest.setTimeout(60_000);

/** The connect budget of these pools (ms), as DATABASE_CONNECT_TIMEOUT_MS. */
const CONNECT_MS = 3000;

/**
 * The real resolver until `silence()`, then one that never answers: a container network's DNS
 * while it reloads (docs/decisions/database-address-remembered.md).
 */
function resolverThatGoesSilent() {
  let silent = false;
  const resolve: Resolver = (hostname, options, callback) => {
    if (!silent) (dnsLookup as unknown as Resolver)(hostname, options, callback);
  };
  return { resolve, silence: () => (silent = true) };
}

describe('the database host looked up without waiting on a silent resolver (real PostgreSQL)', () => {
  let database: TestDatabase;
  let url: string;
  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
    // By name, so every new connection asks the resolver.
    const named = new URL(database.url);
    named.hostname = 'localhost';
    url = named.toString();
  });
  afterAll(() => database.drop());

  /** A pool of one connection with the API's options, its host looked up through `lookup`. */
  function poolWith(lookup: RememberingLookup) {
    return new Pool({
      connectionString: url,
      max: 1,
      ...poolTimeoutOptions({ connectMs: CONNECT_MS, statementMs: 5000 }),
      stream: () => databaseSocket(lookup),
    });
  }

  /** Runs one statement on a connection of its own (the pool's one is closed after use). */
  async function freshConnectionQuery(pool: Pool): Promise<number> {
    const started = Date.now();
    const client = await pool.connect();
    try {
      await client.query('SELECT 1');
    } finally {
      client.release(true);
    }
    return Date.now() - started;
  }

  it('a new connection opens within the budget while the resolver is silent, once the host was resolved', async () => {
    const { resolve, silence } = resolverThatGoesSilent();
    const pool = poolWith(new RememberingLookup(300, resolve));
    try {
      await freshConnectionQuery(pool);
      silence();
      const ms = await freshConnectionQuery(pool);
      expect(ms).toBeLessThan(CONNECT_MS);
    } finally {
      await pool.end();
    }
  });

  it('without an address resolved before, a silent resolver is the connect timeout, a database fault (503)', async () => {
    const { resolve, silence } = resolverThatGoesSilent();
    silence();
    const pool = poolWith(new RememberingLookup(300, resolve));
    try {
      const failure = await freshConnectionQuery(pool).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeDefined();
      expect(isDatabaseUnavailable(failure)).toBe(true);
    } finally {
      await pool.end();
    }
  });
});
