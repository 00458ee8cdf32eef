import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Page } from '@grove/contracts';
import { Button, EmptyState, Pagination, Spinner } from '@grove/web-ui';

/** Props of {@link ListFrame}. */
export interface ListFrameProps<T> {
  /** The query of one page of the list. */
  query: UseQueryResult<Page<T>, Error>;
  loadingLabel: string;
  /** What an empty list says (docs/product.md#screens's empty texts). */
  emptyMessage: ReactNode;
  /** What the rows are called in the pagination line, e.g. "trees". */
  noun: string;
  onPageChange: (page: number) => void;
  /** The table of a loaded, non-empty page. */
  children: (page: Page<T>) => ReactNode;
}

/**
 * The frame every paged table of the dashboard shares: a spinner while loading, the error with
 * "Try again" in the empty-state area (docs/product.md#errors), the empty text, else the table and its pagination.
 */
export function ListFrame<T>({
  query,
  loadingLabel,
  emptyMessage,
  noun,
  onPageChange,
  children,
}: ListFrameProps<T>) {
  if (query.isPending) return <Spinner label={loadingLabel} />;
  if (query.isError) {
    return (
      <EmptyState
        message={query.error.message}
        action={
          <Button variant="secondary" onClick={() => query.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  if (query.data.items.length === 0) return <EmptyState message={emptyMessage} />;
  return (
    <>
      <div className="g-table-wrap">{children(query.data)}</div>
      <Pagination
        page={query.data.page}
        pageSize={query.data.pageSize}
        total={query.data.total}
        totalCapped={query.data.totalCapped}
        onPageChange={onPageChange}
        noun={noun}
      />
    </>
  );
}
