import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** What `ThrottlerStorage.increment` returns (`@nestjs/throttler`'s `ThrottlerStorageRecord`); times in seconds. */
export interface ThrottleRecord {
  totalHits: number;
  timeToExpire: number;
  isBlocked: boolean;
  timeToBlockExpire: number;
}

/**
 * The settings of one rate-limiter-flexible limiter: `keyPrefix` (`grove-throttle:<throttler
 * name>`), `points` (hits allowed per window), `duration` (window, seconds) and `blockDuration`
 * (how long a client over the limit stays refused, seconds).
 */
export interface LimiterSettings {
  keyPrefix: string;
  points: number;
  duration: number;
  blockDuration: number;
}

/** Builds the limiter of one throttler on the shared store (PostgreSQL table or Redis). */
export type LimiterFactory = (settings: LimiterSettings) => RateLimiterAbstract;

const seconds = (ms: number): number => Math.max(0, Math.ceil(ms / 1000));

/**
 * `@nestjs/throttler` storage whose counters live in a store every API instance shares
 * (issue 12: with the default in-memory storage, N instances let a client through N times the
 * limit). Each throttler (name + ttl + limit + block duration) gets one rate-limiter-flexible
 * limiter from `createLimiter`; `increment` consumes one point of the request's key: a fixed
 * window of `ttl`, and the hit past `limit` blocks the key for `blockDuration` (both in ms, as
 * ThrottlerGuard passes them), as the in-memory storage does.
 *
 * When the store fails: with `countLocallyWhenDown` (Redis, a store apart from the database) the
 * hit is counted in this process's memory instead, with a warning, so the throttle keeps holding
 * (per instance) and the route still works; without it (PostgreSQL, the database the route needs
 * anyway) the store's error is thrown, and the request is answered as any other that cannot reach
 * the database (503) without waiting for the database twice.
 */
export class SharedThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('Throttling');
  private readonly limiters = new Map<
    string,
    { shared: RateLimiterAbstract; local: RateLimiterMemory }
  >();

  /**
   * @param createLimiter builds a limiter on the shared store (see `postgresLimiters`, `redisLimiters`)
   * @param options.countLocallyWhenDown count in memory while the store fails (else throw its error)
   */
  constructor(
    private readonly createLimiter: LimiterFactory,
    private readonly options: { countLocallyWhenDown: boolean },
  ) {}

  /**
   * Counts one hit of `key` for throttler `throttlerName`.
   * @param key the client's key (ThrottlerGuard: hash of route + tracker + throttler name)
   * @param ttl window in milliseconds
   * @param limit hits allowed in the window
   * @param blockDuration how long the key is refused once over the limit, milliseconds
   * @returns hits so far, seconds until the window ends, and whether (and how many more seconds)
   *   the key is refused
   * @throws the store's error when it fails and `countLocallyWhenDown` is off
   */
  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottleRecord> {
    const { shared, local } = this.limitersFor(throttlerName, ttl, limit, blockDuration);
    try {
      return record(await shared.consume(key));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return refused(rejection);
      if (!this.options.countLocallyWhenDown) throw rejection;
      this.logger.warn(
        `Throttle store unavailable (${rejection instanceof Error ? rejection.message : String(rejection)}): counting '${throttlerName}' in this instance only`,
      );
      try {
        return record(await local.consume(key));
      } catch (localRejection) {
        if (localRejection instanceof RateLimiterRes) return refused(localRejection);
        throw localRejection;
      }
    }
  }

  /**
   * Takes one hit of `key` back from throttler `throttlerName`'s count (a login that succeeded:
   * only failed logins count, docs/product.md#validation-login). Never below zero, and a key that
   * is not counted (its window ended) is left alone, so a refund gives no extra allowance.
   * @throws the store's error when it fails and `countLocallyWhenDown` is off
   */
  async refund(key: string, throttlerName: string): Promise<void> {
    for (const [id, pair] of this.limiters) {
      if (!id.startsWith(`${throttlerName}:`)) continue;
      try {
        await refundOne(pair.shared, key);
      } catch (error) {
        if (!this.options.countLocallyWhenDown) throw error;
        await refundOne(pair.local, key);
      }
    }
  }

  /**
   * Forgets `key`'s count and any refusal of throttler `throttlerName` with these settings (a
   * password reset lifts an account's paused sign-in), also when this instance never counted it
   * (the shared store holds what another instance, or this one before a restart, counted).
   * @throws the store's error when it fails and `countLocallyWhenDown` is off
   */
  async clear(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<void> {
    const { shared, local } = this.limitersFor(throttlerName, ttl, limit, blockDuration);
    await local.delete(key);
    try {
      await shared.delete(key);
    } catch (error) {
      if (!this.options.countLocallyWhenDown) throw error;
    }
  }

  /**
   * How long `key` stays refused (or, its limit used up, its next hit would be) by throttler
   * `throttlerName` with these settings, without
   * counting a hit (the Team card shows a paused account). Reads the shared store; when it fails
   * and `countLocallyWhenDown` is on, this instance's own count.
   * @returns milliseconds until the refusal ends; 0 when the key is not refused
   * @throws the store's error when it fails and `countLocallyWhenDown` is off
   */
  async refusedFor(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<number> {
    const { shared, local } = this.limitersFor(throttlerName, ttl, limit, blockDuration);
    let current: RateLimiterRes | null;
    try {
      current = await shared.get(key);
    } catch (error) {
      if (!this.options.countLocallyWhenDown) throw error;
      current = await local.get(key);
    }
    return current && current.consumedPoints >= limit ? Math.max(0, current.msBeforeNext) : 0;
  }

  private limitersFor(name: string, ttl: number, limit: number, blockDuration: number) {
    const id = `${name}:${ttl}:${limit}:${blockDuration}`;
    let pair = this.limiters.get(id);
    if (!pair) {
      const settings: LimiterSettings = {
        keyPrefix: `grove-throttle:${name}`,
        points: limit,
        duration: ttl / 1000,
        blockDuration: blockDuration / 1000,
      };
      pair = { shared: this.createLimiter(settings), local: new RateLimiterMemory(settings) };
      this.limiters.set(id, pair);
    }
    return pair;
  }
}

/** Gives one point of `key` back when it has any in its current window. */
async function refundOne(limiter: RateLimiterAbstract, key: string): Promise<void> {
  const current = await limiter.get(key);
  if (current && current.consumedPoints > 0 && current.msBeforeNext > 0)
    await limiter.reward(key, 1);
}

function record(res: RateLimiterRes): ThrottleRecord {
  return {
    totalHits: res.consumedPoints,
    timeToExpire: seconds(res.msBeforeNext),
    isBlocked: false,
    timeToBlockExpire: 0,
  };
}

function refused(res: RateLimiterRes): ThrottleRecord {
  const wait = seconds(res.msBeforeNext);
  return {
    totalHits: res.consumedPoints,
    timeToExpire: wait,
    isBlocked: true,
    timeToBlockExpire: wait,
  };
}
