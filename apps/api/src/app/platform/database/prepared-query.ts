import { createHash } from 'node:crypto';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Pool, type QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { AppConfig } from '../config/app-config';
import { safeErrorText } from '../common/log-safety';
import { poolTimeoutOptions } from './pool-options';

/** A SQL statement with the name PostgreSQL prepares it under (one per distinct text). */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

const known = new Map<string, PreparedStatement>();

/**
 * Names `text` for `PreparedReads.query`: the name is derived from the text, so two different
 * texts never share a name (pg refuses that) and the same text always maps to the same one.
 * Remembers each text, so build texts only from fixed fragments (a handful of variants); user
 * input goes in the values, never in the text.
 */
export function preparedStatement(text: string): PreparedStatement {
  let statement = known.get(text);
  if (!statement) {
    statement = {
      name: `grove_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`,
      text,
    };
    known.set(text, statement);
  }
  return statement;
}

/** Connections of `pool` in use or awaited (checked out, connecting, or callers queued for one). */
export function connectionsInUse(pool: Pool): number {
  return pool.totalCount - pool.idleCount + pool.waitingCount;
}

/** How a pg pool is used right now (pg-pool 3's counters), for the metrics. */
export interface PoolUse {
  /** Connections open (idle or checked out). */
  total: number;
  /** Open connections nobody holds. */
  idle: number;
  /** Callers queued for a connection (every one is busy and the pool is at `max`). */
  waiting: number;
  /** Most connections the pool opens. */
  max: number;
}

/** `pool`'s counters now (see {@link PoolUse}). */
export function poolUse(pool: Pool): PoolUse {
  return {
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options.max ?? 10,
  };
}

/** Connections of the prepared-read pool (opened on demand, closed after 30 s idle). */
const PREPARED_POOL_SIZE = 8;

/**
 * The hot read paths (the session check of every signed-in request, the members page) as NAMED
 * prepared statements with GENERIC plans: each connection parses and plans a statement once, later
 * calls only bind and execute.
 *
 * They run on their own small pg pool whose sessions set `plan_cache_mode = force_generic_plan`
 * (PostgreSQL docs, "Query Planning" settings); why: docs/decisions/generic-plans-prepared-reads.md.
 * Only statements whose best plan does not depend on the values belong here (a business's page is
 * always an index walk); anything else, like a LIKE search, goes through `query(text)` and is
 * planned for its values on TypeORM's pool.
 *
 * Reads only: writes go through TypeORM and its transactions.
 */
@Injectable()
export class PreparedReads implements OnApplicationShutdown {
  private readonly logger = new Logger(PreparedReads.name);
  private readonly pool: Pool;

  constructor(
    config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.pool = new Pool({
      connectionString: config.databaseUrl,
      max: PREPARED_POOL_SIZE,
      idleTimeoutMillis: 30_000,
      options: '-c plan_cache_mode=force_generic_plan',
      ...poolTimeoutOptions(config.databaseTimeouts),
    });
    // An idle connection that breaks (e.g. the server restarts) must not crash the API; the pool
    // drops it and opens a new one on the next query.
    this.pool.on('error', (error) =>
      this.logger.warn(`prepared-read connection lost: ${safeErrorText(error)}`),
    );
  }

  /**
   * Runs a read.
   * @param statement a `PreparedStatement` (generic plan, own pool) or plain text (planned for
   *   these values, on TypeORM's pool)
   * @param values positional parameters `$1…`
   * @returns the rows, as pg parses them (timestamptz → Date, json → parsed value)
   * @throws whatever pg throws: SQL errors (500 by the global filter), or, when the database cannot
   *   be reached or does not answer within the timeouts (`poolTimeoutOptions`), connection errors
   *   the filter answers 503
   */
  async query<R extends QueryResultRow>(
    statement: PreparedStatement | string,
    values: readonly unknown[],
  ): Promise<R[]> {
    if (typeof statement === 'string') {
      const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
      return (await pool.query<R>({ text: statement, values: values as unknown[] })).rows;
    }
    const result = await this.pool.query<R>({
      name: statement.name,
      text: statement.text,
      values: values as unknown[],
    });
    return result.rows;
  }

  /** How the prepared-read pool and TypeORM's pool are used now (the metrics' pool gauges). */
  poolUse(): { prepared: PoolUse; typeorm: PoolUse } {
    const typeorm = (this.dataSource.driver as PostgresDriver).master as Pool;
    return { prepared: poolUse(this.pool), typeorm: poolUse(typeorm) };
  }

  /** Connections of the prepared-read pool in use or awaited (see `connectionsInUse`). */
  connectionsInUse(): number {
    return connectionsInUse(this.pool);
  }

  /**
   * Ends the pool when Nest shuts down (after `GracefulShutdown` has waited for the reads under
   * way); later reads throw.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
