/** A page of a list endpoint. `page` is 1-based. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  /**
   * True when `total` is a floor, not a count: more than `total` rows match (a members search
   * counts its matches only up to a cap, docs/product.md#branches). Absent or false: exact.
   */
  totalCapped?: boolean;
}
