import { useSearchParams } from 'react-router-dom';
import { MEMBER_SORT_KEYS, type ListMembersQuery, type MemberSortKey } from '@grove/contracts';

/** Rows per page of the trees table. */
export const TREES_PAGE_SIZE = 25;

/**
 * The trees table's page, sort and search, kept in the URL (`?page=2&sort=branches&order=desc&search=sam`)
 * so a reload or a shared link shows the same view. The top bar's search box writes `search`.
 */
export function useBranchesQuery() {
  const [params, setParams] = useSearchParams();
  const sortParam = params.get('sort');
  const sort: MemberSortKey = MEMBER_SORT_KEYS.includes(sortParam as MemberSortKey)
    ? (sortParam as MemberSortKey)
    : 'createdAt';
  const order =
    params.get('order') === 'asc'
      ? 'asc'
      : params.get('order') === 'desc'
        ? 'desc'
        : sort === 'createdAt'
          ? 'desc'
          : 'asc';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const search = params.get('search') ?? '';
  const query: ListMembersQuery = {
    page,
    pageSize: TREES_PAGE_SIZE,
    sort,
    order,
    search: search || undefined,
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
    setPage: (value: number) => update({ page: value > 1 ? String(value) : null }),
    toggleSort: (key: MemberSortKey) =>
      update({ sort: key, order: sort === key && order === 'asc' ? 'desc' : 'asc', page: null }),
  };
}
