import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import type Stripe from 'stripe';
import { DataSource, type EntityManager } from 'typeorm';
import {
  BusinessBillingRepository,
  type SubscriptionSnapshot,
} from '../../platform/billing/business-billing.repository';
import { AppConfig } from '../../platform/config/app-config';
import { stripeScope, type BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';
import { JobsService } from '../../platform/jobs/jobs.service';
import { MailService } from '../../platform/mail/mail.service';
import { paymentFailedEmail } from './billing-emails';
import { StripeSignatureException } from './billing.exceptions';
import { StripeClient } from './stripe.client';

/** The job that applies one received Stripe event. */
export const STRIPE_EVENT_QUEUE = 'billing.stripe-event';

/** What the job needs of an event: the ids it names, read from the verified payload. */
export interface StripeEventJob {
  eventId: string;
  type: string;
  customerId: string | null;
  subscriptionId: string | null;
  /** A completed Checkout Session's `client_reference_id`: the business Grove created it for. */
  businessId: string | null;
  /**
   * When Grove received the event (ISO 8601, the database's clock); absent in jobs queued before
   * 2026-11-29. A job whose subscription was read from Stripe since then has nothing to apply.
   */
  receivedAt?: string;
}

/** The event types Grove acts on (docs/stripe.md#grove-billing); others are acknowledged only. */
const HANDLED = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'invoice.paid',
  'invoice.payment_failed',
]);

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/**
 * Stripe's webhooks for Grove's own bill (docs/stripe.md#grove-billing). `receive` verifies the
 * signature on the raw body with the SDK's `constructEvent` before anything else, records the
 * event id and queues the job in one transaction, and answers at once; a duplicate delivery is
 * recorded once and changes nothing. The job never trusts the event's copy of an object: it reads
 * the subscription as Stripe has it now, so events arriving out of order leave the latest state.
 */
@Injectable()
export class StripeEventsService implements OnModuleInit {
  private readonly logger = new Logger(StripeEventsService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly stripe: StripeClient,
    private readonly billing: BusinessBillingRepository,
    private readonly jobs: JobsService,
    private readonly mail: MailService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<StripeEventJob>(
      { name: STRIPE_EVENT_QUEUE, retryLimit: 8, retryDelay: 5, retryBackoff: true },
      (job) => this.apply(job),
      2,
    );
  }

  /**
   * A webhook delivery (`POST /api/billing/stripe-webhook`).
   * @param rawBody the request's bytes as received (the signature covers them)
   * @param signature the `Stripe-Signature` header
   * @returns whether the event was new (false: a duplicate, or a type Grove does not act on)
   * @throws StripeSignatureException 400 when the signature does not verify (forged, stale
   *   beyond 300 s, wrong secret, no body); BillingUnavailableException 503 when Stripe is not
   *   configured
   */
  async receive(rawBody: Buffer | undefined, signature: string | undefined): Promise<boolean> {
    if (!rawBody || !signature) throw new StripeSignatureException();
    let event: Stripe.Event;
    try {
      event = this.stripe.verifyEvent(rawBody, signature);
    } catch (error) {
      if ((error as { type?: string }).type === 'StripeSignatureVerificationError')
        throw new StripeSignatureException();
      throw error;
    }
    const job = jobOf(event);
    const queued = await runTransaction(this.dataSource, async (manager) => {
      const receivedAt = await this.billing.recordEvent(manager, event.id, event.type);
      if (!receivedAt || !job) return false;
      await this.jobs.send<StripeEventJob>(
        STRIPE_EVENT_QUEUE,
        { ...job, receivedAt: receivedAt.toISOString() },
        { manager },
      );
      return true;
    });
    if (queued) this.jobs.wake(STRIPE_EVENT_QUEUE);
    return queued;
  }

  /**
   * The job: finds the event's one business (by its Stripe customer; a completed Checkout
   * Session also by the business Grove created it for), reads the subscription from Stripe and
   * keeps its state; when a renewal starts failing, queues the owner's email in the same
   * transaction. An event naming a customer of no business changes nothing. An event whose
   * subscription Grove has read from Stripe since it arrived (another event's job did) is
   * already applied: nothing is read or written (a burst of one subscription's events costs one
   * or two reads, not one each; docs/decisions/stripe-webhook-burst.md).
   * @throws when Stripe does not answer (pg-boss retries)
   */
  async apply(job: StripeEventJob): Promise<void> {
    const found = await this.businessOf(job);
    if (!found) {
      this.logger.log({ event: job.eventId, type: job.type }, 'Stripe event of no Grove business');
      return;
    }
    if (found.readSince) return;
    const { scope } = found;
    const subscriptionId = job.subscriptionId ?? (await this.currentSubscription(job.customerId));
    if (!subscriptionId) return;
    // Read under the business's row lock: of two events applied at once, the later read is
    // written later. (The read is repeatable, so a transaction retried for a conflict is safe.)
    const emailed = await runTransaction(this.dataSource, async (manager) => {
      if (!(await this.billing.lock(scope, manager))) return false;
      const subscription = await this.stripe.stripe.subscriptions.retrieve(subscriptionId);
      if (idOf(subscription.customer) !== job.customerId) return false;
      const snapshot = snapshotOf(subscription);
      if (!(await this.billing.applySubscription(scope, manager, snapshot))) return false;
      return this.queuePaymentFailed(scope, manager, snapshot);
    });
    if (emailed) this.mail.wake();
  }

  /**
   * The business the event belongs to, or null; `readSince`: its subscription was read from
   * Stripe after the event arrived (never for a completed Checkout Session, which claims the
   * customer).
   */
  private async businessOf(
    job: StripeEventJob,
  ): Promise<{ scope: BusinessScope; readSince: boolean } | null> {
    if (!job.customerId) return null;
    if (job.businessId && isUUID(job.businessId)) {
      const claimed = await this.billing.claimCustomer(
        stripeScope({ businessId: job.businessId }),
        job.customerId,
      );
      if (claimed === job.customerId)
        return { scope: stripeScope({ businessId: job.businessId }), readSince: false };
    }
    const state = await this.billing.customerState(
      job.customerId,
      job.subscriptionId,
      job.receivedAt ? new Date(job.receivedAt) : null,
    );
    return state
      ? { scope: stripeScope({ businessId: state.businessId }), readSince: state.readSince }
      : null;
  }

  /** The customer's newest subscription (for events that name none). */
  private async currentSubscription(customerId: string | null): Promise<string | null> {
    if (!customerId) return null;
    const list = await this.stripe.stripe.subscriptions.list({ customer: customerId, limit: 1 });
    return list.data[0]?.id ?? null;
  }

  /** Queues 'Your Grove payment failed' for the business's owner. @returns true when queued */
  private async queuePaymentFailed(
    scope: BusinessScope,
    manager: EntityManager,
    snapshot: SubscriptionSnapshot,
  ): Promise<boolean> {
    const contact = await this.billing.contact(scope);
    if (!contact) return false;
    const graceEndsAt = new Date(Date.now() + this.config.billing.graceSeconds * 1000);
    await this.mail.queue(
      paymentFailedEmail(
        contact,
        snapshot.amountCents ?? 0,
        (snapshot.currency ?? 'usd').toUpperCase(),
        graceEndsAt,
        this.config.publicOrigin,
      ),
      undefined,
      manager,
    );
    return true;
  }
}

/** The job for a verified event, or null for a type Grove does not act on. */
function jobOf(event: Stripe.Event): StripeEventJob | null {
  if (!HANDLED.has(event.type)) return null;
  const object = event.data.object as unknown as Record<string, unknown>;
  let subscriptionId: string | null = null;
  let businessId: string | null = null;
  if (event.type === 'checkout.session.completed') {
    const session = object as unknown as Stripe.Checkout.Session;
    subscriptionId = idOf(session.subscription);
    businessId = session.client_reference_id ?? null;
  } else if (event.type.startsWith('customer.subscription.')) {
    subscriptionId = (object as unknown as Stripe.Subscription).id;
  } else {
    const invoice = object as unknown as Stripe.Invoice;
    subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
  }
  return {
    eventId: event.id,
    type: event.type,
    customerId: idOf(object.customer as string | { id: string } | null),
    subscriptionId,
    businessId,
  };
}

/** What Grove keeps of a subscription: its status, period end, amount and cancellation. */
function snapshotOf(subscription: Stripe.Subscription): SubscriptionSnapshot {
  const items = subscription.items.data;
  const periodEnd =
    items.length > 0 ? Math.min(...items.map((item) => item.current_period_end)) : null;
  const amount = items.reduce(
    (sum, item) => sum + (item.price.unit_amount ?? 0) * (item.quantity ?? 1),
    0,
  );
  return {
    id: subscription.id,
    status: subscription.status,
    currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
    amountCents: items.length > 0 ? amount : null,
    currency: subscription.currency ?? null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    endedAt: subscription.ended_at ? new Date(subscription.ended_at * 1000) : null,
  };
}
