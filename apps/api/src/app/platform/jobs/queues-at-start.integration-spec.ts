import { createTestApp, type TestApp } from '../../../../test/test-app';
import { createTestDatabase } from '../../../../test/test-database';

jest.setTimeout(120_000);

/**
 * Replicas that start together on a database without Grove's queues (a first deploy, or a deploy
 * that adds a queue) each create every queue. pg-boss's `create_queue` adds a partition and its
 * foreign keys, which conflict with another session's insert into the queue table: run at once
 * from two instances, PostgreSQL answered "deadlock detected" and an instance failed to start.
 */
describe('instances starting together create the job queues once (integration)', () => {
  it('three rounds of two instances starting at the same moment on a fresh database: both start, every queue exists once', async () => {
    for (let round = 0; round < 3; round++) {
      const db = await createTestDatabase();
      const apps: TestApp[] = [];
      try {
        const started = await Promise.allSettled([
          // What is tested is the queues' creation: a slow CI machine's connection wait (5 s by
          // default) is not a failure of it.
          createTestApp({ DATABASE_CONNECT_TIMEOUT_MS: '30000' }, { database: db }),
          createTestApp({ DATABASE_CONNECT_TIMEOUT_MS: '30000' }, { database: db }),
        ]);
        for (const result of started) if (result.status === 'fulfilled') apps.push(result.value);
        const failures = started.flatMap((result) =>
          result.status === 'rejected' ? [String(result.reason)] : [],
        );
        expect(failures).toEqual([]);
        const queues = (await apps[0].dataSource.query(
          `SELECT name, count(*)::int AS n FROM pgboss.queue GROUP BY name HAVING count(*) > 1`,
        )) as unknown[];
        expect(queues).toEqual([]);
        await apps[0].agent().get('/api/health').expect(200);
        await apps[1].agent().get('/api/health').expect(200);
      } finally {
        for (const app of apps) await app.app.close();
        await db.drop();
      }
    }
  });
});
