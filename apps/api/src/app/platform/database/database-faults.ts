import { HttpStatus } from '@nestjs/common';

/** Seconds a client is told to wait (`Retry-After`) when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Message of the 503 answered while the database cannot be reached. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  'Grove cannot reach its database right now. Please try again in a moment.';

/** Message of the 409 answered when a transaction lost a deadlock or serialization conflict twice. */
export const TRANSACTION_CONFLICT_MESSAGE = 'Please try again';

/**
 * SQLSTATEs of a transaction PostgreSQL rolled back because of concurrent work, which succeeds
 * when run again: 40P01 deadlock_detected, 40001 serialization_failure (PostgreSQL docs,
 * Appendix A "Error Codes", class 40 "Transaction Rollback").
 */
const CONFLICT_STATES = new Set(['40P01', '40001']);

/**
 * SQLSTATEs meaning the server is gone, going or too busy (Appendix A): 57P01 admin_shutdown,
 * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up / shutting down), 53300
 * too_many_connections, 57014 query_canceled (our `statement_timeout`); class 08 (connection
 * exception) is matched as a class.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** Node socket errors of a server that cannot be reached. */
const UNREACHABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/**
 * Messages of node-postgres (pg 8 / pg-pool 3) errors that carry no code: a connection that ended
 * ('Connection terminated unexpectedly', '… due to connection timeout'), a query the server never
 * answered ('Query read timeout', our `query_timeout`), no pooled connection within
 * `connectionTimeoutMillis`, a client that broke or was closed ('… is not queryable'), a pool that
 * is closing (API shutdown); and TypeORM's QueryRunnerAlreadyReleasedError, which a transaction's
 * next query throws once its connection emitted 'error' (PostgreSQL terminated it: TypeORM 0.3's
 * PostgresQueryRunner releases the runner on that event), e.g. pg-boss `send` inside a join's
 * transaction while PostgreSQL restarts.
 */
const UNREACHABLE_MESSAGES = [
  /^Connection terminated/,
  /^Query read timeout$/,
  /^timeout exceeded when trying to connect$/,
  /^timeout expired$/,
  /is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
  /^Query runner already released\. Cannot run queries anymore\.$/,
];

/**
 * The errors `error` wraps, itself first: TypeORM's `QueryFailedError.driverError`, `cause`
 * chains and the attempts of an `AggregateError` (Node's connect to every address of a host).
 */
function* errorChain(error: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (depth > 5 || typeof error !== 'object' || error === null) return;
  const record = error as Record<string, unknown>;
  yield record;
  yield* errorChain(record['driverError'], depth + 1);
  yield* errorChain(record['cause'], depth + 1);
  if (Array.isArray(record['errors']))
    for (const inner of record['errors']) yield* errorChain(inner, depth + 1);
}

/** The PostgreSQL SQLSTATE (`'23505'`) or Node errno code (`'ECONNREFUSED'`) of `error` or what it wraps. */
export function errorCode(error: unknown): string | undefined {
  for (const link of errorChain(error)) {
    if (typeof link['code'] === 'string') return link['code'];
  }
  return undefined;
}

/**
 * True when `error` says PostgreSQL cannot be used right now: stopped, restarting, unreachable,
 * not answering within the timeouts (DATABASE_CONNECT_TIMEOUT_MS / DATABASE_STATEMENT_TIMEOUT_MS)
 * or out of connections. Such a request is answered 503 with `Retry-After`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of errorChain(error)) {
    const code = link['code'];
    if (
      typeof code === 'string' &&
      (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || UNREACHABLE_ERRNOS.has(code))
    ) {
      return true;
    }
    const message = link['message'];
    if (
      typeof message === 'string' &&
      UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message))
    )
      return true;
  }
  return false;
}

/** True when `error` is a deadlock (40P01) or serialization failure (40001): running it again may succeed. */
export function isTransactionConflict(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && CONFLICT_STATES.has(code);
}

/** The reply to a database fault: status, message and, for 503, the `Retry-After` seconds. */
export interface DatabaseFaultReply {
  statusCode: HttpStatus.SERVICE_UNAVAILABLE | HttpStatus.CONFLICT;
  message: string;
  retryAfterSeconds?: number;
}

/**
 * How the API answers a database fault: 503 `DATABASE_UNAVAILABLE_MESSAGE` with `Retry-After`
 * when the database cannot be used, 409 'Please try again' for a transaction conflict (after
 * `runTransaction`'s one retry); null for any other error.
 */
export function databaseFaultReply(error: unknown): DatabaseFaultReply | null {
  if (isDatabaseUnavailable(error)) {
    return {
      statusCode: HttpStatus.SERVICE_UNAVAILABLE,
      message: DATABASE_UNAVAILABLE_MESSAGE,
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    };
  }
  if (isTransactionConflict(error))
    return { statusCode: HttpStatus.CONFLICT, message: TRANSACTION_CONFLICT_MESSAGE };
  return null;
}
