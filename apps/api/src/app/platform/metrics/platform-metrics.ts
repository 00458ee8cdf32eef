import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { PoolUse } from '../database/prepared-query';
import { PreparedReads } from '../database/prepared-query';
import { JobsService } from '../jobs/jobs.service';
import { MetricsService } from './metrics.service';

/**
 * Platform's scrape-time gauges (docs/architecture.md#metrics), read when Prometheus scrapes:
 * - `grove_db_pool_connections{pool,state}`: each pg pool's open connections, `in_use` or `idle`
 *   (their sum is what is open); pools: `typeorm` (writes, most reads), `prepared` (the hot
 *   reads), `jobs` (pg-boss); `grove_db_pool_max_connections{pool}`: the most each opens;
 * - `grove_db_pool_waiting{pool}`: callers queued for a connection (every one busy, at `max`);
 * - `grove_job_queue_jobs{queue,state}`: each pg-boss queue's jobs `waiting` (created, or waiting
 *   for a retry) and `active`, across every instance on the database.
 * Job failures are counted as they happen (`grove_job_attempts_total`, `JobsService`).
 */
@Injectable()
export class PlatformMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly reads: PreparedReads,
    private readonly jobs: JobsService,
  ) {}

  onModuleInit(): void {
    const pools = (): Record<string, PoolUse | null> => ({
      ...this.reads.poolUse(),
      jobs: this.jobs.poolUse(),
    });
    this.metrics.gauge(
      {
        name: 'grove_db_pool_connections',
        help: 'Open connections of each PostgreSQL pool of this instance, in use or idle',
        labelNames: ['pool', 'state'],
      },
      (gauge) => {
        for (const [pool, use] of Object.entries(pools())) {
          if (!use) continue;
          gauge.set({ pool, state: 'in_use' }, use.total - use.idle);
          gauge.set({ pool, state: 'idle' }, use.idle);
        }
      },
    );
    this.metrics.gauge(
      {
        name: 'grove_db_pool_max_connections',
        help: 'The most connections each PostgreSQL pool of this instance opens',
        labelNames: ['pool'],
      },
      (gauge) => {
        for (const [pool, use] of Object.entries(pools())) {
          if (use) gauge.set({ pool }, use.max);
        }
      },
    );
    this.metrics.gauge(
      {
        name: 'grove_db_pool_waiting',
        help: 'Callers waiting for a connection of each PostgreSQL pool of this instance (every connection busy)',
        labelNames: ['pool'],
      },
      (gauge) => {
        for (const [pool, use] of Object.entries(pools())) {
          if (use) gauge.set({ pool }, use.waiting);
        }
      },
    );
    this.metrics.gauge(
      {
        name: 'grove_job_queue_jobs',
        help: 'Jobs of each pg-boss queue not done yet, across all instances: waiting (created or awaiting a retry) and active',
        labelNames: ['queue', 'state'],
      },
      async (gauge) => {
        for (const depth of await this.jobs.queueDepths()) {
          gauge.set({ queue: depth.queue, state: 'waiting' }, depth.waiting);
          gauge.set({ queue: depth.queue, state: 'active' }, depth.active);
        }
      },
    );
  }
}
