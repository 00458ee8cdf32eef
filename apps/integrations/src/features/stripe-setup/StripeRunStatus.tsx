import { useLocaleFormats } from '@grove/web-data-access';
import { Alert } from '@grove/web-ui';
import type { StripeMembersRun } from './api/stripe-members';

/** What each kind of run is called, and what its progress counts. */
const RUNS = {
  import: { name: 'Import', one: 'active subscription', many: 'active subscriptions' },
  sync: { name: 'Sync', one: 'bill', many: 'bills' },
} as const;

/**
 * The latest Stripe import or sync of `kind` (issue 32: a background job the wizard polls): while
 * it runs, a progress bar (role=progressbar; indeterminate while the total is unknown, as an
 * import's is) and the count so far; when done, what it did; when failed, why and that nothing
 * was lost. Nothing for a run of the other kind, or none.
 */
export function StripeRunStatus({
  run,
  kind,
}: {
  run: StripeMembersRun | null | undefined;
  kind: StripeMembersRun['kind'];
}) {
  const formats = useLocaleFormats();
  if (!run || run.kind !== kind) return null;
  const words = RUNS[kind];
  const count = (n: number) => (n === 1 ? `1 ${words.one}` : `${formats.count(n)} ${words.many}`);
  if (run.state === 'failed')
    return (
      <Alert>
        {words.name} did not finish: {run.error ?? 'something went wrong'}. Nothing was lost: run it
        again.
      </Alert>
    );
  if (run.state === 'done')
    return (
      <Alert tone="success">
        {kind === 'import'
          ? `${count(run.listed ?? run.done)} imported.`
          : `${count(run.billsWritten ?? run.done)} written.`}
      </Alert>
    );
  const percent =
    run.total && run.total > 0 ? Math.min(100, Math.round((run.done / run.total) * 100)) : null;
  const progress =
    run.total === null
      ? `${count(run.done)} so far`
      : `${formats.count(run.done)} of ${count(run.total)}`;
  return (
    <div className="mb-running" role="status" aria-live="polite">
      <p className="mb-running__text">
        {kind === 'import' ? 'Importing your members from Stripe…' : 'Writing bills in Stripe…'}
      </p>
      <div
        className="mb-progress"
        role="progressbar"
        aria-label={`${words.name} progress`}
        aria-valuemin={0}
        aria-valuemax={run.total ?? undefined}
        aria-valuenow={run.total === null ? undefined : run.done}
        aria-valuetext={progress}
      >
        <div
          className={
            percent === null ? 'mb-progress__bar mb-progress__bar--busy' : 'mb-progress__bar'
          }
          style={percent === null ? undefined : { width: `${percent}%` }}
        />
      </div>
      <p className="g-muted mb-progress__count">{progress}</p>
    </div>
  );
}
