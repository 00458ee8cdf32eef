import { setTimeout as delay } from 'node:timers/promises';
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import PgBoss from 'pg-boss';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JOBS_SCHEMA } from './jobs-schema';
import { JobsPool } from '../database/jobs-pool';
import { errorMessage } from '../common/error-message';
import { safeErrorText } from '../common/log-safety';
import { jobConnection } from '../database/job-connection';
import { poolTimeoutOptions } from '../database/pool-options';
import { poolUse, type PoolUse } from '../database/prepared-query';
import { MetricsService } from '../metrics/metrics.service';

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
 * How long shutdown waits for running handlers (ms) before pg-boss marks what still runs failed
 * ('pg-boss shut down while active') and the database pools close. Below Docker's 10 s between
 * SIGTERM and SIGKILL, leaving room for the HTTP server and the pools.
 */
export const JOBS_STOP_TIMEOUT_MS = 7_000;

/** The advisory lock key under which instances create queues and schedules one at a time. */
const QUEUE_SETUP_LOCK = 'grove:pg-boss:queue-setup';

/** One queue's jobs waiting and running now (pg-boss `getQueueSize`), for the metrics. */
export interface QueueDepth {
  queue: string;
  /** Jobs created or waiting for a retry, not yet taken by a worker (state `created` or `retry`). */
  waiting: number;
  /** Jobs a worker is running (state `active`). */
  active: number;
}

/** What became of a job attempt on this instance (`grove_job_attempts_total{outcome}`). */
type AttemptOutcome = 'completed' | 'retried' | 'failed';

/** The reason of the shutdown signal handlers receive: the API is stopping. */
export class JobsStoppingError extends Error {
  constructor() {
    super('the API is shutting down');
    this.name = 'JobsStoppingError';
  }
}

/**
 * Handles one job's data; throwing fails the attempt (pg-boss retries it per the queue). `job`
 * carries its metadata as of this attempt (state, `retryCount` already counting it, `retryLimit`).
 * `stopping` is aborted (reason: a `JobsStoppingError`) when the API starts shutting down: a long
 * handler should then wind up within `JOBS_STOP_TIMEOUT_MS`, leaving its work in a state a later
 * run picks up (the database stays open until the handler returns or that time is up).
 */
export type JobHandler<T extends object> = (
  data: T,
  job: PgBoss.JobWithMetadata<T>,
  stopping: AbortSignal,
) => Promise<void>;

/**
 * Background jobs in PostgreSQL through pg-boss (docs/architecture.md#job-path): every API instance on one database
 * shares the queues, and each job is handed to exactly one worker. Modules register their queues
 * and handlers in `onModuleInit` (this service has started by then) and queue work with `send`.
 *
 * Shutdown (`stop`, run by `GracefulShutdown` before the database pools close): the workers stop
 * taking jobs, running handlers are told through their `stopping` signal and awaited (at most
 * `JOBS_STOP_TIMEOUT_MS`), then pg-boss closes its connections.
 */
@Injectable()
export class JobsService
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger(JobsService.name);
  private readonly boss: PgBoss;
  /** Worker ids by queue, so `send` can wake this instance's worker instead of waiting a poll. */
  private readonly workers = new Map<string, string[]>();
  /** Aborted when shutdown starts; handed to every handler. */
  private readonly stopping = new AbortController();
  /** pg-boss's pool, closed by {@link stop} once its statements have settled (see `JobsPool`). */
  private readonly pool: JobsPool;
  /** Handlers running on this instance (pg-boss may hand out a job it fetched while stopping). */
  private readonly running = new Set<Promise<void>>();
  private stopped?: Promise<void>;
  /**
   * Workers registered before every module has started, started at application bootstrap: a job
   * waiting in the queue (left by an instance that died) must not be handled before the modules
   * above have registered their listeners (`MembershipEvents`), or what they would do is lost.
   */
  private pendingWorkers: (() => Promise<void>)[] | null = [];
  /** `grove_job_attempts_total{queue,outcome}` (docs/architecture.md#metrics). */
  private readonly attempts;

  constructor(config: AppConfig, metrics: MetricsService) {
    this.attempts = metrics.counter({
      name: 'grove_job_attempts_total',
      help: 'Job attempts handled by this instance, by queue and outcome: completed, retried (failed, pg-boss tries again) or failed (failed with no retry left)',
      labelNames: ['queue', 'outcome'],
    });
    this.pool = new JobsPool(
      {
        connectionString: config.databaseUrl,
        application_name: 'grove-jobs',
        max: 4,
        ...poolTimeoutOptions(config.databaseTimeouts),
      },
      (error) => this.logger.error(`pg-boss pool: ${safeErrorText(error)}`),
    );
    // pg-boss's `Db` type leaves out the `undefined` its own pool answers once closed.
    this.boss = new PgBoss({ db: this.pool as PgBoss.Db, schema: JOBS_SCHEMA });
    // The error only (message and code): a job's data (emails, messages) never reaches the log.
    this.boss.on('error', (error) => this.logger.error(`pg-boss: ${safeErrorText(error)}`));
  }

  /**
   * Starts pg-boss under the queue set-up lock: its start creates its own queue (the timekeeper's
   * `__pgboss__send-it`), which must not run beside another instance's queue creation.
   */
  async onModuleInit(): Promise<void> {
    await this.setUp(() => this.boss.start());
  }

  /** Starts the workers registered while the modules started (see `pendingWorkers`). */
  async onApplicationBootstrap(): Promise<void> {
    const pending = this.pendingWorkers ?? [];
    this.pendingWorkers = null;
    for (const start of pending) await start();
  }

  /** Stops the jobs before the HTTP server and the database close (see `stop`). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /**
   * Stops this instance's jobs: no new job starts, running handlers see their `stopping` signal
   * aborted and get up to `JOBS_STOP_TIMEOUT_MS` to return (pg-boss marks a job still running then
   * failed), then pg-boss's pool closes once its running statements have answered. Resolves in under a second when nothing runs. Idempotent
   * (every call returns the first call's promise); never rejects (a failure is logged).
   */
  stop(): Promise<void> {
    this.stopped ??= this.stopNow();
    return this.stopped;
  }

  private async stopNow(): Promise<void> {
    const deadline = Date.now() + JOBS_STOP_TIMEOUT_MS;
    this.stopping.abort(new JobsStoppingError());
    try {
      // pg-boss 10 (README "stop"): graceful waits for its workers' active jobs, polling every
      // 500 ms, until `timeout`; then fails what is left and, with `close` (default), ends its pool.
      await this.boss.stop({ graceful: true, wait: true, timeout: JOBS_STOP_TIMEOUT_MS });
    } catch (error) {
      this.logger.error(`pg-boss did not stop cleanly: ${errorMessage(error)}`);
    }
    // A handler pg-boss no longer counts (started from a fetch that returned while it stopped, or
    // past its timeout) still gets the rest of the time before the database closes under it.
    const left = deadline - Date.now();
    if (this.running.size > 0 && left > 0) {
      await Promise.race([
        Promise.allSettled([...this.running]),
        delay(left, undefined, { ref: false }),
      ]);
    }
    if (this.running.size > 0) {
      this.logger.warn(
        `${this.running.size} job handler(s) still running after ${JOBS_STOP_TIMEOUT_MS} ms; closing anyway`,
      );
    }
    // pg-boss's workers end their loop once their last fetch has answered.
    await this.pool.close(deadline - Date.now());
  }

  /**
   * pg-boss's start, queue creations and schedules run one after the other, in this instance (a
   * chain) and across instances (the advisory lock `QUEUE_SETUP_LOCK`): pg-boss's `create_queue`
   * adds a partition and foreign keys to its tables, which deadlocks with another session's
   * `create_queue` (replicas starting together on a database without the queue; pg-boss's start
   * creates a queue of its own).
   */
  private settingUp: Promise<unknown> = Promise.resolve();

  /** Runs `work` after the queue set-ups before it, under the cross-instance lock. */
  private setUp<T>(work: () => Promise<T>): Promise<T> {
    const next = this.settingUp.then(() => this.pool.whileLocked(QUEUE_SETUP_LOCK, work));
    this.settingUp = next.catch(() => undefined);
    return next;
  }

  /**
   * Creates the queue (idempotent) and starts this instance's worker for it: at once when the
   * application has started, else at its bootstrap, once every module's `onModuleInit` (where
   * handlers register and listeners subscribe) has run. Safe to call from several providers at
   * once (one module's `onModuleInit` hooks run together): the creations are serialised.
   * @param concurrency jobs handled at once by this instance (one worker each)
   */
  async register<T extends object>(
    queue: QueueDefinition,
    handler: JobHandler<T>,
    concurrency = 1,
  ): Promise<void> {
    const {
      name,
      policy = 'standard',
      retryLimit = 3,
      retryDelay = 5,
      retryBackoff = true,
    } = queue;
    await this.setUp(() =>
      this.boss.createQueue(name, {
        name,
        policy,
        retryLimit,
        retryDelay,
        retryBackoff,
        expireInSeconds: queue.expireInSeconds ?? 15 * 60,
      }),
    );
    const start = () => this.startWorkers(name, handler, concurrency);
    if (this.pendingWorkers) this.pendingWorkers.push(start);
    else await start();
  }

  /** Starts `concurrency` workers of queue `name` on this instance. */
  private async startWorkers<T extends object>(
    name: string,
    handler: JobHandler<T>,
    concurrency: number,
  ): Promise<void> {
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      // Set once `work` resolves; a job handed out before that just is not followed by a wake-up.
      const worker: { id?: string } = {};
      worker.id = await this.boss.work<T>(
        name,
        { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: 2 },
        async ([job]) => {
          let outcome: AttemptOutcome = 'completed';
          try {
            await this.track(handler(job.data, job, this.stopping.signal));
          } catch (error) {
            // pg-boss 10 (plans.js failJobs) retries while this attempt's retry_count < retry_limit.
            outcome = job.retryCount < job.retryLimit ? 'retried' : 'failed';
            throw error;
          } finally {
            this.attempts.inc({ queue: name, outcome });
            // pg-boss 10's worker waits out the polling interval after each job unless notified:
            // with more jobs queued (e.g. 'Email all links'), it takes the next one at once.
            if (worker.id) this.boss.notifyWorker(worker.id);
          }
        },
      );
      ids.push(worker.id);
    }
    this.workers.set(name, ids);
  }

  /**
   * Sends a job to `name` on a cron schedule (pg-boss 10 `schedule`: 5-field cron in UTC, checked
   * every 30 s by one instance; calling it again replaces the schedule, so every instance may call
   * it at start). Register the queue first.
   */
  async schedule(name: string, cron: string, data: object = {}): Promise<void> {
    await this.setUp(() => this.boss.schedule(name, cron, data));
  }

  /**
   * Every queue's jobs waiting and running now, across all instances, for the metrics' queue
   * gauges: the queues (pg-boss 10 `getQueues`) and one count of their unfinished jobs by state,
   * grouped by queue — the condition of pg-boss's own `getQueueSize` (`state < 'active'` waiting,
   * `'active'` running), two queries whatever the number of queues. A queue with no job counts 0.
   * @throws when the database does not answer (the scrape then leaves the gauges out)
   */
  async queueDepths(): Promise<QueueDepth[]> {
    const queues = await this.boss.getQueues();
    const answer = await this.pool.executeSql(
      `SELECT name,
              count(*) FILTER (WHERE state < 'active')::int AS waiting,
              count(*) FILTER (WHERE state = 'active')::int AS active
         FROM ${JOBS_SCHEMA}.job
        WHERE state < 'completed'
        GROUP BY name`,
      [],
    );
    const rows = (answer?.rows ?? []) as { name: string; waiting: number; active: number }[];
    const counts = new Map(rows.map((row) => [row.name, row]));
    return queues.map(({ name }) => ({
      queue: name,
      waiting: counts.get(name)?.waiting ?? 0,
      active: counts.get(name)?.active ?? 0,
    }));
  }

  /**
   * Whether job `id` of queue `name` is still waiting or running (pg-boss states created, retry,
   * active). False once it ended (completed, failed, expired, cancelled) or when there is no such
   * job: the work it stood for will not happen unless queued again.
   * @throws when the database does not answer
   */
  async isPending(name: string, id: string): Promise<boolean> {
    const answer = await this.pool.executeSql(
      `SELECT 1 FROM ${JOBS_SCHEMA}.job
        WHERE name = $1 AND id = $2 AND state IN ('created', 'retry', 'active')`,
      [name, id],
    );
    return (answer?.rows.length ?? 0) > 0;
  }

  /** How pg-boss's pool is used now; null once it has closed. */
  poolUse(): PoolUse | null {
    return this.pool.pool.ended ? null : poolUse(this.pool.pool);
  }

  /** Counts `handling` among the running handlers until it settles; resolves or rejects as it does. */
  private async track(handling: Promise<void>): Promise<void> {
    this.running.add(handling);
    try {
      await handling;
    } finally {
      this.running.delete(handling);
    }
  }

  /**
   * Queues a job and wakes this instance's worker for it.
   * @param options pg-boss send options, plus `manager`: queue the job in that open transaction
   *   (`runTransaction`'s manager), committed or rolled back with it. The worker is then not
   *   woken (it would look before the commit): call {@link wake} after the transaction, or the
   *   worker finds the job at its next poll (2 s).
   * @returns the job id, or null when a singleton queue already holds a job for `singletonKey`
   *   or a job with this `id` exists
   * @throws Error when `manager` is not in a transaction
   */
  async send<T extends object>(
    name: string,
    data: T,
    options: PgBoss.SendOptions & { manager?: EntityManager } = {},
  ): Promise<string | null> {
    const { manager, ...sendOptions } = options;
    if (manager) {
      return this.boss.send(name, data, { ...sendOptions, db: jobConnection(manager) });
    }
    const id = await this.boss.send(name, data, sendOptions);
    this.wake(name);
    return id;
  }

  /**
   * Queues many jobs of queue `name` in ONE statement inside `manager`'s open transaction
   * (pg-boss `insert`; each job takes the queue's retry settings, as `send` does). The worker is
   * not woken: call {@link wake} after the transaction.
   * @param jobs each job's id (a job whose id exists is skipped) and data
   */
  async insert<T extends object>(
    name: string,
    jobs: readonly { id: string; data: T }[],
    manager: EntityManager,
  ): Promise<void> {
    if (jobs.length === 0) return;
    await this.boss.insert(
      jobs.map((job) => ({ name, id: job.id, data: job.data })),
      { db: jobConnection(manager) },
    );
  }

  /** Wakes this instance's worker of `name` now (after a transaction that queued a job). */
  wake(name: string): void {
    for (const workerId of this.workers.get(name) ?? []) this.boss.notifyWorker(workerId);
  }
}
