import type { LoggerService } from '@nestjs/common';
import { isDatabaseUnavailable } from './database-faults';

/**
 * Keeps the process up when a promise nobody awaited fails because the database is unavailable,
 * and only then. pg-boss 10 completes and fails jobs without awaiting (`Manager.work`'s
 * `onFetch`: `this.complete(…)` / `this.fail(…)`), so a job finishing while PostgreSQL restarts
 * rejected with "the database system is shutting down" (57P03) and Node's default ended the API
 * (measured by drill c of `npm run test:compose`). Such a job's state is left as it was: pg-boss
 * retries or expires it as after any lost worker. Any other unhandled rejection still ends the
 * process, as Node would.
 * @param logger where the kept-alive fault is reported (warn)
 * @returns a function removing the handler (tests)
 */
export function survivingStrayDatabaseFaults(logger: LoggerService): () => void {
  const handler = (reason: unknown): void => {
    if (isDatabaseUnavailable(reason)) {
      const message = reason instanceof Error ? reason.message : String(reason);
      logger.warn?.(`database unavailable in a background call: ${message}`, 'Database');
      return;
    }
    throw reason;
  };
  process.on('unhandledRejection', handler);
  return () => process.off('unhandledRejection', handler);
}
