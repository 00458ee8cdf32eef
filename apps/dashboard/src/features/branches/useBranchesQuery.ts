import { useSearchParams } from 'react-router-dom';
import {
  MEMBER_LINK_FILTERS,
  MEMBER_MANAGED_FILTERS,
  MEMBER_SORT_KEYS,
  MEMBER_STATUSES,
  TREE_PAGE_SIZES,
  type ListMembersQuery,
  type MemberSortKey,
} from '@grove/contracts';

/** Rows per page of the trees table unless the owner picks another size (`TREE_PAGE_SIZES`). */
export const TREES_PAGE_SIZE = 25;

/** The list's filters, as URL parameters (`ListMembersQuery`). */
export type BranchesFilter = 'status' | 'managed' | 'hasLink' | 'referredBy';

/** `value` when it is one of `allowed`, else undefined (a hand-edited URL falls back to "all"). */
function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | undefined {
  return allowed.includes(value as T) ? (value as T) : undefined;
}

/**
 * The trees table's page, page size, sort, search and filters, kept in the URL
 * (`?page=2&pageSize=50&sort=newPriceCents&order=desc&status=Pending&search=sam&view=nested`) so a reload or a
 * shared link shows the same view. The top bar's search box writes `search`. Changing a filter,
 * the sort or the page size goes back to page 1.
 */
export function useBranchesQuery() {
  const [params, setParams] = useSearchParams();
  const sort: MemberSortKey = oneOf(MEMBER_SORT_KEYS, params.get('sort')) ?? 'createdAt';
  const order =
    params.get('order') === 'asc'
      ? 'asc'
      : params.get('order') === 'desc'
        ? 'desc'
        : sort === 'createdAt'
          ? 'desc'
          : 'asc';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const sizeParam = Number(params.get('pageSize'));
  const pageSize = (TREE_PAGE_SIZES as readonly number[]).includes(sizeParam)
    ? sizeParam
    : TREES_PAGE_SIZE;
  const search = params.get('search') ?? '';
  const referredBy = params.get('referredBy') ?? '';
  const query: ListMembersQuery = {
    page,
    pageSize,
    sort,
    order,
    search: search || undefined,
    status: oneOf(MEMBER_STATUSES, params.get('status')),
    managed: oneOf(MEMBER_MANAGED_FILTERS, params.get('managed')),
    hasLink: oneOf(MEMBER_LINK_FILTERS, params.get('hasLink')),
    referredBy: /^[0-9a-f-]{36}$/i.test(referredBy) ? referredBy : undefined,
  };

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    setParams(next);
  };

  return {
    query,
    /** True when the page shows trees with their branches nested under them (`?view=nested`). */
    nested: params.get('view') === 'nested',
    /** Switches the nested view on or off (the page and filters stay). */
    setNested: (value: boolean) => update({ view: value ? 'nested' : null }),
    /** True when a filter narrows the list (the empty text says so). */
    filtered: Boolean(query.status || query.managed || query.hasLink || query.referredBy),
    setPage: (value: number) => update({ page: value > 1 ? String(value) : null }),
    setPageSize: (value: number) =>
      update({ pageSize: value === TREES_PAGE_SIZE ? null : String(value), page: null }),
    toggleSort: (key: MemberSortKey) =>
      update({ sort: key, order: sort === key && order === 'asc' ? 'desc' : 'asc', page: null }),
    setSort: (key: MemberSortKey, direction: 'asc' | 'desc') =>
      update({ sort: key, order: direction, page: null }),
    /** Sets one filter (`''`: all), back to page 1. */
    setFilter: (filter: BranchesFilter, value: string) =>
      update({ [filter]: value || null, page: null }),
    clearFilters: () =>
      update({ status: null, managed: null, hasLink: null, referredBy: null, page: null }),
  };
}
