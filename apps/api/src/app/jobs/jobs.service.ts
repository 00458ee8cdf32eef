import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import PgBoss from 'pg-boss';
import { AppConfig } from '../common/app-config';
import { JOBS_SCHEMA } from './jobs-schema';

/** A queue and how its jobs are retried (pg-boss 10 queue options). */
export interface QueueDefinition {
  name: string;
  /**
   * 'standard' (default), or 'singleton' / 'stately' to allow one queued or active job per
   * `singletonKey` (e.g. one import per business), see pg-boss 10 "Queue policies".
   */
  policy?: PgBoss.QueuePolicy;
  /** Attempts after the first failure (default 3). */
  retryLimit?: number;
  /** Seconds before the first retry (default 5); doubled each time when `retryBackoff`. */
  retryDelay?: number;
  retryBackoff?: boolean;
  /** Seconds a job may run before pg-boss marks it failed (default 15 minutes). */
  expireInSeconds?: number;
}

/**
 * Handles one job's data; throwing fails the attempt (pg-boss retries it per the queue). `job`
 * carries its metadata as of this attempt (state, `retryCount` already counting it, `retryLimit`).
 */
export type JobHandler<T extends object> = (data: T, job: PgBoss.JobWithMetadata<T>) => Promise<void>;

/**
 * Background jobs in PostgreSQL through pg-boss (DESIGN.md §3): every API instance on one database
 * shares the queues, and each job is handed to exactly one worker. Modules register their queues
 * and handlers in `onModuleInit` (this service has started by then) and queue work with `send`.
 */
@Injectable()
export class JobsService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(JobsService.name);
  private readonly boss: PgBoss;
  /** Worker ids by queue, so `send` can wake this instance's worker instead of waiting a poll. */
  private readonly workers = new Map<string, string[]>();

  constructor(config: AppConfig) {
    this.boss = new PgBoss({
      connectionString: config.databaseUrl,
      schema: JOBS_SCHEMA,
      application_name: 'grove-jobs',
      max: 4,
    });
    this.boss.on('error', (error) => this.logger.error(`pg-boss: ${error.message}`));
  }

  async onModuleInit(): Promise<void> {
    await this.boss.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  /**
   * Creates the queue (idempotent) and starts this instance's worker for it.
   * @param concurrency jobs handled at once by this instance (one worker each)
   */
  async register<T extends object>(queue: QueueDefinition, handler: JobHandler<T>, concurrency = 1): Promise<void> {
    const { name, policy = 'standard', retryLimit = 3, retryDelay = 5, retryBackoff = true } = queue;
    await this.boss.createQueue(name, {
      name,
      policy,
      retryLimit,
      retryDelay,
      retryBackoff,
      expireInSeconds: queue.expireInSeconds ?? 15 * 60,
    });
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      ids.push(
        await this.boss.work<T>(name, { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: 2 }, async ([job]) => {
          await handler(job.data, job);
        }),
      );
    }
    this.workers.set(name, ids);
  }

  /**
   * Queues a job and wakes this instance's worker for it.
   * @returns the job id, or null when a singleton queue already holds a job for `singletonKey`
   */
  async send<T extends object>(name: string, data: T, options: PgBoss.SendOptions = {}): Promise<string | null> {
    const id = await this.boss.send(name, data, options);
    for (const workerId of this.workers.get(name) ?? []) this.boss.notifyWorker(workerId);
    return id;
  }
}
