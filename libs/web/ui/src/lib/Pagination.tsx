import './pagination.css';
/** Props of {@link Pagination}; `page` is 1-based. */
export interface PaginationProps {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  /** What the rows are called, e.g. "trees". */
  noun?: string;
  /** `total` is a floor (more rows exist): shown as "500+", and Next stays on past it. */
  totalCapped?: boolean;
}

/**
 * "21–40 of 312 trees" (or "of 500+ trees" when `totalCapped`) with previous / next buttons.
 * Renders nothing for a single page.
 */
export function Pagination({
  page,
  pageSize,
  total,
  onPageChange,
  noun = 'rows',
  totalCapped = false,
}: PaginationProps) {
  const more = totalCapped ? '+' : '';
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total <= pageSize) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav className="g-pagination" aria-label="Pagination">
      <span>
        {first}–{last} of {total}
        {more} {noun}
      </span>
      <div className="g-pagination__buttons">
        <button
          type="button"
          className="g-btn g-btn--secondary g-btn--sm"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          Previous
        </button>
        <span aria-current="page">
          Page {page} of {pages}
          {more}
        </span>
        <button
          type="button"
          className="g-btn g-btn--secondary g-btn--sm"
          disabled={page >= pages && !totalCapped}
          onClick={() => onPageChange(page + 1)}
        >
          Next
        </button>
      </div>
    </nav>
  );
}
