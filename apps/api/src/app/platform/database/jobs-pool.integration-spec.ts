import { createTestDatabase, type TestDatabase } from '../../../../test/test-database';
import { JobsPool } from './jobs-pool';

describe('JobsPool: closing waits for the statements pg-boss still runs (integration)', () => {
  let db: TestDatabase;
  const errors: Error[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  const sleepSql = (seconds: number) => `SELECT pg_sleep(${seconds}), 1 AS done`;

  it('a statement that was waiting for a connection when closing began is still answered', async () => {
    const jobs = new JobsPool({ connectionString: db.url, max: 1 }, (error) => errors.push(error));
    const running = jobs.executeSql(sleepSql(0.2));
    // Waits for the pool's only connection (pg-pool's `end` alone would never answer it).
    const waiting = jobs.executeSql(sleepSql(0.1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await jobs.close(5_000);
    await expect(running).resolves.toMatchObject({ rows: [{ done: 1 }] });
    await expect(waiting).resolves.toMatchObject({ rows: [{ done: 1 }] });
    expect(jobs.pool.ended).toBe(true);
    expect(errors).toEqual([]);
  });

  it('runs a statement sent while closing, answers none after the pool ended, and ends at the deadline when one runs on', async () => {
    const jobs = new JobsPool(
      { connectionString: db.url, max: 2, statement_timeout: 10_000 },
      (error) => errors.push(error),
    );
    const slow = jobs.executeSql(sleepSql(2)).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    const closing = jobs.close(300);
    // Sent while closing (as pg-boss completes a job whose handler just ended): it runs.
    await expect(jobs.executeSql('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    await closing;
    // Waited for the deadline, then for the connection to be given back (pg-pool's `end`).
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    await slow;
    expect(jobs.pool.ended).toBe(true);
    // After the end nothing runs, as with pg-boss's own pool once closed.
    await expect(jobs.executeSql('SELECT 1')).resolves.toBeUndefined();
  });
});
