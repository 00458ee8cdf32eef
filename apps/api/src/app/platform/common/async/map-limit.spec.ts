import { mapLimit } from './map-limit';

/** A task that resolves when told to, recording when it started. */
function deferredWork() {
  const started: number[] = [];
  const release = new Map<number, () => void>();
  const work = (item: number) =>
    new Promise<number>((resolve) => {
      started.push(item);
      release.set(item, () => resolve(item * 10));
    });
  return { started, release, work };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('mapLimit', () => {
  it('keeps the order of the items, whatever order the calls end in', async () => {
    const delays = [30, 5, 20, 0, 10];
    const results = await mapLimit(delays, 2, async (ms) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return ms;
    });
    expect(results).toEqual(delays);
  });

  it('never has more than `limit` calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    await mapLimit(
      Array.from({ length: 20 }, (_, i) => i),
      3,
      async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight -= 1;
      },
    );
    expect(most).toBe(3);
  });

  it('returns [] for no items, without calling `work`', async () => {
    const work = jest.fn(async () => 1);
    await expect(mapLimit([], 4, work)).resolves.toEqual([]);
    expect(work).not.toHaveBeenCalled();
  });

  it('rejects with the first error of `work`', async () => {
    await expect(
      mapLimit([1, 2, 3], 2, async (item) => {
        if (item === 2) throw new Error('item 2 failed');
        return item;
      }),
    ).rejects.toThrow('item 2 failed');
  });

  it('once stopped, starts no new item, lets the ones under way end, then throws the reason', async () => {
    const { started, release, work } = deferredWork();
    const stop = new AbortController();
    const running = mapLimit([1, 2, 3, 4, 5], 2, work, stop.signal);
    await tick();
    expect(started).toEqual([1, 2]);
    stop.abort(new Error('shutting down'));
    release.get(1)?.();
    release.get(2)?.();
    await expect(running).rejects.toThrow('shutting down');
    expect(started).toEqual([1, 2]);
  });

  it('does not throw when stopped after the last item started', async () => {
    const { release, work } = deferredWork();
    const stop = new AbortController();
    const running = mapLimit([1, 2], 2, work, stop.signal);
    await tick();
    stop.abort(new Error('shutting down'));
    release.get(1)?.();
    release.get(2)?.();
    await expect(running).resolves.toEqual([10, 20]);
  });
});
