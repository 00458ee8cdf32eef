import type { IncomingMessage } from 'node:http';
import type { BillingFlows } from './billing-flows';
import { cardOutcome } from './card-number';
import { parseForm, readBody } from './form-body';
import { checkoutPage, portalPage, type CheckoutLine } from './hosted-pages';
import { StripeRequestError } from './stripe-error';
import type { StripeCheckoutSession, StripeInvoice, StripeSubscription } from './stripe-objects';
import type { PageUrls, StripeStore } from './stripe-store';
import type { Reply } from './stripe-sandbox';

/** Largest page form body, bytes. */
const MAX_FORM_BODY = 16 * 1024;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

const html = (status: number, body: string): Reply => ({ status, body });
const notFound = () =>
  html(404, '<!doctype html><title>Not found</title><p>This page does not exist.</p>');
const redirect = (location: string): Reply => ({ status: 303, headers: { Location: location } });

/**
 * The hosted pages: Checkout (`GET /c/pay/{cs_…}`, `POST` pays) and the Customer Portal
 * (`GET /p/session/{bps_…}`, `POST …/cancel` cancels a subscription at period end,
 * `POST …/payment_method` saves a new card and pays what the subscription owes with it). Forms
 * are form-encoded (FORM_LIMITS, 16 KB); an unknown session is a 404 page, a bad form a 400 page.
 */
export class HostedPageRoutes {
  constructor(
    private readonly store: StripeStore,
    private readonly billing: BillingFlows,
  ) {}

  /** Serves a page path. */
  async serve(request: IncomingMessage, path: string, urls: PageUrls): Promise<Reply> {
    const method = request.method ?? 'GET';
    const checkout = /^\/c\/pay\/(cs_test_[A-Za-z0-9]{1,64})$/.exec(path);
    const portal = /^\/p\/session\/(bps_[A-Za-z0-9]{1,64})(\/cancel|\/payment_method)?$/.exec(path);
    const found =
      (checkout?.[1] ?? portal?.[1]) && this.store.find((checkout?.[1] ?? portal?.[1]) as string);
    if (!found) return notFound();
    if (checkout && method === 'GET')
      return this.showCheckout(found as StripeCheckoutSession, path);
    if (checkout && method === 'POST')
      return this.pay(found as StripeCheckoutSession, path, await form(request));
    if (portal && method === 'GET' && !portal[2]) return this.showPortal(portal[1], path);
    if (portal && method === 'POST' && portal[2] === '/cancel')
      return this.cancel(portal[1], await form(request), urls);
    if (portal && method === 'POST' && portal[2] === '/payment_method')
      return this.updateCard(portal[1], await form(request), urls);
    return html(405, '<!doctype html><title>Method not allowed</title><p>Method not allowed.</p>');
  }

  private lines(session: StripeCheckoutSession): CheckoutLine[] {
    return this.store.purchase(session.id).items.map(({ price: priceId, quantity }) => {
      const price = this.store.get('price', priceId);
      const product = this.store.get('product', price.product);
      return {
        name: price.nickname ?? product.name,
        unitAmount: price.unit_amount ?? 0,
        quantity,
        interval: price.recurring?.interval ?? 'once',
      };
    });
  }

  private showCheckout(
    session: StripeCheckoutSession,
    path: string,
    error?: string,
    status = 200,
  ): Reply {
    if (session.status !== 'open')
      return html(
        410,
        `<!doctype html><title>Checkout</title><p>This Checkout Session is ${session.status}.</p>`,
      );
    return html(status, checkoutPage(session, this.lines(session), path, error));
  }

  /**
   * Pays: the card decides (cardOutcome: a decline or a bad number re-shows the page with the
   * error, 402/400); an email is required when the session has no customer; on success 303 to
   * `success_url` with `{CHECKOUT_SESSION_ID}` replaced (https://docs.stripe.com/payments/checkout/custom-success-page).
   */
  private pay(session: StripeCheckoutSession, path: string, fields: Record<string, string>): Reply {
    if (session.status !== 'open') return this.showCheckout(session, path);
    const email = session.customer_email ?? fields.email?.trim();
    if (!session.customer && (!email || !EMAIL.test(email)))
      return this.showCheckout(session, path, 'Enter a valid email address.', 400);
    const outcome = cardOutcome(fields.card ?? '');
    if (outcome === 'invalid')
      return this.showCheckout(session, path, 'Your card number is invalid.', 400);
    if (outcome === 'declined')
      return this.showCheckout(session, path, 'Your card was declined.', 402);
    const name = fields.name?.trim().slice(0, 256);
    const paid = this.billing.completeCheckout(session.id, { email, ...(name ? { name } : {}) });
    return redirect((paid.success_url ?? '/').replaceAll('{CHECKOUT_SESSION_ID}', paid.id));
  }

  private showPortal(sessionId: string, path: string, error?: string, status = 200): Reply {
    const session = this.store.get('billing_portal.session', sessionId);
    const subscriptions = this.store.all(
      'subscription',
      (subscription) => subscription.customer === session.customer,
    );
    const invoices = this.store.all('invoice', (invoice) => invoice.customer === session.customer);
    return html(
      status,
      portalPage(
        subscriptions.map((subscription) => ({
          subscription,
          planName: this.planName(subscription),
          nextAmount: this.nextAmount(subscription),
          amountDue: this.openInvoices(subscription.id).reduce(
            (sum, invoice) => sum + invoice.amount_remaining,
            0,
          ),
        })),
        invoices,
        { cancel: `${path}/cancel`, updateCard: `${path}/payment_method`, error },
        session.return_url,
      ),
    );
  }

  /**
   * Saves a new card for the subscription (the portal's payment method update) and pays its open
   * invoices with it at once, as Stripe retries a past_due subscription's open invoice when its
   * customer updates the card in the portal (docs/stripe.md#assumptions): each paid invoice
   * emits invoice.paid and the subscription becomes active (customer.subscription.updated). A
   * declined or invalid card re-shows the portal with the error (402/400) and pays nothing; a
   * subscription of another customer is a 404 page. Then 303 back to the portal.
   */
  private updateCard(sessionId: string, fields: Record<string, string>, urls: PageUrls): Reply {
    const session = this.store.get('billing_portal.session', sessionId);
    const subscription = fields.subscription ? this.store.find(fields.subscription) : undefined;
    if ((subscription as StripeSubscription | undefined)?.customer !== session.customer)
      return notFound();
    const path = new URL(urls.portal(session.id)).pathname;
    const outcome = cardOutcome(fields.card ?? '');
    if (outcome === 'invalid')
      return this.showPortal(session.id, path, 'Your card number is invalid.', 400);
    if (outcome === 'declined')
      return this.showPortal(session.id, path, 'Your card was declined.', 402);
    for (const invoice of this.openInvoices((subscription as StripeSubscription).id))
      this.billing.payInvoice(invoice.id);
    return redirect(urls.portal(session.id));
  }

  /** The subscription's open invoices, oldest first. */
  private openInvoices(subscriptionId: string): StripeInvoice[] {
    return this.store
      .all(
        'invoice',
        (invoice) => invoice.subscription === subscriptionId && invoice.status === 'open',
      )
      .sort((a, b) => a.created - b.created);
  }

  /** Cancels the customer's subscription at period end (customer.subscription.updated), back to the portal. */
  private cancel(sessionId: string, fields: Record<string, string>, urls: PageUrls): Reply {
    const session = this.store.get('billing_portal.session', sessionId);
    const subscription = fields.subscription ? this.store.find(fields.subscription) : undefined;
    if ((subscription as StripeSubscription | undefined)?.customer !== session.customer)
      return notFound();
    this.billing.updateSubscription((subscription as StripeSubscription).id, {
      cancel_at_period_end: true,
    });
    return redirect(urls.portal(session.id));
  }

  private planName(subscription: StripeSubscription): string {
    const price = subscription.items.data[0]?.price;
    if (!price) return 'Subscription';
    return price.nickname ?? this.store.get('product', price.product).name;
  }

  private nextAmount(subscription: StripeSubscription): number | null {
    if (subscription.status === 'canceled' || subscription.cancel_at_period_end) return null;
    return this.billing.amounts(subscription, this.billing.periodOf(subscription).end).total;
  }
}

/** A page form's single-valued text fields. @throws StripeRequestError 400/413 for a bad body */
async function form(request: IncomingMessage): Promise<Record<string, string>> {
  const fields = parseForm(await readBody(request, MAX_FORM_BODY));
  const text: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value !== 'string')
      throw new StripeRequestError(400, {
        type: 'invalid_request_error',
        message: `Invalid form field ${key}`,
      });
    text[key] = value;
  }
  return text;
}
