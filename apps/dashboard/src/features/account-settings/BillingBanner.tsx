import { Link } from 'react-router-dom';
import { hrefs } from '@grove/contracts';
import { useLocaleFormats, useRoleMay } from '@grove/web-data-access';
import { Alert } from '@grove/web-ui';
import { useBilling } from './api/billing';
import './billing.css';

/**
 * The banner above every dashboard page while the business owes Grove (docs/product.md#billing):
 * a failed payment, the free members used up without a card, or Grove paused; each links to
 * Account Settings → Billing. Nothing otherwise, while loading, or with GROVE_BILLING=off.
 */
export function BillingBanner() {
  // Grove's bill is the owners' (docs/product.md#staff-accounts): nobody else asks for it.
  const billing = useBilling(false, useRoleMay('billing'));
  const formats = useLocaleFormats();
  const summary = billing.data;
  if (!summary?.enabled || (summary.state !== 'past-due' && summary.state !== 'card-needed'))
    return null;
  const by = summary.graceEndsAt ? formats.date(summary.graceEndsAt) : null;
  const text = summary.paused
    ? 'Grove is paused until your subscription is paid: approvals, imports and bill changes wait, and nothing is lost.'
    : summary.state === 'past-due'
      ? `Your last Grove payment failed. Update your card by ${by} to keep approvals, imports and bill changes running.`
      : `Your first ${summary.freeMembers} members have arrived through Grove. Add a card by ${by} to keep approvals, imports and bill changes running.`;
  return (
    <div className="dash-billing-banner">
      <Alert tone={summary.paused || summary.state === 'past-due' ? 'error' : 'info'}>
        {text}{' '}
        <Link to={hrefs.billing}>
          {summary.state === 'past-due' ? 'Update your card' : 'Add a card'}
        </Link>
      </Alert>
    </div>
  );
}
