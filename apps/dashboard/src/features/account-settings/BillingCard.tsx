import { useLocation } from 'react-router-dom';
import type { Schema } from '@grove/api-contract';
import { BILLING_RETURN_QUERY, GROVE_PLAN, localeFormats } from '@grove/contracts';
import { useLocaleFormats } from '@grove/web-data-access';
import { Alert, Button, Card, Spinner } from '@grove/web-ui';
import { useBilling, useBillingRedirect } from './api/billing';
import './billing.css';

type Summary = Schema<'BillingSummary'>;

/** Money in the bill's own currency (the plan is in US dollars, whatever the business's). */
const money = (cents: number, currency: string) =>
  localeFormats({ locale: 'en-US', currency, timeZone: 'UTC' }).money(cents);

/**
 * Account Settings → Billing (docs/product.md#billing): the free count ('1 of 2 members through
 * Grove'), then 'Add a card' (Stripe Checkout), then the plan, status, next charge, invoices and
 * 'Manage billing' (Stripe's Customer Portal). Back from Checkout (`?billing=done`) it says the
 * payment is being confirmed until Stripe's webhook has arrived. Nothing when GROVE_BILLING=off.
 */
export function BillingCard() {
  const returned = new URLSearchParams(useLocation().search).get(BILLING_RETURN_QUERY) === 'done';
  const billing = useBilling(returned);
  if (billing.data && !billing.data.enabled) return null;
  return (
    <Card className="dash-account__card dash-billing" aria-labelledby="billing-title" id="billing">
      <h2 className="dash-account__title" id="billing-title">
        Billing
      </h2>
      {billing.isPending ? (
        <Spinner label="Loading your plan…" />
      ) : billing.isError ? (
        <Alert>{billing.error.message}</Alert>
      ) : (
        <BillingDetails summary={billing.data} returned={returned} />
      )}
    </Card>
  );
}

function BillingDetails({ summary, returned }: { summary: Summary; returned: boolean }) {
  const formats = useLocaleFormats();
  const checkout = useBillingRedirect('checkout');
  const portal = useBillingRedirect('portal');
  const price = money(summary.priceCents, summary.currency);
  const failure = checkout.error ?? portal.error;
  const count = `${Math.min(summary.membersThroughGrove, summary.freeMembers)} of ${summary.freeMembers} members through Grove`;
  return (
    <div className="dash-billing__body">
      <p className="dash-account__lead">
        Grove's plan: {money(GROVE_PLAN.monthlyPriceCents, GROVE_PLAN.currency)} a month, free until
        your first {summary.freeMembers} members arrive through Grove.
      </p>
      {summary.state === 'free' && (
        <>
          <Meter value={summary.membersThroughGrove} max={summary.freeMembers} label={count} />
          <p>
            Grove is free for now. A member arrives through Grove when a friend who joined with a
            referral link is approved.
          </p>
        </>
      )}
      {summary.state === 'card-needed' && (
        <>
          <Meter value={summary.freeMembers} max={summary.freeMembers} label={count} />
          {returned ? (
            <Alert tone="info">Confirming your payment with Stripe…</Alert>
          ) : summary.paused ? (
            <Alert>
              Grove is paused: approvals, imports and bill changes wait until you add a card.
              Nothing is lost.
            </Alert>
          ) : (
            summary.graceEndsAt && (
              <p>
                Your first {summary.freeMembers} members have arrived. Add a card by{' '}
                <strong>{formats.date(summary.graceEndsAt)}</strong> to keep approvals, imports and
                bill changes running ({price} a month).
              </p>
            )
          )}
          <Button onClick={() => checkout.mutate()} disabled={checkout.isPending}>
            {checkout.isPending ? 'Opening Stripe…' : 'Add a card'}
          </Button>
        </>
      )}
      {(summary.state === 'active' || summary.state === 'past-due') && (
        <>
          {returned && summary.state === 'active' && (
            <Alert tone="success">Thank you: your card is saved and Grove is paid for.</Alert>
          )}
          {summary.state === 'past-due' && (
            <Alert>
              Your last payment failed and Stripe is trying again.
              {summary.graceEndsAt && !summary.paused
                ? ` Update your card by ${formats.date(summary.graceEndsAt)} to keep approvals, imports and bill changes running.`
                : ' Approvals, imports and bill changes are paused until it is paid; nothing is lost.'}
            </Alert>
          )}
          <dl className="dash-billing__facts">
            <dt>Plan</dt>
            <dd>Grove, {price} a month</dd>
            <dt>Status</dt>
            <dd>{summary.state === 'active' ? 'Active' : 'Payment failed'}</dd>
            {summary.nextChargeAt && (
              <>
                <dt>{summary.cancelAtPeriodEnd ? 'Ends on' : 'Next charge'}</dt>
                <dd>
                  {summary.cancelAtPeriodEnd
                    ? formats.date(summary.nextChargeAt)
                    : `${money(summary.nextChargeCents ?? summary.priceCents, summary.currency)} on ${formats.date(summary.nextChargeAt)}`}
                </dd>
              </>
            )}
          </dl>
          <Invoices invoices={summary.invoices} />
        </>
      )}
      {summary.canManage && (
        <Button variant="secondary" onClick={() => portal.mutate()} disabled={portal.isPending}>
          {portal.isPending
            ? 'Opening Stripe…'
            : summary.state === 'past-due'
              ? 'Update your card'
              : 'Manage billing'}
        </Button>
      )}
      {failure && <Alert>{failure.message}</Alert>}
    </div>
  );
}

/** The free members as a bar: how far the business is from paying. */
function Meter({ value, max, label }: { value: number; max: number; label: string }) {
  return (
    <div className="dash-billing__meter">
      <progress value={Math.min(value, max)} max={max} aria-label={label} />
      <span>{label}</span>
    </div>
  );
}

function Invoices({ invoices }: { invoices: Summary['invoices'] }) {
  const formats = useLocaleFormats();
  if (invoices === null) return <p>Your invoices cannot be shown just now.</p>;
  if (invoices.length === 0) return null;
  return (
    <table className="g-table dash-billing__invoices">
      <caption>Invoices</caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Amount</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {invoices.map((invoice) => (
          <tr key={invoice.id}>
            <td>
              {invoice.url ? (
                <a href={invoice.url} target="_blank" rel="noreferrer">
                  {formats.date(invoice.createdAt)}
                </a>
              ) : (
                formats.date(invoice.createdAt)
              )}
            </td>
            <td>{money(invoice.amountCents, invoice.currency)}</td>
            <td>
              {invoice.status === 'paid'
                ? 'Paid'
                : invoice.status === 'open'
                  ? 'Due'
                  : invoice.status}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
