import { setTimeout as delay } from 'node:timers/promises';
import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Server } from 'node:http';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { AppConfig } from './config/app-config';
import { connectionsInUse, PreparedReads } from './database/prepared-query';
import { DrainState } from './health/drain-state';
import { JobsService } from './jobs/jobs.service';

/** How long shutdown waits for queries still under way (ms) before the pools close anyway. */
export const DATABASE_DRAIN_TIMEOUT_MS = 2_000;

/**
 * The order the API stops in (SIGTERM / SIGINT through `enableShutdownHooks`, or `app.close()`):
 * nothing may still use the database when its pools close.
 *
 * Nest runs every `beforeApplicationShutdown` hook, closes the HTTP server, then runs the
 * `onApplicationShutdown` hooks, where TypeORM destroys its DataSource and `PreparedReads` ends its
 * pool, in an order of Nest's own (by module; it differs between the app and the test module). So
 * everything that must end before that happens here, in one `beforeApplicationShutdown`:
 * 0. with `SHUTDOWN_DRAIN_MS` > 0 (behind a proxy): the liveness check answers 503 and requests
 *    are still served for that long, so the proxy stops sending new ones before the listener closes
 *    (a connection the kernel accepted just before `close()` would otherwise be reset unanswered);
 * 1. then: the HTTP server stops accepting connections and waits for those open to finish
 *    their requests, and the jobs stop (`JobsService.stop`, at most `JOBS_STOP_TIMEOUT_MS`);
 * 2. then it waits until neither TypeORM's pool nor the prepared-read pool has a connection in use
 *    or a caller waiting for one (at most `DATABASE_DRAIN_TIMEOUT_MS`). Handlers of requests whose
 *    client went away (a benchmark's load generator stopping, a closed tab) still run once their
 *    connection is gone; closing the pools under them failed their queries ("Connection
 *    terminated", TypeORM's "query failed"), and TypeORM's `destroy()` handed connections still
 *    executing back to waiting callers, which pg reports as "Calling client.query() when the
 *    client is already executing a query is deprecated".
 */
@Injectable()
export class GracefulShutdown implements BeforeApplicationShutdown {
  private readonly logger = new Logger(GracefulShutdown.name);

  constructor(
    private readonly http: HttpAdapterHost,
    private readonly jobs: JobsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reads: PreparedReads,
    private readonly drain: DrainState,
    private readonly config: AppConfig,
  ) {}

  /**
   * Drains (`SHUTDOWN_DRAIN_MS`), closes the HTTP server and stops the jobs, then waits for the queries under way (polling
   * every 10 ms, at most `DATABASE_DRAIN_TIMEOUT_MS`). Never throws.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.drain.start();
    if (this.config.shutdownDrainMs > 0) {
      this.logger.log(`draining for ${this.config.shutdownDrainMs} ms before closing the listener`);
      await delay(this.config.shutdownDrainMs);
    }
    await Promise.all([this.closeHttpServer(), this.jobs.stop()]);
    const deadline = Date.now() + DATABASE_DRAIN_TIMEOUT_MS;
    while (this.connectionsInUse() > 0 && Date.now() < deadline) await delay(10);
    const left = this.connectionsInUse();
    if (left > 0) {
      this.logger.warn(
        `${left} database connection(s) still in use after ${DATABASE_DRAIN_TIMEOUT_MS} ms; closing anyway`,
      );
    }
  }

  /**
   * Stops accepting connections; resolves once the open ones have ended (Node closes idle
   * keep-alive ones at once). Nest's own close of the server afterwards then finds it closed.
   */
  private async closeHttpServer(): Promise<void> {
    const server = this.http.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server?.listening) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Connections of TypeORM's pool and the prepared-read pool in use or awaited. */
  private connectionsInUse(): number {
    const master = this.dataSource.isInitialized
      ? ((this.dataSource.driver as PostgresDriver).master as Pool | undefined)
      : undefined;
    return (master ? connectionsInUse(master) : 0) + this.reads.connectionsInUse();
  }
}
