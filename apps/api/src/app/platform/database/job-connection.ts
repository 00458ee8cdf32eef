import type { EntityManager } from 'typeorm';

/** What pg-boss 10 runs its statements on when a send names one (`SendOptions.db`). */
export interface JobConnection {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * The open transaction of `manager` as pg-boss's connection, so a job queued with it
 * (`JobsService.send(…, { manager })`) is committed or rolled back with the transaction's own
 * writes: the job exists if and only if what it follows up on was committed
 * (docs/architecture.md#job-path). pg-boss 10.4 `createJob` runs its insert on `options.db` when
 * given (`src/manager.js`: `const db = wrapper || this.db`).
 * @param manager a transaction's manager (`runTransaction`); a manager without a query runner
 *   (not in a transaction) is refused, since its statements would commit on their own
 * @throws Error when `manager` is not a transaction's
 */
export function jobConnection(manager: EntityManager): JobConnection {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive)
    throw new Error('a job can only be queued in a transaction through its manager');
  return {
    executeSql: async (text, values) => ({
      rows: (await runner.query(text, values, true)).records as unknown[],
    }),
  };
}
