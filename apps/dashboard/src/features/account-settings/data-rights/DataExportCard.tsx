import { useLocaleFormats } from '@grove/web-data-access';
import { Alert, Button, Card, Spinner } from '@grove/web-ui';
import { exportDownloadUrl, useDataExports, useStartExport } from './api/data-rights';
import './data-rights.css';

/**
 * Account Settings → 'Export your data' (docs/product.md#data-rights; owners only): starts an
 * export of everything (a ZIP of CSV files with a README), shows its progress, and links the
 * finished file until it expires.
 */
export function DataExportCard() {
  const exports = useDataExports();
  const start = useStartExport();
  const latest = exports.data?.exports[0];
  const busy = latest?.state === 'queued' || latest?.state === 'running';
  const formats = useLocaleFormats();
  return (
    <Card className="dash-account__card dash-rights" aria-labelledby="export-title" id="export">
      <h2 className="dash-account__title" id="export-title">
        Export your data
      </h2>
      <p className="dash-account__lead">
        Everything of your business in one ZIP of spreadsheets (CSV): members, branches, prospects,
        price history and settings, with a README that explains each file.
      </p>
      {exports.isPending ? (
        <Spinner label="Loading your exports…" />
      ) : exports.isError ? (
        <Alert>{exports.error.message}</Alert>
      ) : (
        <>
          {latest && busy && (
            <div className="dash-rights__progress">
              <progress value={latest.doneSteps} max={Math.max(1, latest.totalSteps)} />
              <span>
                Preparing your export… {latest.doneSteps} of {latest.totalSteps} files
              </span>
            </div>
          )}
          {latest?.state === 'done' && latest.expiresAt && (
            <p>
              <a className="dash-rights__download" href={exportDownloadUrl(latest.id)} download>
                Download your export (ZIP,{' '}
                {formats.count(Math.max(1, Math.round(latest.sizeBytes / 1024)))} KB)
              </a>{' '}
              <span className="dash-rights__hint">
                Available until {formats.dateTime(latest.expiresAt)}.
              </span>
            </p>
          )}
          {latest?.state === 'failed' && <Alert>{latest.error}</Alert>}
          {start.error && <Alert>{start.error.message}</Alert>}
          <Button onClick={() => start.mutate()} busy={start.isPending} disabled={busy}>
            Export everything
          </Button>
        </>
      )}
    </Card>
  );
}
