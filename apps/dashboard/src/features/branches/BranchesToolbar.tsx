import { useId, type ReactNode } from 'react';
import {
  MEMBER_STATUSES,
  TREE_PAGE_SIZES,
  type ListMembersQuery,
  type MemberSortKey,
} from '@grove/contracts';
import type { BranchesFilter } from './useBranchesQuery';

/** The sort choices of the toolbar's 'Sort' list: key, direction and what the owner reads. */
const SORTS: readonly { key: MemberSortKey; order: 'asc' | 'desc'; label: string }[] = [
  { key: 'createdAt', order: 'desc', label: 'Newest first' },
  { key: 'createdAt', order: 'asc', label: 'Oldest first' },
  { key: 'memberName', order: 'asc', label: 'Name (A–Z)' },
  { key: 'branches', order: 'desc', label: 'Most branches' },
  { key: 'newPriceCents', order: 'asc', label: 'Lowest price' },
  { key: 'newPriceCents', order: 'desc', label: 'Highest price' },
  { key: 'status', order: 'asc', label: 'Status' },
];

/** One labelled select of the toolbar. */
function Choice({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="dash-filters__choice">
      <label htmlFor={id} className="dash-filters__label">
        {label}
      </label>
      <select
        id={id}
        className="g-field__input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
    </div>
  );
}

/**
 * The Branches list's toolbar (issue 25, docs/product.md#branches): filter by status, referral
 * link and who manages the member, sort, rows per page, and the "Branches of {name}" filter set
 * from the Referred by column (with a button to clear it). Every choice is kept in the URL
 * (`useBranchesQuery`).
 */
export function BranchesToolbar({
  query,
  referrerName,
  onFilter,
  onSort,
  onPageSize,
}: {
  query: ListMembersQuery;
  /** The name of the member `query.referredBy` names, when the page knows it. */
  referrerName?: string;
  onFilter: (filter: BranchesFilter, value: string) => void;
  onSort: (key: MemberSortKey, order: 'asc' | 'desc') => void;
  onPageSize: (size: number) => void;
}) {
  const sortIndex = SORTS.findIndex(
    (choice) => choice.key === query.sort && choice.order === query.order,
  );
  return (
    <div className="dash-filters" role="group" aria-label="Filter and sort the trees">
      <Choice label="Status" value={query.status ?? ''} onChange={(v) => onFilter('status', v)}>
        <option value="">All statuses</option>
        {MEMBER_STATUSES.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </Choice>
      <Choice
        label="Referral link"
        value={query.hasLink ?? ''}
        onChange={(v) => onFilter('hasLink', v)}
      >
        <option value="">Any</option>
        <option value="yes">Has a link</option>
        <option value="no">No link yet</option>
      </Choice>
      <Choice
        label="Managed by"
        value={query.managed ?? ''}
        onChange={(v) => onFilter('managed', v)}
      >
        <option value="">Anyone</option>
        <option value="mindbody">Mindbody</option>
        <option value="stripe">Stripe</option>
        <option value="grove">Grove</option>
      </Choice>
      <Choice
        label="Sort"
        value={sortIndex >= 0 ? String(sortIndex) : ''}
        onChange={(v) => {
          const choice = SORTS[Number(v)];
          if (choice) onSort(choice.key, choice.order);
        }}
      >
        {sortIndex < 0 && <option value="">Custom</option>}
        {SORTS.map((choice, index) => (
          <option key={choice.label} value={index}>
            {choice.label}
          </option>
        ))}
      </Choice>
      <Choice
        label="Rows"
        value={String(query.pageSize ?? TREE_PAGE_SIZES[0])}
        onChange={(v) => onPageSize(Number(v))}
      >
        {TREE_PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size} per page
          </option>
        ))}
      </Choice>
      {query.referredBy && (
        <p className="dash-filters__chip">
          Branches of {referrerName ?? 'one member'}
          <button
            type="button"
            className="g-btn g-btn--ghost g-btn--sm"
            aria-label={`Show every tree, not only the branches of ${referrerName ?? 'this member'}`}
            onClick={() => onFilter('referredBy', '')}
          >
            ✕
          </button>
        </p>
      )}
    </div>
  );
}
