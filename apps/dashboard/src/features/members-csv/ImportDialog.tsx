import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import {
  centsToDollarText,
  CSV_IMPORT_MAX_ROWS,
  ERASED_EMAIL_ROW_MESSAGE,
  MEMBER_CSV_FIELDS,
  MEMBER_CSV_FIELD_LABELS,
  MEMBER_CSV_MESSAGES,
  missingMemberCsvFields,
  type MemberCsvField,
  type MemberCsvMapping,
  type MemberImportCounts,
  type MemberImportOutcome,
  type MemberImportSettings,
  type MemberImportUpload,
} from '@grove/contracts';
import { Alert, Button, Modal, TextField } from '@grove/web-ui';
import {
  downloadTemplate,
  useDownloadFailedRows,
  useDryRun,
  useImportStatus,
  useRunImport,
  useUploadCsv,
} from './api/members-csv';
import { useMemberDefaults } from '../../components/member-defaults/member-defaults-api';
import { ErasedRowsQuestion } from './ErasedRowsQuestion';

/** What the dry run calls each outcome. */
export const OUTCOME_LABELS: Record<MemberImportOutcome, string> = {
  add: 'Will add',
  update: 'Will update',
  unchanged: 'Unchanged',
  skipped: 'Skipped',
  error: 'Error',
};

/** Rows the review table shows at once (the counts cover them all). */
const ROWS_SHOWN = 500;

/** The name's columns: one full name, or first and last name (choosing one kind clears the other). */
const NAME_PARTS: readonly MemberCsvField[] = ['firstName', 'lastName'];

/** "Download failed rows (3)": the failed rows of the dry run or the run, as a CSV with reasons. */
function FailedRowsButton({ importId, count }: { importId: string; count: number }) {
  const download = useDownloadFailedRows();
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        busy={download.isPending}
        onClick={() => download.mutate(importId)}
      >
        Download failed rows ({count.toLocaleString('en-AU')})
      </Button>
      {download.isError && <Alert>{download.error.message}</Alert>}
    </>
  );
}

/** "2 to add, 1 to update, 0 unchanged, 0 skipped (managed by Mindbody or Stripe), 1 with errors". */
function countsText(counts: MemberImportCounts, done = false): string {
  return [
    `${counts.add} ${done ? 'added' : 'to add'}`,
    `${counts.update} ${done ? 'updated' : 'to update'}`,
    `${counts.unchanged} unchanged`,
    `${counts.skipped} skipped (managed by Mindbody or Stripe)`,
    `${counts.error} with errors`,
  ].join(', ');
}

/**
 * Import members from a CSV file (issue 14 part 5; issue 25 Build 6, docs/product.md#members-csv):
 * choose a file (or first download a template) → match its columns to the member fields (guessed
 * from the headers, each changeable; a full name or first and last name columns; one discount for
 * every row when no column has it, starting from the business's default discount per referral) → a dry run listing every row's outcome with the add-member
 * form's messages, before anything is written, and the failed rows as a file → import the good
 * rows on request, with a progress bar → the counts (and the rows still failing as a file). The
 * browser's language tells the API how to read "1,059" (`parseMoneyToCents`).
 */
export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const upload = useUploadCsv();
  const dryRun = useDryRun();
  const run = useRunImport();
  const [uploaded, setUploaded] = useState<MemberImportUpload | null>(null);
  const [mapping, setMapping] = useState<MemberCsvMapping | null>(null);
  const [discountForEveryRow, setDiscountForEveryRow] = useState('');
  // The business's default discount per referral (docs/product.md#member-defaults) starts the
  // "same for every row" field; the owner may change it.
  const defaults = useMemberDefaults();
  const defaultDiscount =
    defaults.data?.discountCents != null ? centsToDollarText(defaults.data.discountCents) : '';
  const [errorsOnly, setErrorsOnly] = useState(false);
  const [importId, setImportId] = useState<string | null>(null);
  // Rows erased on request: imported only once the owner confirms (docs/product.md#data-rights).
  const [importErased, setImportErased] = useState(false);
  const [erasedConfirmed, setErasedConfirmed] = useState(0);
  const status = useImportStatus(importId);
  const fileId = useId();
  const reviewHeading = useRef<HTMLHeadingElement>(null);

  const reset = () => {
    upload.reset();
    dryRun.reset();
    run.reset();
    setUploaded(null);
    setMapping(null);
    setDiscountForEveryRow('');
    setErrorsOnly(false);
    setImportId(null);
    setImportErased(false);
    setErasedConfirmed(0);
  };
  const close = () => {
    reset();
    onClose();
  };
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    reset();
    upload.mutate(file, {
      onSuccess: (result) => {
        setUploaded(result);
        setMapping(result.mapping);
        setDiscountForEveryRow(defaultDiscount);
      },
    });
  };
  const changeMapping = (field: keyof MemberCsvMapping, value: string) => {
    if (!mapping) return;
    dryRun.reset();
    const column = value === '' ? null : Number(value);
    const next = { ...mapping, [field]: column };
    // A column feeds one field: taking it clears it elsewhere.
    for (const other of MEMBER_CSV_FIELDS) {
      if (other !== field && column !== null && next[other] === column) next[other] = null;
    }
    // The name is a full name or first and last names, never both.
    if (column !== null && field === 'memberName') for (const part of NAME_PARTS) next[part] = null;
    if (column !== null && NAME_PARTS.includes(field)) next.memberName = null;
    setMapping(next);
  };
  const changeDiscountForEveryRow = (value: string) => {
    dryRun.reset();
    setDiscountForEveryRow(value);
  };

  const typedDiscount = mapping?.discount === null ? discountForEveryRow.trim() || null : null;
  const settings: MemberImportSettings | null = mapping && {
    mapping,
    discountForEveryRow: typedDiscount,
    locale: typeof navigator === 'undefined' ? null : navigator.language,
    ...(importErased ? { importErased: true } : {}),
  };
  const missing = mapping ? missingMemberCsvFields(mapping, typedDiscount) : [];
  const review = dryRun.data;
  const goodRows = review ? review.counts.add + review.counts.update : 0;
  const progress = status.data;
  const erasedRows = importErased
    ? erasedConfirmed
    : (review?.rows ?? []).filter((row) => row.messages.includes(ERASED_EMAIL_ROW_MESSAGE)).length;
  const confirmErased = (confirmed: boolean) => {
    if (!uploaded || !settings) return;
    setErasedConfirmed(erasedRows);
    setImportErased(confirmed);
    const { importErased: _was, ...rest } = settings;
    dryRun.mutate({
      importId: uploaded.importId,
      settings: confirmed ? { ...rest, importErased: true } : rest,
    });
  };
  const shownRows = (review?.rows ?? []).filter((row) => !errorsOnly || row.outcome === 'error');
  // The dry run replaces the mapping on screen: take focus (and screen readers) to its heading.
  useEffect(() => {
    if (review) reviewHeading.current?.focus();
  }, [review]);

  return (
    <Modal open={open} title="Import members from CSV" onClose={close}>
      <div className="csv-import">
        {importId === null && !review && (
          <div className="csv-import__file">
            <label htmlFor={fileId}>CSV file</label>
            <input id={fileId} type="file" accept=".csv,text/csv" onChange={choose} />
            <p className="g-muted">
              One member per row under a header row: name (or first and last name), email,
              membership price, discount per branch, and optionally who referred them (email or
              name). Amounts as your spreadsheet writes them ($1,059.00, 59,00 €). Up to{' '}
              {CSV_IMPORT_MAX_ROWS.toLocaleString('en-AU')} rows, 5 MB.
            </p>
            <div>
              <Button size="sm" variant="secondary" onClick={downloadTemplate}>
                Download a template
              </Button>
            </div>
            {upload.isPending && <p role="status">Reading the file…</p>}
            {upload.isError && <Alert>{upload.error.message}</Alert>}
          </div>
        )}

        {uploaded && mapping && importId === null && !review && (
          <section aria-labelledby={`${fileId}-map`}>
            <h3 id={`${fileId}-map`} className="csv-import__step">
              Match the columns ({uploaded.rowCount.toLocaleString('en-AU')} rows)
            </h3>
            <p className="g-muted csv-import__hint">
              The name comes from a full name column, or from first and last name columns.
            </p>
            <div className="csv-import__mapping">
              {MEMBER_CSV_FIELDS.flatMap((field) => [
                <div key={field} className="csv-import__map-row">
                  {/* Labelled by id, not by nesting: the options' text stays out of its name. */}
                  <label htmlFor={`${fileId}-${field}`}>{MEMBER_CSV_FIELD_LABELS[field]}</label>
                  <select
                    id={`${fileId}-${field}`}
                    className="g-field__input"
                    value={mapping[field] ?? ''}
                    onChange={(event) => changeMapping(field, event.target.value)}
                  >
                    <option value="">(no column)</option>
                    {uploaded.headers.map((header, column) => (
                      <option key={column} value={column}>
                        {header || `Column ${column + 1}`}
                      </option>
                    ))}
                  </select>
                </div>,
                // No discount column: one discount for every row, typed next to it.
                field === 'discount' && mapping.discount === null && (
                  <TextField
                    key="discountForEveryRow"
                    className="csv-import__map-row"
                    label="Discount per branch for every row (dollars)"
                    hint="The file has no discount column: every member gets this one."
                    inputMode="decimal"
                    autoComplete="off"
                    value={discountForEveryRow}
                    onChange={(event) => changeDiscountForEveryRow(event.target.value)}
                  />
                ),
              ])}
            </div>
            {missing.length > 0 && (
              <Alert tone="info">{MEMBER_CSV_MESSAGES.mappingIncomplete}</Alert>
            )}
            {dryRun.isError && <Alert>{dryRun.error.message}</Alert>}
            <div className="dash-confirm">
              <Button
                variant="secondary"
                busy={dryRun.isPending}
                disabled={missing.length > 0}
                onClick={() => settings && dryRun.mutate({ importId: uploaded.importId, settings })}
              >
                Check rows
              </Button>
            </div>
          </section>
        )}

        {review && uploaded && settings && importId === null && (
          <section aria-labelledby={`${fileId}-review`}>
            <h3
              id={`${fileId}-review`}
              ref={reviewHeading}
              tabIndex={-1}
              className="csv-import__step"
            >
              Dry run of {uploaded.rowCount.toLocaleString('en-AU')} rows: nothing is saved yet
            </h3>
            <p role="status">{countsText(review.counts)}.</p>
            <ErasedRowsQuestion
              count={erasedRows}
              confirmed={importErased}
              busy={dryRun.isPending}
              onChange={confirmErased}
            />
            {review.counts.error > 0 && (
              <div className="csv-import__failed">
                <FailedRowsButton importId={uploaded.importId} count={review.counts.error} />
                <span className="g-muted">
                  Each with its reason: fix them there, then import that file.
                </span>
              </div>
            )}
            <label className="csv-import__filter">
              <input
                type="checkbox"
                checked={errorsOnly}
                onChange={(event) => setErrorsOnly(event.target.checked)}
              />{' '}
              Show only rows with errors
            </label>
            <div className="g-table-wrap csv-import__rows">
              <table className="g-table">
                <caption className="g-visually-hidden">What importing each row would do</caption>
                <thead>
                  <tr>
                    <th scope="col">Line · member</th>
                    <th scope="col">Outcome</th>
                  </tr>
                </thead>
                <tbody>
                  {shownRows.slice(0, ROWS_SHOWN).map((row) => (
                    <tr key={row.line} data-testid="csv-row" data-outcome={row.outcome}>
                      <td>
                        <div className="csv-import__line">Line {row.line}</div>
                        <div className="dash-member">{row.memberName || '(no name)'}</div>
                        <div className="dash-member__email">{row.memberEmail}</div>
                      </td>
                      <td>
                        <span
                          className={`g-badge${row.outcome === 'error' ? ' csv-import__error' : row.outcome === 'add' || row.outcome === 'update' ? '' : ' g-badge--muted'}`}
                        >
                          {OUTCOME_LABELS[row.outcome]}
                        </span>
                        {row.messages.map((message) => (
                          <div key={message} className="csv-import__message">
                            {message}
                          </div>
                        ))}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {shownRows.length > ROWS_SHOWN && (
              <p className="g-muted">
                Showing the first {ROWS_SHOWN} of {shownRows.length.toLocaleString('en-AU')} rows.
              </p>
            )}
            {run.isError && <Alert>{run.error.message}</Alert>}
            <div className="dash-confirm">
              <Button variant="secondary" onClick={() => dryRun.reset()}>
                Change columns
              </Button>
              <Button
                busy={run.isPending}
                disabled={goodRows === 0}
                onClick={() =>
                  run.mutate(
                    { importId: uploaded.importId, settings },
                    { onSuccess: (started) => setImportId(started.importId) },
                  )
                }
              >
                {goodRows === 0
                  ? 'Nothing to import'
                  : `Import ${goodRows.toLocaleString('en-AU')} row${goodRows === 1 ? '' : 's'}`}
              </Button>
            </div>
          </section>
        )}

        {importId !== null && (
          <section aria-labelledby={`${fileId}-progress`}>
            <h3 id={`${fileId}-progress`} className="csv-import__step">
              {progress?.state === 'done'
                ? 'Import finished'
                : progress?.state === 'failed'
                  ? 'Import stopped'
                  : 'Importing…'}
            </h3>
            <progress
              className="csv-import__progress"
              aria-label="Import progress"
              max={progress?.totalRows || 1}
              value={progress?.processedRows ?? 0}
            />
            <p className="g-muted">
              {(progress?.processedRows ?? 0).toLocaleString('en-AU')} of{' '}
              {(progress?.totalRows ?? uploaded?.rowCount ?? 0).toLocaleString('en-AU')} rows
            </p>
            {progress?.state === 'done' && progress.counts && (
              <Alert tone="success">Imported: {countsText(progress.counts, true)}.</Alert>
            )}
            {progress?.state === 'done' && progress.counts && progress.counts.error > 0 && (
              <div className="csv-import__failed">
                <FailedRowsButton importId={importId} count={progress.counts.error} />
              </div>
            )}
            {progress?.state === 'failed' && <Alert>{progress.error}</Alert>}
            {status.isError && <Alert>{status.error.message}</Alert>}
            {run.isError && <Alert>{run.error.message}</Alert>}
            <div className="dash-confirm">
              {progress?.state === 'failed' && settings && (
                <Button busy={run.isPending} onClick={() => run.mutate({ importId, settings })}>
                  Try again
                </Button>
              )}
              <Button
                variant={progress?.state === 'done' ? 'primary' : 'secondary'}
                onClick={close}
              >
                Done
              </Button>
            </div>
          </section>
        )}
      </div>
    </Modal>
  );
}
