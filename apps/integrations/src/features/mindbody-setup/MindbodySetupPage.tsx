import { useState } from 'react';
import type { MindbodyStatus } from '@grove/contracts';
import { ApiError } from '@grove/web-data-access';
import {
  useImportMindbody,
  useMindbodyStatus,
  useRemovalPreview,
  useRemoveMindbody,
  useSyncMindbody,
  useSyncPreview,
} from './api/mindbody';
import { BillChangesList, billsWrittenText, countText, monthlyText } from './BillChanges';
import { Alert, Button, Card, Modal, PageHeader, Spinner } from '@grove/web-ui';
import { CredentialsForm } from './CredentialsForm';
import { DiscountsForm } from './DiscountsForm';
import { ReferralTypeCard } from './ReferralTypeCard';
import { FailedNotice, InvalidEmailsNote, RunningProgress } from './ProcessStatus';
import { formatWhen, processView } from './process-state';

const STEPS: { stage: MindbodyStatus['stage']; label: string }[] = [
  { stage: 1, label: 'Connect' },
  { stage: 2, label: 'Import members' },
  { stage: 3, label: 'Discounts' },
  { stage: 4, label: 'Sync' },
];

/**
 * Where the owner is in docs/product.md#mindbody-stages's stage table; a step shows a tick only
 * when it is done (issue 25): the stages before the current one, and 'Sync' once a sync has
 * completed (the 'Last sync' the page shows).
 */
function Steps({ status }: { status: Pick<MindbodyStatus, 'stage' | 'lastSyncAt'> }) {
  const { stage } = status;
  return (
    <ol className="mb-steps" aria-label="Setup steps">
      {STEPS.map((step) => {
        const done = step.stage < stage || (step.stage === 4 && status.lastSyncAt !== null);
        return (
          <li
            key={step.stage}
            className={[
              'mb-step',
              done ? 'mb-step--done' : '',
              step.stage === stage ? 'mb-step--current' : '',
            ].join(' ')}
            aria-current={step.stage === stage ? 'step' : undefined}
          >
            <span className="mb-step__dot" aria-hidden="true">
              {done ? '✓' : step.stage}
            </span>
            <span className="mb-step__label">
              {step.label}
              {done && <span className="g-visually-hidden"> (done)</span>}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** Stage 2 (docs/product.md#screens, docs/product.md#mindbody-stages): 'Import members', then progress while it runs, or the failure and a way to run it again. */
function ImportStep({ status }: { status: MindbodyStatus }) {
  const start = useImportMindbody();
  const view = processView(status);
  return (
    <Card className="mb-card">
      <h2 className="mb-card__title">Import your members</h2>
      <p className="g-muted mb-lead">
        Grove reads every client from Mindbody. Members arrive as trees managed by Mindbody, the
        friends they referred as their branches, and referred prospects wait on the Prospective
        Members screen.
      </p>
      {start.isError && <Alert>{start.error.message}</Alert>}
      {view.kind === 'running' ? (
        <RunningProgress view={view} what="Import" />
      ) : (
        <>
          {view.kind === 'failed' && <FailedNotice view={view} what="The import" />}
          <Button busy={start.isPending} onClick={() => start.mutate()}>
            {view.kind === 'failed' ? 'Run the import again' : 'Import members'}
          </Button>
        </>
      )}
    </Card>
  );
}

/**
 * Issue 25: the bills a sync will change (old → new, by name), with the count and the monthly
 * difference; 'Confirm and sync' starts it with the preview's fingerprint. When the bills changed
 * meanwhile (409) the preview loads again and says so.
 */
function SyncReview({ open, onClose }: { open: boolean; onClose: () => void }) {
  const preview = useSyncPreview(open);
  const sync = useSyncMindbody();
  const close = () => {
    sync.reset();
    onClose();
  };
  const confirm = (fingerprint: string) =>
    sync.mutate(
      { confirm: fingerprint },
      {
        onSuccess: close,
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) void preview.refetch();
        },
      },
    );
  const changes = preview.data;
  return (
    <Modal open={open} title="Review the bills this sync changes" onClose={close}>
      {preview.isPending && <Spinner label="Working out which bills change…" />}
      {preview.isError && <Alert>{preview.error.message}</Alert>}
      {changes && (
        <>
          {changes.total === 0 ? (
            <p>With what Grove knows now, this sync changes no member’s bill in Mindbody.</p>
          ) : (
            <>
              <p>
                This sync will change{' '}
                <strong>{countText(changes.total, 'member’s bill', 'members’ bills')}</strong> in
                Mindbody: {monthlyText(changes.monthlyDifferenceCents)}.
              </p>
              <BillChangesList changes={changes} label="Bills this sync changes" />
            </>
          )}
          {changes.unreadContracts > 0 && (
            <p className="g-muted">
              Grove first reads the Mindbody contracts of{' '}
              {countText(changes.unreadContracts, 'member', 'members')} it has not priced yet; their
              bills may change too.
            </p>
          )}
          {changes.waitingFriends > 0 && (
            <p className="g-muted">
              {countText(changes.waitingFriends, 'friend', 'friends')} approved through Grove{' '}
              {changes.waitingFriends === 1 ? 'waits' : 'wait'} for a Mindbody client: once the
              front desk has created it, this sync counts them and lowers their referrer’s bill and
              theirs too.
            </p>
          )}
          <p className="g-muted">
            The sync also brings in clients changed in Mindbody since the last one. Afterwards this
            page says how many bills it wrote.
          </p>
        </>
      )}
      {sync.isError && <Alert>{sync.error.message}</Alert>}
      <div className="mb-confirm">
        <Button variant="secondary" onClick={close}>
          Cancel
        </Button>
        <Button
          busy={sync.isPending}
          disabled={!changes || preview.isFetching}
          onClick={() => changes && confirm(changes.fingerprint)}
        >
          Confirm and sync
        </Button>
      </div>
    </Modal>
  );
}

/**
 * Issue 31: bill changes a sync Mindbody's webhooks started holds for the owner ('3 bills would
 * change'); 'Review' opens the same review as 'Sync with mindbody', whose 'Confirm and sync'
 * writes them. Nothing reaches Mindbody before.
 */
function PendingBills({
  pending,
  onReview,
}: {
  pending: NonNullable<MindbodyStatus['pendingBills']>;
  onReview: () => void;
}) {
  return (
    <Alert tone="info">
      <strong>{countText(pending.count, 'bill', 'bills')} would change.</strong> Mindbody sent
      changes on {formatWhen(pending.since)}; Grove changes no bill in Mindbody until you review and
      confirm.{' '}
      <Button variant="secondary" onClick={onReview}>
        Review
      </Button>
    </Alert>
  );
}

/**
 * Stage 4 (docs/product.md#screens): 'Sync with mindbody' (after reviewing the bills it changes,
 * issue 25), the last sync time and how many bills it wrote, progress and failures; bill changes
 * held for the owner's review (issue 31).
 */
function SyncStep({ status }: { status: MindbodyStatus }) {
  const [reviewing, setReviewing] = useState(false);
  const view = processView(status);
  const written = status.lastSyncBillsWritten;
  return (
    <Card className="mb-card">
      <h2 className="mb-card__title">Sync with Mindbody</h2>
      <p className="g-muted mb-lead">
        Brings in clients changed in Mindbody and updates each member&apos;s autopay so their bill
        reflects their referrals. Mindbody also tells Grove about changes as they happen.
      </p>
      <p className="mb-last-sync">
        Last sync: <strong>{status.lastSyncAt ? formatWhen(status.lastSyncAt) : 'not yet'}</strong>
      </p>
      {status.mindbodyCalls && <CallCounts calls={status.mindbodyCalls} />}
      {status.webhooksDown && (
        <Alert>
          Mindbody stopped sending changes to Grove on {formatWhen(status.webhooksDown.since)} (
          {status.webhooksDown.status}). Grove tries to turn them back on every hour; until then,
          ‘Sync with mindbody’ brings changes in.
        </Alert>
      )}
      {view.kind === 'running' ? (
        <RunningProgress view={view} what="Sync" />
      ) : (
        <>
          {view.kind === 'failed' && <FailedNotice view={view} what="The last sync" />}
          {view.kind === 'failed' && written !== undefined && written > 0 && (
            <Alert tone="info">{billsWrittenText(written)} before it stopped.</Alert>
          )}
          {view.kind === 'completed' && written !== undefined && status.lastSyncAt && (
            <Alert tone="success">Last sync: {billsWrittenText(written)}.</Alert>
          )}
          {view.kind === 'completed' && <InvalidEmailsNote count={status.invalidEmails} />}
          {status.pendingBills && (
            <PendingBills pending={status.pendingBills} onReview={() => setReviewing(true)} />
          )}
          <Button onClick={() => setReviewing(true)}>Sync with mindbody</Button>
        </>
      )}
      <SyncReview open={reviewing} onClose={() => setReviewing(false)} />
    </Card>
  );
}

/**
 * How many Mindbody API calls Grove made (Mindbody bills them past a free tier, issue 22): in the
 * last import or sync, and this month.
 */
function CallCounts({ calls }: { calls: NonNullable<MindbodyStatus['mindbodyCalls']> }) {
  const count = (n: number) =>
    `${n.toLocaleString('en-AU')} Mindbody ${n === 1 ? 'call' : 'calls'}`;
  return (
    <p className="g-muted mb-calls">
      {calls.lastRun !== null && <>Last run: {count(calls.lastRun)} · </>}This month:{' '}
      {count(calls.thisMonth)}
    </p>
  );
}

/**
 * What 'Remove integration' did to the Mindbody autopays Grove had overridden (issue 22): how many
 * it put back to each member's own amount, and whom it could not (to fix in Mindbody).
 */
function RemovalReport({ removal }: { removal: NonNullable<MindbodyStatus['removal']> }) {
  const { autopaysRestored: restored, autopaysNotRestored: missed } = removal;
  return (
    <>
      <Alert tone="success">
        Mindbody integration removed.{' '}
        {restored === 1
          ? '1 autopay is back at its own amount in Mindbody.'
          : `${restored.toLocaleString('en-AU')} autopays are back at their own amounts in Mindbody.`}
      </Alert>
      {missed.length > 0 && (
        <Alert>
          Grove could not put back the autopay of {missed.join(', ')}: change{' '}
          {missed.length === 1 ? 'it' : 'them'} in Mindbody.
        </Alert>
      )}
    </>
  );
}

/**
 * What removing does to bills (issue 25): the members whose Mindbody autopay Grove lowered get
 * their own amount back, listed by name with the amounts.
 */
function RemovalBills({ open }: { open: boolean }) {
  const preview = useRemovalPreview(open);
  if (preview.isPending) return <Spinner label="Checking which bills Grove changed…" />;
  if (preview.isError) return <Alert>{preview.error.message}</Alert>;
  const changes = preview.data;
  if (changes.total === 0)
    return <p>Grove has not changed any member’s bill in Mindbody, so no bill changes.</p>;
  return (
    <>
      <p>
        Grove will put{' '}
        <strong>{countText(changes.total, 'member’s bill', 'members’ bills')}</strong> in Mindbody
        back to {changes.total === 1 ? 'its' : 'their'} own amount:{' '}
        {monthlyText(changes.monthlyDifferenceCents)}. Their referral discounts stop.
      </p>
      <BillChangesList changes={changes} label="Bills that get their own amount back" />
    </>
  );
}

/** 'Remove integration' (docs/product.md#states, any stage above 1), after a confirmation that says what happens to bills. */
function RemoveIntegration() {
  const remove = useRemoveMindbody();
  const [open, setOpen] = useState(false);
  const close = () => {
    remove.reset();
    setOpen(false);
  };
  return (
    <Card className="mb-card mb-card--quiet">
      <div className="mb-remove">
        <div>
          <h2 className="mb-card__title">Remove integration</h2>
          <p className="g-muted mb-remove__text">
            Disconnects Mindbody and clears the saved login and discounts. Your imported members
            stay in Grove as ordinary trees.
          </p>
        </div>
        <Button variant="danger" onClick={() => setOpen(true)}>
          Remove integration
        </Button>
      </div>
      <Modal open={open} title="Remove the Mindbody integration?" onClose={close}>
        <RemovalBills open={open} />
        <p>
          Grove will also stop syncing with Mindbody and forget the login and discounts. Members you
          imported stay on the Branches screen, and you can manage them by hand from now on.
        </p>
        {remove.isError && <Alert>{remove.error.message}</Alert>}
        <div className="mb-confirm">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            variant="danger"
            busy={remove.isPending}
            onClick={() => remove.mutate(undefined, { onSuccess: close })}
          >
            Remove integration
          </Button>
        </div>
      </Modal>
    </Card>
  );
}

/**
 * Mindbody setup (docs/product.md#mindbody-setup Mindbody setup, docs/product.md#mindbody-stages stage table and process state): stage 1 credentials,
 * stage 2 'Import members' with progress, stage 3 discounts, stage 4 discounts and 'Sync with
 * mindbody'; 'Remove integration' above stage 1. While a process runs the status is polled every
 * 10 s; when it ends the members and prospects reload (`useMindbodyStatus`).
 */
export function MindbodySetupPage() {
  const status = useMindbodyStatus();

  const header = (
    <PageHeader
      title="Mindbody Setup"
      description="Connect your Mindbody account to import members and keep referral discounts on their real bills."
    />
  );
  if (status.isPending) {
    return (
      <>
        {header}
        <Card>
          <Spinner label="Loading your Mindbody setup…" />
        </Card>
      </>
    );
  }
  if (status.isError) {
    return (
      <>
        {header}
        <Card>
          <Alert>{status.error.message}</Alert>
          <Button variant="secondary" onClick={() => void status.refetch()}>
            Try again
          </Button>
        </Card>
      </>
    );
  }
  const current = status.data;
  const view = processView(current);
  return (
    <>
      {header}
      <Steps status={current} />
      <div className="mb-stack">
        {current.stage === 1 && current.removal && <RemovalReport removal={current.removal} />}
        {current.stage === 1 && (
          <Card className="mb-card">
            <h2 className="mb-card__title">Connect your Mindbody account</h2>
            <CredentialsForm />
          </Card>
        )}
        {current.stage === 2 && <ImportStep status={current} />}
        {current.stage >= 3 && (
          <Card className="mb-card">
            <h2 className="mb-card__title">
              {current.stage === 3 ? 'Set your referral discounts' : 'Referral discounts'}
            </h2>
            {current.stage === 3 && view.kind === 'completed' && (
              <Alert tone="success">
                Members imported
                {current.progress
                  ? `: ${current.progress.done.toLocaleString('en-AU')} clients read`
                  : ''}
                .
              </Alert>
            )}
            {current.stage === 3 && view.kind === 'completed' && (
              <InvalidEmailsNote count={current.invalidEmails} />
            )}
            <DiscountsForm status={current} />
          </Card>
        )}
        {current.stage === 4 && <SyncStep status={current} />}
        {current.stage >= 3 && <ReferralTypeCard />}
        {current.stage > 1 && (
          <p className="g-muted mb-site">
            Connected to Mindbody site <strong>{current.siteId}</strong>
          </p>
        )}
        {current.stage > 1 && <RemoveIntegration />}
      </div>
    </>
  );
}
