import type { RunState } from './api/background-run';

/**
 * The progress bar of a running background run (processed of total, in percent); nothing when
 * the run is not running.
 */
export function RunProgress({ run, label }: { run: RunState | undefined; label: string }) {
  if (run?.status !== 'running') return null;
  const percent = run.total > 0 ? Math.round((run.processed / run.total) * 100) : 0;
  return (
    <progress className="dash-links-all__progress" max={100} value={percent} aria-label={label}>
      {percent}%
    </progress>
  );
}
