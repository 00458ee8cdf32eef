import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card } from '@grove/web-ui';
import { referralLinksKey } from '../../components/query-keys/query-keys';
import { useLinkSettings, useLinksForAll } from './api/referral-links';
import { RunProgress } from './RunProgress';

/**
 * Links for everyone (issue 14 part 4) on Referral Links: 'Create links for all members without
 * one' (one request; the run goes on in the background with a progress bar, and a second click
 * creates nothing), and the setting that gives every new member a link at once.
 */
export function LinksForEveryone() {
  const client = useQueryClient();
  const { run, start } = useLinksForAll();
  const { settings, update } = useLinkSettings();
  const state = run.data;
  const running = state?.status === 'running';
  const wasRunning = useRef(false);
  // The owner's choice shows at once (the mutation's own state arrives a tick later, which would
  // briefly undo the tick); it gives way to the saved setting once the request is settled.
  const [chosen, setChosen] = useState<boolean | null>(null);

  // When a run ends, reload the table to show its links.
  useEffect(() => {
    if (wasRunning.current && !running)
      void client.invalidateQueries({ queryKey: referralLinksKey });
    wasRunning.current = running;
  }, [running, client]);

  const failure = start.error ?? update.error;

  return (
    <Card className="dash-links-all" aria-labelledby="links-all-title">
      <h2 id="links-all-title" className="dash-links-all__title">
        Links for everyone
      </h2>
      {failure && <Alert>{failure.message}</Alert>}
      <div className="dash-links-all__row">
        <Button
          busy={start.isPending || running}
          disabled={running || state?.withoutLink === 0}
          onClick={() => start.mutate()}
        >
          Create links for all members without one
        </Button>
        <span className="g-muted" aria-live="polite">
          {state === undefined
            ? ''
            : running
              ? `Creating links… ${state.processed.toLocaleString()} of ${state.total.toLocaleString()}`
              : state.withoutLink === 0
                ? 'Every member has a referral link.'
                : `${state.withoutLink.toLocaleString()} member${state.withoutLink === 1 ? '' : 's'} without a link.`}
          {state?.status === 'done' && !running && state.total > 0
            ? ` Last run created ${state.created.toLocaleString()} link${state.created === 1 ? '' : 's'}.`
            : ''}
          {state?.status === 'failed'
            ? ' The last run stopped early; click again to finish it.'
            : ''}
        </span>
      </div>
      <RunProgress run={state} label="Creating referral links" />
      <label className="dash-links-all__toggle">
        <input
          type="checkbox"
          checked={chosen ?? settings.data?.autoCreate ?? false}
          disabled={settings.isPending}
          onChange={(event) => {
            setChosen(event.target.checked);
            update.mutate(
              { autoCreate: event.target.checked },
              { onSettled: () => setChosen(null) },
            );
          }}
        />
        Create a referral link automatically for every new member (added, approved or imported)
      </label>
    </Card>
  );
}
