import { MESSAGES, mindbodyInvalidEmailsNote } from '@grove/contracts';
import { Alert } from '@grove/web-ui';
import { formatWhen, type ProcessView } from './process-state';

/**
 * A running import or sync (docs/product.md#mindbody-stages): 'Still working on it, thanks for your patience' and a
 * progress bar of clients processed (role=progressbar with its values; indeterminate until the
 * total is known).
 */
export function RunningProgress({
  view,
  what,
}: {
  view: Extract<ProcessView, { kind: 'running' }>;
  what: string;
}) {
  const percent = view.total ? Math.min(100, Math.round((view.done / view.total) * 100)) : null;
  return (
    <div className="mb-running" role="status" aria-live="polite">
      <p className="mb-running__text">{MESSAGES.mindbodyStillWorking}</p>
      <div
        className="mb-progress"
        role="progressbar"
        aria-label={`${what} progress`}
        aria-valuemin={0}
        aria-valuemax={view.total ?? undefined}
        aria-valuenow={view.total ? view.done : undefined}
        aria-valuetext={view.total ? `${view.done} of ${view.total} clients` : 'Starting'}
      >
        <div
          className={
            percent === null ? 'mb-progress__bar mb-progress__bar--busy' : 'mb-progress__bar'
          }
          style={percent === null ? undefined : { width: `${percent}%` }}
        />
      </div>
      <p className="g-muted mb-progress__count">
        {view.total
          ? `${view.done.toLocaleString('en-AU')} of ${view.total.toLocaleString('en-AU')} clients`
          : 'Starting…'}
      </p>
    </div>
  );
}

/**
 * A failed import or sync (docs/product.md#mindbody-stages): 'Failed at:' and the time from the state's second word, with
 * a suggestion to contact support; the caller offers a way to run it again.
 */
export function FailedNotice({
  view,
  what,
}: {
  view: Extract<ProcessView, { kind: 'failed' }>;
  what: string;
}) {
  return (
    <Alert>
      <strong>
        {what} did not finish. {MESSAGES.mindbodyFailedAt}{' '}
        {view.at ? formatWhen(view.at) : 'unknown time'}
      </strong>
      <br />
      Nothing was lost: run it again below. If it keeps failing, please contact support with the
      Contact Support button.
    </Alert>
  );
}

/**
 * The finished run's count of clients whose Mindbody email Grove cannot send to (issue 24 part 3:
 * stored with no email, shown as 'No email'); nothing when there were none.
 */
export function InvalidEmailsNote({ count }: { count: number | null }) {
  if (!count) return null;
  return <Alert tone="info">{mindbodyInvalidEmailsNote(count)}</Alert>;
}
