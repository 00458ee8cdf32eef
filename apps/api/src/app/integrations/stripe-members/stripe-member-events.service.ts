import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { BranchQualificationService } from '../../membership/branch-qualification/branch-qualification.service';
import { actingAs, jobScope } from '../../platform/database/business-scope';
import { AuditLog } from '../../platform/audit/audit-log';
import { runTransaction } from '../../platform/database/transaction';
import { JobsService } from '../../platform/jobs/jobs.service';
import { MindbodyCrypto } from '../mindbody/persistence/mindbody-crypto';
import { GymStripeClient } from './client/gym-stripe.client';
import { StripeMembersRepository } from './persistence/stripe-members.repository';
import { StripeMemberWebhookSignatureException } from './stripe-members.exceptions';
import { StripeWelcomeOffer } from './rewards/stripe-welcome-offer';
import { StripeMembersService } from './stripe-members.service';

/** The job that applies one event of a gym's Stripe account. */
export const STRIPE_MEMBER_EVENT_QUEUE = 'stripe-members.event';

/** What the job needs of an event: its business and the ids it names (never the object's state). */
export interface StripeMemberEventJob {
  businessId: string;
  eventId: string;
  type: 'invoice.paid' | 'customer.subscription.deleted';
  /** The paying customer (`invoice.paid`). */
  customerId: string | null;
  /** The ended subscription (`customer.subscription.deleted`). */
  subscriptionId: string | null;
}

/** An endpoint token as `saveKey` makes them (24 random bytes, base64url). */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/**
 * Webhooks from a gym's own Stripe account (issue 32, docs/stripe.md#member-billing,
 * docs/decisions/stripe-member-webhooks.md). `receive` finds the endpoint's business by its token,
 * verifies `Stripe-Signature` with that business's signing secret before anything else, records
 * the event id and queues the job in one transaction (a replay is recorded once and queues
 * nothing). The job reads the state from Stripe, never from the event: `invoice.paid` → the
 * customer's active subscriptions (matched to members as the import does) and its earliest paid
 * invoice, the first payment of the business's counting rule; `customer.subscription.deleted` →
 * whether the subscription has really ended. Then the branches are refreshed (a branch starts
 * counting or lapses, with its ledger lines and emails) and the bills that change are written
 * only under the owner's confirmation (`StripeMembersService.applyAccountChanges`).
 */
@Injectable()
export class StripeMemberEventsService implements OnModuleInit {
  private readonly logger = new Logger(StripeMemberEventsService.name);

  constructor(
    private readonly repository: StripeMembersRepository,
    private readonly stripe: GymStripeClient,
    private readonly crypto: MindbodyCrypto,
    private readonly members: StripeMembersService,
    private readonly branches: BranchQualificationService,
    private readonly jobs: JobsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditLog,
    private readonly welcomeOffers: StripeWelcomeOffer,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<StripeMemberEventJob>(
      { name: STRIPE_MEMBER_EVENT_QUEUE, retryLimit: 8, retryDelay: 5, retryBackoff: true },
      (job) => this.apply(job),
    );
  }

  /**
   * A delivery to `POST /api/stripe-members/webhooks/{token}`.
   * @param rawBody the request's bytes as received (the signature covers them)
   * @returns whether a job was queued (false: a replay, or a type Grove does not act on)
   * @throws StripeMemberWebhookSignatureException 400 when the delivery does not verify
   */
  async receive(
    token: string,
    rawBody: Buffer | undefined,
    signature: string | undefined,
  ): Promise<boolean> {
    if (!rawBody || !signature || !TOKEN.test(token))
      throw new StripeMemberWebhookSignatureException();
    const endpoint = await this.repository.webhookOf(token);
    if (!endpoint) throw new StripeMemberWebhookSignatureException();
    let event: Stripe.Event;
    try {
      event = this.stripe.verifyEvent(rawBody, signature, this.crypto.open(endpoint.secretSealed));
    } catch {
      throw new StripeMemberWebhookSignatureException();
    }
    const scope = jobScope({ businessId: endpoint.businessId });
    const job = jobOf(endpoint.businessId, event);
    return runTransaction(this.dataSource, async (manager) => {
      if (!(await this.repository.recordEvent(scope, manager, event.id, event.type))) return false;
      if (!job) return false;
      await this.jobs.send<StripeMemberEventJob>(STRIPE_MEMBER_EVENT_QUEUE, job, { manager });
      return true;
    });
  }

  /**
   * The job (see the class). Out of order or repeated, it converges: the first payment kept is the
   * earliest Stripe lists, an ended subscription stays ended, and the branch refresh is idempotent.
   * @throws when Stripe does not answer (pg-boss retries)
   */
  async apply(job: StripeMemberEventJob): Promise<void> {
    // The gym's Stripe account is the author of what its event changes (the audit log).
    const scope = actingAs(jobScope({ businessId: job.businessId }), { kind: 'stripe' });
    const integration = await this.repository.integration(scope);
    if (!integration) return;
    const apiKey = this.crypto.open(integration.apiKeySealed);
    if (job.type === 'invoice.paid' && job.customerId) {
      const subscriptions = await this.stripe.customerSubscriptions(apiKey, job.customerId);
      if (subscriptions.length > 0) await this.repository.importPage(scope, subscriptions);
      const paidAt = await this.stripe.firstPaidAt(apiKey, job.customerId);
      if (paidAt) await this.repository.recordFirstPayment(scope, job.customerId, paidAt);
      // A friend approved before their subscription existed gets their welcome offer now.
      await this.welcomeOffers.applyPending(scope);
    } else if (job.type === 'customer.subscription.deleted' && job.subscriptionId) {
      if (await this.stripe.subscriptionEnded(apiKey, job.subscriptionId))
        await this.repository.endSubscription(scope, job.subscriptionId, (manager, member) =>
          this.audit.record(scope, manager, {
            kind: 'member.updated',
            member,
            before: { membership: 'running' },
            after: { membership: 'ended' },
          }),
        );
    }
    await this.branches.refresh(scope);
    const result = await this.members.applyAccountChanges(scope);
    this.logger.log({ event: job.eventId, type: job.type, ...result }, 'Stripe member event');
  }
}

/** The job of an event Grove acts on, or null (acknowledged only). */
function jobOf(businessId: string, event: Stripe.Event): StripeMemberEventJob | null {
  if (event.type === 'invoice.paid') {
    const customerId = idOf(event.data.object.customer);
    return customerId
      ? { businessId, eventId: event.id, type: event.type, customerId, subscriptionId: null }
      : null;
  }
  if (event.type === 'customer.subscription.deleted')
    return {
      businessId,
      eventId: event.id,
      type: event.type,
      customerId: idOf(event.data.object.customer),
      subscriptionId: event.data.object.id,
    };
  return null;
}
