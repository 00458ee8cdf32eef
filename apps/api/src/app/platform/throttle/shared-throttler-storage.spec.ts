import { Logger } from '@nestjs/common';
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { SharedThrottlerStorage, type LimiterSettings } from './shared-throttler-storage';
import { tooManyAttemptsMessage, WAIT_A_MINUTE } from './throttling';

const MINUTE = 60_000;
const local = { countLocallyWhenDown: true };

/**
 * A stand-in for the shared store: one rate-limiter-flexible memory limiter per throttler, handed
 * to every storage built on it (as every instance reaches the same table or Redis).
 */
function sharedStore() {
  const limiters = new Map<string, RateLimiterAbstract>();
  const created: LimiterSettings[] = [];
  const factory = (settings: LimiterSettings): RateLimiterAbstract => {
    created.push(settings);
    const id = JSON.stringify(settings);
    const limiter = limiters.get(id) ?? new RateLimiterMemory(settings);
    limiters.set(id, limiter);
    return limiter;
  };
  return { factory, created };
}

describe('SharedThrottlerStorage', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('counts hits in the window and refuses the one past the limit for the block duration', async () => {
    const storage = new SharedThrottlerStorage(sharedStore().factory, local);
    const hits = [];
    for (let i = 0; i < 6; i += 1)
      hits.push(await storage.increment('client', MINUTE, 5, 15 * MINUTE, 'auth'));
    expect(hits.slice(0, 5).map((hit) => [hit.totalHits, hit.isBlocked, hit.timeToExpire])).toEqual(
      [
        [1, false, 60],
        [2, false, 60],
        [3, false, 60],
        [4, false, 60],
        [5, false, 60],
      ],
    );
    expect(hits[5]).toMatchObject({ totalHits: 6, isBlocked: true, timeToBlockExpire: 900 });
  });

  it('lets the client in again once the window is over', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-23T10:00:00Z') });
    const storage = new SharedThrottlerStorage(sharedStore().factory, local);
    for (let i = 0; i < 3; i += 1) await storage.increment('client', MINUTE, 2, MINUTE, 'auth');
    expect((await storage.increment('client', MINUTE, 2, MINUTE, 'auth')).isBlocked).toBe(true);
    jest.advanceTimersByTime(MINUTE + 1);
    expect(await storage.increment('client', MINUTE, 2, MINUTE, 'auth')).toMatchObject({
      totalHits: 1,
      isBlocked: false,
    });
  });

  it('keeps no count of its own: two storages on one store (two API instances) count together', async () => {
    const store = sharedStore();
    const instanceA = new SharedThrottlerStorage(store.factory, local);
    const instanceB = new SharedThrottlerStorage(store.factory, local);
    const statuses = [];
    for (let i = 0; i < 6; i += 1) {
      const storage = i % 2 === 0 ? instanceA : instanceB;
      statuses.push((await storage.increment('client', MINUTE, 5, MINUTE, 'auth')).isBlocked);
    }
    expect(statuses).toEqual([false, false, false, false, false, true]);
  });

  it('counts each throttler and each key apart, building one limiter per throttler', async () => {
    const store = sharedStore();
    const storage = new SharedThrottlerStorage(store.factory, local);
    await storage.increment('client', MINUTE, 1, MINUTE, 'auth');
    expect((await storage.increment('client', MINUTE, 1, MINUTE, 'auth')).isBlocked).toBe(true);
    expect((await storage.increment('client', MINUTE, 1, MINUTE, 'contact')).isBlocked).toBe(false);
    expect((await storage.increment('other client', MINUTE, 1, MINUTE, 'auth')).isBlocked).toBe(
      false,
    );
    expect(store.created).toEqual([
      { keyPrefix: 'grove-throttle:auth', points: 1, duration: 60, blockDuration: 60 },
      { keyPrefix: 'grove-throttle:contact', points: 1, duration: 60, blockDuration: 60 },
    ]);
  });

  it('counts in its own memory, with a warning, while a store apart from the database (Redis) fails', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const broken = {
      consume: () => Promise.reject(new Error('connection refused')),
    } as unknown as RateLimiterAbstract;
    const storage = new SharedThrottlerStorage(() => broken, local);
    const blocked = [];
    for (let i = 0; i < 3; i += 1)
      blocked.push((await storage.increment('client', MINUTE, 2, MINUTE, 'auth')).isBlocked);
    expect(blocked).toEqual([false, false, true]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('connection refused'));
  });

  it("throws the store's error while the database it counts in (PostgreSQL) fails", async () => {
    const broken = {
      consume: () => Promise.reject(new Error('Query read timeout')),
    } as unknown as RateLimiterAbstract;
    const storage = new SharedThrottlerStorage(() => broken, { countLocallyWhenDown: false });
    await expect(storage.increment('client', MINUTE, 2, MINUTE, 'auth')).rejects.toThrow(
      'Query read timeout',
    );
  });
});

describe('tooManyAttemptsMessage', () => {
  it('asks for a minute up to 60 s, else names the minutes left, rounded up', () => {
    expect(tooManyAttemptsMessage(60)).toBe(WAIT_A_MINUTE);
    expect(tooManyAttemptsMessage(61)).toBe('Too many attempts. Try again in 2 minutes.');
    expect(tooManyAttemptsMessage(720)).toBe('Too many attempts. Try again in 12 minutes.');
    expect(tooManyAttemptsMessage(900)).toBe('Too many attempts. Try again in 15 minutes.');
  });
});
