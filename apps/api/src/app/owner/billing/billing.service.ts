import { Injectable, Logger } from '@nestjs/common';
import { BILLING_RETURN_QUERY, currencyForCountry, GROVE_PLAN, hrefs } from '@grove/contracts';
import type Stripe from 'stripe';
import { BillingGate } from '../../platform/billing/billing-gate';
import {
  BusinessBillingRepository,
  type BillingContact,
} from '../../platform/billing/business-billing.repository';
import type { BusinessScope } from '../../platform/database/business-scope';
import { AppConfig } from '../../platform/config/app-config';
import {
  BillingAlreadyActiveException,
  BillingNoCustomerException,
  BillingUnavailableException,
} from './billing.exceptions';
import type {
  BillingInvoiceDto,
  BillingRedirectDto,
  BillingSummaryDto,
} from './dto/billing-summary.dto';
import { StripeClient } from './stripe.client';

/** The newest invoices Billing lists. */
const INVOICES_SHOWN = 12;

/**
 * Grove's own bill, the owner's side (docs/product.md#billing, docs/stripe.md#grove-billing): the
 * summary Account Settings shows, Stripe Checkout to add a card, the Customer Portal to manage it.
 * No card data ever reaches Grove: Checkout and the portal are Stripe's pages.
 */
@Injectable()
export class BillingService {
  private readonly logger = new Logger(BillingService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly gate: BillingGate,
    private readonly billing: BusinessBillingRepository,
    private readonly stripe: StripeClient,
  ) {}

  /**
   * Where the business stands (`GET /api/billing`): state, the free count, the grace period's
   * end, the next charge, and the newest invoices from Stripe (null when Stripe does not answer:
   * the rest still shows). With GROVE_BILLING=off: `enabled: false`.
   */
  async summary(scope: BusinessScope): Promise<BillingSummaryDto> {
    const { billing, standing } = await this.gate.standing(scope);
    const enabled = this.config.billing.enabled;
    const subscribed = standing.state === 'active' || standing.state === 'past-due';
    const renews = subscribed && !billing.cancelAtPeriodEnd;
    return {
      enabled,
      state: standing.state,
      membersThroughGrove: billing.membersThroughGrove,
      freeMembers: GROVE_PLAN.freeMembers,
      priceCents: billing.amountCents ?? GROVE_PLAN.monthlyPriceCents,
      currency: (billing.currency ?? GROVE_PLAN.currency).toUpperCase(),
      graceEndsAt: enabled ? (standing.graceEndsAt?.toISOString() ?? null) : null,
      paused: enabled && standing.paused,
      // Cancelled in the portal: the date is when it ends, and nothing more is charged.
      nextChargeAt: subscribed ? iso(billing.currentPeriodEnd) : null,
      nextChargeCents: renews ? billing.amountCents : null,
      cancelAtPeriodEnd: subscribed && billing.cancelAtPeriodEnd,
      canManage: enabled && billing.stripeCustomerId !== null,
      invoices:
        enabled && billing.stripeCustomerId ? await this.invoices(billing.stripeCustomerId) : [],
    };
  }

  /** The customer's newest invoices, or null when Stripe does not answer. */
  private async invoices(customer: string): Promise<BillingInvoiceDto[] | null> {
    if (!this.stripe.configured) return null;
    try {
      const list = await this.stripe.stripe.invoices.list({ customer, limit: INVOICES_SHOWN });
      return list.data.map((invoice) => ({
        id: invoice.id ?? '',
        number: invoice.number ?? null,
        createdAt: new Date(invoice.created * 1000).toISOString(),
        amountCents: invoice.amount_due,
        currency: invoice.currency.toUpperCase(),
        status: invoice.status ?? 'draft',
        url: invoice.hosted_invoice_url ?? null,
      }));
    } catch (error) {
      this.logger.warn({ err: error }, 'Stripe did not list the invoices');
      return null;
    }
  }

  /**
   * 'Add a card' (`POST /api/billing/checkout`): the business's Stripe customer (created once,
   * idempotently), then a Checkout Session in subscription mode for the plan's price in the
   * business's currency (else the first configured), returning to Account Settings → Billing.
   * @throws BillingUnavailableException 503 when billing is off, Stripe unconfigured or down
   * @throws BillingAlreadyActiveException 409 while a subscription pays or is past due
   * A stored customer Stripe no longer has is replaced by a new one (Stripe's `resource_missing`).
   */
  async checkout(scope: BusinessScope): Promise<BillingRedirectDto> {
    if (!this.config.billing.enabled) throw new BillingUnavailableException();
    const { billing, standing } = await this.gate.standing(scope);
    if (standing.state === 'active' || standing.state === 'past-due')
      throw new BillingAlreadyActiveException();
    const contact = await this.billing.contact(scope);
    if (!contact) throw new BillingUnavailableException();
    const customer = billing.stripeCustomerId ?? (await this.createCustomer(scope, contact));
    const returnUrl = `${this.config.publicOrigin}${hrefs.billing}`;
    const createSession = (customerId: string) =>
      this.stripe.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customerId,
        client_reference_id: scope.businessId,
        line_items: [
          { price: this.stripe.priceFor(currencyForCountry(contact.country)), quantity: 1 },
        ],
        success_url: `${returnUrl}?${BILLING_RETURN_QUERY}=done`,
        cancel_url: `${this.config.publicOrigin}${hrefs.billing}`,
        metadata: { grove_business_id: scope.businessId },
        subscription_data: { metadata: { grove_business_id: scope.businessId } },
      });
    const session = await this.call(async () => {
      try {
        return await createSession(customer);
      } catch (error) {
        if (!isMissingCustomer(error)) throw error;
        // Stripe no longer has the customer (deleted in its dashboard, another Stripe account's
        // keys, a stand-in restarted): the business gets a new one, once (docs/stripe.md#grove-billing).
        return createSession(await this.replaceCustomer(scope, contact, customer));
      }
    });
    if (!session.url) throw new BillingUnavailableException();
    return { url: session.url };
  }

  /**
   * 'Manage billing' (`POST /api/billing/portal`): a Customer Portal session for the business's
   * customer (card, cancel, invoices), returning to Account Settings → Billing.
   * @throws BillingUnavailableException 503; BillingNoCustomerException 409 before a card was added,
   *   or when Stripe no longer has the stored customer (it is forgotten: 'Add a card' makes a new one)
   */
  async portal(scope: BusinessScope): Promise<BillingRedirectDto> {
    if (!this.config.billing.enabled) throw new BillingUnavailableException();
    const { billing } = await this.gate.standing(scope);
    if (!billing.stripeCustomerId) throw new BillingNoCustomerException();
    const customer = billing.stripeCustomerId;
    const session = await this.call(async () => {
      try {
        return await this.stripe.stripe.billingPortal.sessions.create({
          customer,
          return_url: `${this.config.publicOrigin}${hrefs.billing}`,
        });
      } catch (error) {
        if (!isMissingCustomer(error)) throw error;
        // Stripe no longer has the customer: nothing to manage until a card is added again.
        await this.billing.forgetCustomer(scope, customer);
        throw new BillingNoCustomerException();
      }
    });
    return { url: session.url };
  }

  /** Creates the business's Stripe customer (idempotent per business) and keeps it. */
  private async createCustomer(scope: BusinessScope, contact: BillingContact): Promise<string> {
    const created = await this.call(() =>
      this.newCustomer(scope, contact, `grove-customer-${scope.businessId}`),
    );
    return this.billing.claimCustomer(scope, created);
  }

  /**
   * A new Stripe customer in place of `missingId`, which Stripe no longer has (idempotent per
   * missing customer), kept unless a concurrent request already replaced it.
   * @returns the customer id the business has now
   */
  private async replaceCustomer(
    scope: BusinessScope,
    contact: BillingContact,
    missingId: string,
  ): Promise<string> {
    const created = await this.newCustomer(
      scope,
      contact,
      `grove-customer-${scope.businessId}-replacing-${missingId}`,
    );
    return this.billing.replaceCustomer(scope, missingId, created);
  }

  /** Stripe's `customers.create` for the business (its owner's email, its name) → the new id. */
  private async newCustomer(
    scope: BusinessScope,
    contact: BillingContact,
    idempotencyKey: string,
  ): Promise<string> {
    const created = await this.stripe.stripe.customers.create(
      {
        email: contact.email,
        name: contact.businessName,
        metadata: { grove_business_id: scope.businessId },
      },
      { idempotencyKey },
    );
    return created.id;
  }

  /**
   * Closing the business (docs/product.md#data-rights, docs/decisions/data-rights.md): Grove's
   * subscription stops renewing at the end of the period already paid (`cancel_at_period_end`
   * true, https://docs.stripe.com/api/subscriptions/update), or renews again when the closure is
   * cancelled (false; Stripe allows it until the period ends). Nothing to do without a
   * subscription or with Stripe unconfigured. The webhook `customer.subscription.updated` brings
   * the change into `business_billing`.
   * @returns true when Stripe was asked
   * @throws BillingUnavailableException 503 when Stripe refuses or does not answer
   */
  async setRenewalStopped(scope: BusinessScope, stopped: boolean): Promise<boolean> {
    if (!this.config.billing.enabled || !this.stripe.configured) return false;
    const billing = await this.billing.facts(scope, 0);
    const subscription = billing.stripeSubscriptionId;
    if (!subscription || billing.subscriptionEndedAt) return false;
    await this.call(() =>
      this.stripe.stripe.subscriptions.update(subscription, { cancel_at_period_end: stopped }),
    );
    return true;
  }

  /** A Stripe call; its failure becomes 503 'Billing is not available right now…'. */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (
        error instanceof BillingUnavailableException ||
        error instanceof BillingNoCustomerException
      )
        throw error;
      this.logger.warn(
        { err: error as Stripe.errors.StripeError },
        'Stripe refused or did not answer',
      );
      throw new BillingUnavailableException();
    }
  }
}

/**
 * Stripe's answer for a customer it does not have: `invalid_request_error`, code
 * `resource_missing`, param `customer` (https://docs.stripe.com/error-codes#resource-missing).
 */
function isMissingCustomer(error: unknown): boolean {
  const stripeError = error as { code?: string; param?: string } | null;
  return stripeError?.code === 'resource_missing' && stripeError.param === 'customer';
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
