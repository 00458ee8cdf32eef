import escapeHtml from 'escape-html';
import { localeFormats, type LocaleFormats } from '@grove/contracts';
import type { StripeCheckoutSession, StripeInvoice, StripeSubscription } from './stripe-objects';

/** The test card the Checkout page is prefilled with (https://docs.stripe.com/testing#cards). */
export const TEST_CARD = '4242 4242 4242 4242';
/** A test card Stripe always declines (card_declined). */
export const DECLINED_CARD = '4000 0000 0000 0002';

/** Formats in a currency (ISO 4217, any case), US English, dates in UTC. */
const formats = (currency: string): LocaleFormats =>
  localeFormats({ locale: 'en-US', currency: currency.toUpperCase(), timeZone: 'UTC' });
const date = (seconds: number, currency: string) =>
  formats(currency).date(new Date(seconds * 1000));

/** One line of the Checkout page: a price, its quantity and recurrence. */
export interface CheckoutLine {
  name: string;
  /** Cents per unit. */
  unitAmount: number;
  quantity: number;
  /** 'month', 'year'… */
  interval: string;
}

/**
 * A whole HTML page: plain server-rendered markup, no script, readable from 320 px wide
 * (one column, system fonts, inputs full width).
 */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:16px;color:#1a1f36;background:#f6f9fc}
main{max-width:480px;margin:0 auto;background:#fff;padding:20px;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin:0 0 12px}.amount{font-size:2rem;font-weight:600;margin:0 0 16px}
label{display:block;margin:12px 0 4px;font-weight:500}input{box-sizing:border-box;width:100%;padding:10px;font:inherit;border:1px solid #aab;border-radius:6px}
button{width:100%;margin-top:16px;padding:12px;font:inherit;font-weight:600;color:#fff;background:#635bff;border:0;border-radius:6px}
button.danger{background:#c0123c}.error{color:#c0123c}table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:4px 0;border-bottom:1px solid #e3e8ee}
.note{font-size:.875rem;color:#596171}
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

/**
 * The hosted Checkout page of an open session (the session's `url`): what is bought, the amount
 * due today (after discounts), email and name fields (email prefilled from `customer_email`), a
 * card field prefilled with {@link TEST_CARD}, and a Pay button that POSTs the form to
 * `payAction`; a cancel link to `cancel_url`. `error` is shown above the form (e.g. a declined card).
 */
export function checkoutPage(
  session: StripeCheckoutSession,
  lines: CheckoutLine[],
  payAction: string,
  error?: string,
): string {
  const money = formats(session.currency).money;
  const rows = lines
    .map(
      (line) =>
        `<tr><td>${escapeHtml(line.name)} × ${line.quantity}</td><td>${escapeHtml(money(line.unitAmount * line.quantity))} / ${escapeHtml(line.interval)}</td></tr>`,
    )
    .join('');
  const email = session.customer_email ?? '';
  return page(
    'Checkout — Stripe sandbox',
    `<h1>Subscribe</h1>
<p class="amount">${escapeHtml(money(session.amount_total))} due today</p>
<table>${rows}</table>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(payAction)}">
${
  session.customer
    ? ''
    : `<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" value="${escapeHtml(email)}" ${email ? 'readonly' : 'required'}>
<label for="name">Name on card</label><input id="name" name="name" autocomplete="cc-name">`
}
<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" value="${TEST_CARD}" required>
<button type="submit">Pay ${escapeHtml(money(session.amount_total))}</button>
</form>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel and go back</a></p>` : ''}
<p class="note">Stripe sandbox: test mode, no real payment. ${escapeHtml(DECLINED_CARD)} is declined.</p>`,
  );
}

/** What the portal shows of one subscription. */
export interface PortalSubscription {
  subscription: StripeSubscription;
  planName: string;
  /** Cents charged at the next renewal (after discounts), null when it will not renew. */
  nextAmount: number | null;
  /** Cents its open (unpaid) invoices owe: a past_due subscription's failed renewal; 0 when none. */
  amountDue: number;
}

/** Where the portal's forms post, and what went wrong with the last card (shown above the form). */
export interface PortalActions {
  /** Cancels a subscription at period end. */
  cancel: string;
  /** Saves a new card and pays what is due with it. */
  updateCard: string;
  error?: string;
}

/**
 * The Customer Portal page (a billing_portal session's `url`): each subscription's plan, status,
 * next charge (amount and date) or end date, a Cancel subscription button (POST to
 * `actions.cancel` with the subscription id; cancels at period end, Stripe's default portal
 * setting), for a subscription that owes (its renewal failed) an Update card form (a card field
 * prefilled with {@link TEST_CARD}, POST to `actions.updateCard`; `actions.error` above it), the
 * invoices (date, amount, status) and a link back to `return_url`.
 */
export function portalPage(
  subscriptions: PortalSubscription[],
  invoices: StripeInvoice[],
  actions: PortalActions,
  returnUrl: string | null,
): string {
  const blocks = subscriptions
    .map(({ subscription, planName, nextAmount, amountDue }) => {
      const currency = subscription.currency;
      const end = subscription.items.data[0]?.current_period_end ?? subscription.created;
      const next =
        subscription.status === 'canceled'
          ? `Ended ${date(subscription.ended_at ?? end, currency)}`
          : subscription.cancel_at_period_end
            ? `Cancels on ${date(end, currency)}`
            : `Next charge ${escapeHtml(formats(currency).money(nextAmount ?? 0))} on ${date(end, currency)}`;
      const cancel =
        subscription.status === 'canceled' || subscription.cancel_at_period_end
          ? ''
          : `<form method="post" action="${escapeHtml(actions.cancel)}"><input type="hidden" name="subscription" value="${escapeHtml(subscription.id)}"><button class="danger" type="submit">Cancel subscription</button></form>`;
      const due = escapeHtml(formats(currency).money(amountDue));
      const updateCard =
        amountDue > 0 && subscription.status !== 'canceled'
          ? `<h3>Payment method</h3><p class="error">Your last payment of ${due} failed.</p>
${actions.error ? `<p class="error" role="alert">${escapeHtml(actions.error)}</p>` : ''}<form method="post" action="${escapeHtml(actions.updateCard)}"><input type="hidden" name="subscription" value="${escapeHtml(subscription.id)}"><label for="card-${escapeHtml(subscription.id)}">Card number</label><input id="card-${escapeHtml(subscription.id)}" name="card" inputmode="numeric" autocomplete="cc-number" value="${TEST_CARD}" required><button type="submit">Update card and pay ${due}</button></form>`
          : '';
      return `<section><h2>${escapeHtml(planName)}</h2><p>Status: <strong>${escapeHtml(subscription.status)}</strong></p><p>${next}</p>${updateCard}${cancel}</section>`;
    })
    .join('');
  const rows = invoices
    .map(
      (invoice) =>
        `<tr><td>${date(invoice.created, invoice.currency)}</td><td>${escapeHtml(formats(invoice.currency).money(invoice.total))}</td><td>${escapeHtml(invoice.status)}</td></tr>`,
    )
    .join('');
  return page(
    'Billing — Stripe sandbox',
    `<h1>Your subscription</h1>
${blocks || '<p>No subscriptions.</p>'}
<h2>Invoices</h2>
${rows ? `<table><tr><th>Date</th><th>Amount</th><th>Status</th></tr>${rows}</table>` : '<p>No invoices yet.</p>'}
${returnUrl ? `<p><a href="${escapeHtml(returnUrl)}">Return</a></p>` : ''}`,
  );
}
