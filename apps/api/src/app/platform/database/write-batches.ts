/**
 * `items` cut into consecutive batches of at most `size` (the last may be shorter; none when
 * `items` is empty), in order: one set-based statement per batch keeps every statement of a bulk
 * write far inside `DATABASE_STATEMENT_TIMEOUT_MS`, however big the write.
 * @param size items per batch, an integer ≥ 1
 * @throws RangeError when `size` is not an integer ≥ 1
 */
export function writeBatches<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`batch size ${size}`);
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    batches.push(items.slice(start, start + size));
  return batches;
}
