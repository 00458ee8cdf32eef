import type { PoolClient, QueryConfig } from 'pg';
import { EventSubscriber, type AfterQueryEvent, type EntitySubscriberInterface } from 'typeorm';
import type { Socket } from 'node:net';
import type { DatabaseTimeouts } from './database.config';
import { databaseSocket } from './remembered-address';

/**
 * How much longer than `statement_timeout` the client waits for an answer before it gives the
 * server up (pg's `query_timeout`, 'Query read timeout'): a running statement is cancelled by
 * PostgreSQL first; only a server that answers nothing at all meets the client's limit.
 */
export const STATEMENT_GRACE_MS = 1000;

/** node-postgres pool settings bounding every wait on the database (pg 8 `Client` / pg-pool 3 options). */
export interface PoolTimeoutOptions {
  /** Opening a connection (TCP + startup) and waiting for a free pooled one, in ms. */
  connectionTimeoutMillis: number;
  /** Sent to PostgreSQL at connection start: it cancels a statement running longer (57014), in ms. */
  statement_timeout: number;
  /** Client-side: a statement unanswered this long fails with 'Query read timeout', in ms. */
  query_timeout: number;
  /**
   * Each connection's socket: the host is looked up without waiting on a slow resolver once its
   * address is known (`databaseSocket`, docs/decisions/database-address-remembered.md).
   */
  stream: () => Socket;
}

/**
 * The timeouts every pool of the API uses (TypeORM's, `PreparedReads`', pg-boss's), from
 * DATABASE_CONNECT_TIMEOUT_MS and DATABASE_STATEMENT_TIMEOUT_MS. A stopped, unreachable or
 * frozen database then fails a request within about the connect or statement timeout (then
 * answered 503) instead of hanging it; a resolver that is slow to answer for the database's host
 * costs at most `LOOKUP_PATIENCE_MS` of that budget once the host was resolved before.
 */
export function poolTimeoutOptions(timeouts: DatabaseTimeouts): PoolTimeoutOptions {
  return {
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.statementMs + STATEMENT_GRACE_MS,
    stream: () => databaseSocket(),
  };
}

/** The longest timer Node keeps (ms, about 24.8 days): a `query_timeout` meaning "no limit". */
const NO_CLIENT_LIMIT_MS = 2 ** 31 - 1;

/**
 * Runs one statement on `connection` with neither timeout: for a deliberate wait of unknown length
 * (a blocking `pg_advisory_lock` held by another run). `statement_timeout` is lifted for this
 * session and restored to its connection default afterwards (`RESET`).
 * @throws what the statement throws (the timeout is restored either way when the server answers)
 */
export async function queryWithoutTimeout<R extends object>(
  connection: PoolClient,
  text: string,
  values: unknown[],
): Promise<R[]> {
  await connection.query('SET statement_timeout = 0');
  try {
    // pg reads a per-query `query_timeout` (client.js) that its type definitions leave out.
    const query: QueryConfig & { query_timeout: number } = {
      text,
      values,
      query_timeout: NO_CLIENT_LIMIT_MS,
    };
    return (await connection.query<R & Record<string, unknown>>(query)).rows;
  } finally {
    await connection.query('RESET statement_timeout');
  }
}

/** The pg client under a TypeORM query runner (`PostgresQueryRunner.databaseConnection`). */
interface PgClientLike {
  end(): Promise<void>;
}

/**
 * TypeORM subscriber that closes the connection of a statement the server never answered ('Query
 * read timeout'). node-postgres leaves such a client waiting for that answer, and TypeORM hands it
 * back to the pool without an error, so every later statement on it would wait its own timeout
 * behind the lost one; closed, the pool drops it and opens a fresh connection when asked.
 * (TypeORM instantiates only `@EventSubscriber()` classes listed in a DataSource's `subscribers`.)
 */
@EventSubscriber()
export class CloseUnansweredConnections implements EntitySubscriberInterface {
  afterQuery(event: AfterQueryEvent): void {
    if (
      event.success ||
      !(event.error instanceof Error) ||
      event.error.message !== 'Query read timeout'
    )
      return;
    const client = (event.queryRunner as unknown as { databaseConnection?: PgClientLike })
      .databaseConnection;
    client?.end().catch(() => undefined);
  }
}
