import { useState } from 'react';
import {
  AUDIT_KIND_LABELS,
  AUDIT_KINDS,
  auditValuePairs,
  type AuditEntry,
  type AuditKind,
  type AuditValue,
} from '@grove/contracts';
import { useLocaleFormats } from '@grove/web-data-access';
import {
  Alert,
  Button,
  EmptyState,
  Pagination,
  SelectField,
  Spinner,
  TextField,
} from '@grove/web-ui';
import {
  ACTIVITY_PAGE_SIZE,
  useActivity,
  useActivityAuthors,
  useExportActivity,
  type ActivityFilters,
} from './activity-api';
import './activity.css';

/** A before or after for people: each field by its name, money in dollars (`auditValuePairs`). */
function ValueText({ value }: { value: AuditValue | null }) {
  const format = useLocaleFormats();
  if (!value) return <span className="dash-activity__none">—</span>;
  return (
    <>
      {auditValuePairs(value, format).map((pair) => (
        <span key={pair.key} className="dash-activity__pair">
          {pair.label}: {pair.text}
        </span>
      ))}
    </>
  );
}

function Row({ entry, showMember }: { entry: AuditEntry; showMember: boolean }) {
  const format = useLocaleFormats();
  return (
    <tr>
      <td data-label="When">{format.dateTime(new Date(entry.at))}</td>
      <td data-label="Who">{entry.authorName}</td>
      <td data-label="What">{AUDIT_KIND_LABELS[entry.kind]}</td>
      {showMember && <td data-label="Member">{entry.memberName ?? '—'}</td>}
      <td data-label="Before">
        <ValueText value={entry.before} />
      </td>
      <td data-label="After">
        <ValueText value={entry.after} />
      </td>
    </tr>
  );
}

/**
 * The audit log as a filtered table, newest first (docs/product.md#audit-log): person, kind and
 * period filters, pages of 25, loading, empty and error states, and 'Download CSV' of what the
 * filters keep. With `memberId`, one member's own history (no member column or filter).
 */
export function ActivityLog({ memberId }: { memberId?: string }) {
  const [filters, setFilters] = useState<ActivityFilters>({ memberId });
  const [page, setPage] = useState(1);
  const activity = useActivity(filters, page);
  const authors = useActivityAuthors();
  const download = useExportActivity();
  const set = (change: Partial<ActivityFilters>) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage(1);
  };
  const showMember = !memberId;
  return (
    <div className="dash-activity">
      <div className="dash-activity__filters">
        <SelectField
          label="Person"
          value={filters.author ?? ''}
          onChange={(event) => set({ author: event.target.value || undefined })}
          options={[
            { value: '', label: 'Everyone' },
            ...(authors.data ?? []).map((author) => ({ value: author.id, label: author.name })),
          ]}
        />
        <SelectField
          label="Change"
          value={filters.kind ?? ''}
          onChange={(event) => set({ kind: (event.target.value || undefined) as AuditKind })}
          options={[
            { value: '', label: 'Every change' },
            ...AUDIT_KINDS.map((kind) => ({ value: kind, label: AUDIT_KIND_LABELS[kind] })),
          ]}
        />
        <TextField
          label="From"
          type="date"
          value={filters.from ?? ''}
          onChange={(event) => set({ from: event.target.value || undefined })}
        />
        <TextField
          label="To"
          type="date"
          value={filters.to ?? ''}
          onChange={(event) => set({ to: event.target.value || undefined })}
        />
        <Button
          variant="secondary"
          onClick={() => download.mutate(filters)}
          disabled={download.isPending}
        >
          {download.isPending ? 'Preparing…' : 'Download CSV'}
        </Button>
      </div>
      {download.isError && <Alert tone="error">{download.error.message}</Alert>}
      {activity.isPending ? (
        <Spinner label="Loading activity…" />
      ) : activity.isError ? (
        <EmptyState
          message={activity.error.message}
          action={
            <Button variant="secondary" onClick={() => activity.refetch()}>
              Try again
            </Button>
          }
        />
      ) : activity.data.items.length === 0 ? (
        <EmptyState message="No changes recorded for these filters yet." />
      ) : (
        <>
          <div className="g-table-wrap">
            <table className="g-table g-table--stack dash-activity__table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  {showMember && <th scope="col">Member</th>}
                  <th scope="col">Before</th>
                  <th scope="col">After</th>
                </tr>
              </thead>
              <tbody>
                {activity.data.items.map((entry) => (
                  <Row key={entry.id} entry={entry} showMember={showMember} />
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            page={page}
            pageSize={ACTIVITY_PAGE_SIZE}
            total={activity.data.total}
            onPageChange={setPage}
            noun="changes"
          />
        </>
      )}
    </div>
  );
}
