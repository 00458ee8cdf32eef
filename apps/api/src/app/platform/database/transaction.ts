import type { DataSource, EntityManager } from 'typeorm';
import { isTransactionConflict } from './database-faults';

/**
 * Runs `work` in one transaction (TypeORM `DataSource.transaction`, READ COMMITTED): committed
 * when it resolves, rolled back when it throws. A transaction PostgreSQL rolls back for a deadlock
 * (40P01) or a serialization failure (40001) is run once more from the start; a second conflict
 * is thrown, and the API answers it 409 'Please try again' (`databaseFaultReply`). Every
 * transaction of the API goes through here.
 *
 * `work` may therefore run twice: it must only touch the database through `manager` (and
 * in-memory state that is safe to redo), never send email or call outside APIs; a job is queued
 * only through `manager` (`JobsService.send(…, { manager })`), so it is rolled back with it.
 * @returns what `work` returns
 * @throws what `work` throws (after the retry for a conflict)
 */
export async function runTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  try {
    return await dataSource.transaction(work);
  } catch (error) {
    if (!isTransactionConflict(error)) throw error;
    return dataSource.transaction(work);
  }
}
