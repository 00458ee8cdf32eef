/**
 * One page of a list read in ONE statement that also carries the list's size in a `total` column:
 * the rows mapped to items, and that total. A page past the end has no row to carry the total, so
 * `countAll` is asked then (an empty first page means an empty list, 0, without asking).
 * @param rows the page's SQL rows, each with `total`
 * @param offset the page's offset (rows skipped)
 * @param countAll counts the whole list (same filters as the page)
 * @param toItem maps one SQL row to its item
 */
export async function pageOfRows<R extends { total: number }, T>(
  rows: R[],
  offset: number,
  countAll: () => Promise<number>,
  toItem: (row: R) => T,
): Promise<{ rows: T[]; total: number }> {
  if (rows.length > 0) return { rows: rows.map(toItem), total: rows[0].total };
  return { rows: [], total: offset === 0 ? 0 : await countAll() };
}
