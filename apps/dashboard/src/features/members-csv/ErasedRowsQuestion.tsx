/** Props of {@link ErasedRowsQuestion}. */
export interface ErasedRowsQuestionProps {
  /** Rows of the file whose email was erased on request (as the dry run found them). */
  count: number;
  /** Whether the owner confirmed importing them ("Import erased members too"). */
  confirmed: boolean;
  /** True while the dry run checks the rows again. */
  busy: boolean;
  onChange: (confirmed: boolean) => void;
}

/**
 * The CSV import's question for rows whose email was erased at the person's request
 * (docs/product.md#data-rights): they are not imported unless the owner ticks "Import erased
 * members too", which checks the rows again with `importErased`; unticking holds them back again.
 */
export function ErasedRowsQuestion({ count, confirmed, busy, onChange }: ErasedRowsQuestionProps) {
  if (count === 0) return null;
  const rows =
    count === 1 ? '1 row is a person' : `${count.toLocaleString('en-AU')} rows are people`;
  return (
    <div className="csv-import__erased" role="group" aria-labelledby="csv-erased-question">
      <p id="csv-erased-question">
        {rows} whose data was erased at their request. Did they ask to come back? Import them again
        only if they did.
      </p>
      <label>
        <input
          type="checkbox"
          checked={confirmed}
          disabled={busy}
          onChange={(event) => onChange(event.target.checked)}
        />{' '}
        Import erased members too
      </label>
    </div>
  );
}
