/**
 * Runs `work` over `items` with at most `limit` at once; keeps the order of results. Once
 * `stopping` is aborted no new item starts: the calls under way end, then it throws.
 * @param limit calls in flight at once, ≥ 1
 * @returns `work`'s results, in the order of `items`
 * @throws `stopping.reason` when items were left undone; else the first error of `work`
 */
export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<R>,
  stopping?: AbortSignal,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !stopping?.aborted) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  });
  await Promise.all(lanes);
  if (next < items.length) stopping?.throwIfAborted();
  return results;
}
