import { useState } from 'react';
import { useLocaleFormats } from '@grove/web-data-access';
import type { Schema } from '@grove/api-contract';
import { Alert, Button, Spinner } from '@grove/web-ui';
import { useStripeCreditsPreview, useWriteStripeCredits } from './api/stripe-credits';

type StripeCredits = Schema<'StripeCredits'>;

/**
 * Referrers' one-off credits on their Stripe balance (issue 33 item 2, docs/stripe.md#member-billing):
 * reviewed first (who, for which friend, how much, the total), then written exactly as reviewed,
 * one credit per friend, never twice.
 */
export function CreditsPanel() {
  const [open, setOpen] = useState(false);
  const preview = useStripeCreditsPreview(open);
  const write = useWriteStripeCredits();
  let body;
  if (!open)
    body = (
      <Button
        variant="secondary"
        onClick={() => {
          write.reset();
          setOpen(true);
        }}
      >
        Review referral credits
      </Button>
    );
  else if (preview.isPending) body = <Spinner label="Reading the credits owed…" />;
  else if (preview.isError) body = <Alert>{preview.error.message}</Alert>;
  else body = <CreditsReview credits={preview.data} write={write} />;
  return (
    <div>
      <h2 className="mb-card__title">Referral credits</h2>
      <p className="g-muted">
        When your reward is a one-off credit, each friend who counts owes their referrer one. Review
        them, then Grove writes each to the member&apos;s Stripe balance once.
      </p>
      {body}
    </div>
  );
}

/** The credits a confirmation writes, their total, and 'Confirm and write'. */
function CreditsReview({
  credits,
  write,
}: {
  credits: StripeCredits;
  write: ReturnType<typeof useWriteStripeCredits>;
}) {
  const formats = useLocaleFormats();
  return (
    <div>
      {write.isError && <Alert>{write.error.message}</Alert>}
      {write.isSuccess && (
        <Alert tone="success">
          {write.data.credited === 1 ? '1 credit' : `${formats.count(write.data.credited)} credits`}{' '}
          written to Stripe.
        </Alert>
      )}
      {credits.items.length === 0 ? (
        <p>No referral credits to write: every credit owed is in Stripe or honoured.</p>
      ) : (
        <>
          <p>
            These credits go on your members&apos; Stripe balance (Stripe takes them off their next
            invoices), {formats.money(credits.totalCents)} in all:
          </p>
          <ul className="mb-stripe-credits" aria-label="Credits to write">
            {credits.items.map((credit) => (
              <li key={credit.rewardId}>
                <span>
                  {credit.referrerName}, for {credit.branchName}
                </span>{' '}
                <strong>{formats.money(credit.amountCents)}</strong>
              </li>
            ))}
          </ul>
          <Button busy={write.isPending} onClick={() => write.mutate(credits.fingerprint)}>
            Confirm and write{' '}
            {credits.items.length === 1 ? '1 credit' : `${credits.items.length} credits`}
          </Button>
        </>
      )}
    </div>
  );
}
