import {
  Injectable,
  Logger,
  Module,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterPostgres, RateLimiterRedis } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import type { LimiterFactory } from './shared-throttler-storage';

/**
 * Limiters on PostgreSQL: one row per throttled client in `throttle_counters` (migration
 * ThrottleCounters, the table rate-limiter-flexible's `RateLimiterPostgres` expects), through
 * TypeORM's connection pool.
 */
export function postgresLimiters(dataSource: DataSource): LimiterFactory {
  return (settings) =>
    new RateLimiterPostgres({
      ...settings,
      storeClient: dataSource,
      storeType: 'typeorm',
      tableName: 'throttle_counters',
      tableCreated: true,
    });
}

/**
 * Limiters on Redis: one key per throttled client (`grove-throttle:<throttler>:<client key>`,
 * expiring with its window), counted by rate-limiter-flexible's atomic Lua script. A disconnected
 * client refuses at once (`rejectIfRedisNotReady`), so `SharedThrottlerStorage` counts in memory
 * meanwhile.
 */
export function redisLimiters(client: Redis): LimiterFactory {
  return (settings) =>
    new RateLimiterRedis({ ...settings, storeClient: client, rejectIfRedisNotReady: true });
}

/**
 * Where the throttle counters live: Redis when REDIS_URL is set (the connection is opened here and
 * closed when the app stops), else PostgreSQL's `throttle_counters`. Either way every API instance
 * configured alike shares them.
 */
@Injectable()
export class ThrottleStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Throttling');
  private readonly redis: Redis | null;
  /** Builds each throttler's limiter on the store. */
  readonly createLimiter: LimiterFactory;
  /**
   * True for Redis: while it is away, count in each instance's memory. False for PostgreSQL: the
   * throttled routes need the database anyway, so its error answers the request (503).
   */
  readonly countLocallyWhenDown: boolean;

  constructor(config: AppConfig, dataSource: DataSource) {
    if (!config.redisUrl) {
      this.redis = null;
      this.createLimiter = postgresLimiters(dataSource);
      this.countLocallyWhenDown = false;
      return;
    }
    // No offline queue: while Redis is away a command fails at once instead of waiting.
    const redis = new Redis(config.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    let failing = false;
    redis.on('error', (error: Error) => {
      if (!failing) this.logger.warn(`Redis (REDIS_URL) unavailable: ${error.message}`);
      failing = true;
    });
    redis.on('ready', () => {
      if (failing) this.logger.log('Redis (REDIS_URL) is back');
      failing = false;
    });
    this.redis = redis;
    this.createLimiter = redisLimiters(redis);
    this.countLocallyWhenDown = true;
  }

  /**
   * Waits (up to 5 s) for the Redis connection before the API takes requests, so the first ones are
   * counted in Redis; an unreachable Redis only delays the start (a warning; counted in memory
   * until it answers).
   */
  async onModuleInit(): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5_000);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async onModuleDestroy(): Promise<void> {
    if (this.redis && this.redis.status !== 'end')
      await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}

/** Provides the `ThrottleStore` (uses the global `AppConfig` and TypeORM `DataSource`). */
@Module({ providers: [ThrottleStore], exports: [ThrottleStore] })
export class ThrottleStoreModule {}
