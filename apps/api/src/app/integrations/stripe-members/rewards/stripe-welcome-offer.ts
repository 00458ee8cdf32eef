import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  WELCOME_OFFER_STRIPE_TEXTS,
  welcomeOfferAppliesInStripe,
  welcomeOfferCostCents,
  welcomeOfferCoupon,
  type WelcomeOffer,
} from '@grove/contracts';
import { MembershipEvents } from '../../../membership/events/membership-events';
import { errorMessage } from '../../../platform/common/error-message';
import { jobScope, type BusinessScope } from '../../../platform/database/business-scope';
import { JobsService } from '../../../platform/jobs/jobs.service';
import {
  WelcomeOfferRepository,
  type StripeGrantTarget,
} from '../../../referral/welcome-offer/welcome-offer.repository';
import { MindbodyCrypto } from '../../mindbody/persistence/mindbody-crypto';
import { GymStripeClient, type GymSubscription } from '../client/gym-stripe.client';
import { StripeMembersRepository } from '../persistence/stripe-members.repository';
import { StripeAccountUnavailableException } from '../stripe-members.exceptions';

/** The job that writes one friend's welcome offer to the gym's Stripe. */
export const STRIPE_WELCOME_OFFER_QUEUE = 'stripe-members.welcome-offer';

/** A granted offer of a business to write. */
export interface StripeWelcomeOfferJob {
  businessId: string;
  grantId: string;
}

/**
 * The friend's welcome offer on their Stripe subscription (issue 33 item 1,
 * docs/decisions/welcome-offer.md, docs/stripe.md#member-billing). A person's approval is the
 * confirmation (the dialog says what Stripe gets): 'welcome-offer.granted' marks the grant
 * 'pending' and queues this job in the approval's transaction, at a business whose Stripe member
 * billing is connected and for an offer with a Stripe form (amount, percent, free; never text).
 * The job finds the friend's active subscription (customers with the friend's exact email, and
 * the customer of their imported subscription) and reads its discounts: the grant's coupon
 * already there (a write Stripe took whose record failed) is recorded, not written again.
 * Otherwise it writes one `repeating` coupon
 * (`Idempotency-Key: grove-welcome-coupon-<grant>`) and sets it beside the subscription's
 * discounts (`grove-welcome-<grant>`; the gym's own kept); the discount is kept among the
 * subscription's others so Grove's sync never removes it. No subscription yet: it stays pending
 * and the next `invoice.paid` of the gym's account tries again (`applyPending`). Stripe refusing
 * it, or an amount offer at a subscription of another currency, marks it 'failed' with the reason:
 * listed to honour by hand.
 */
@Injectable()
export class StripeWelcomeOffer implements OnModuleInit {
  private readonly logger = new Logger(StripeWelcomeOffer.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly events: MembershipEvents,
    private readonly offers: WelcomeOfferRepository,
    private readonly repository: StripeMembersRepository,
    private readonly stripe: GymStripeClient,
    private readonly crypto: MindbodyCrypto,
  ) {}

  /** Registers the queue (5 retries, 10 s apart then doubled) and the grant's listener. */
  async onModuleInit(): Promise<void> {
    await this.jobs.register<StripeWelcomeOfferJob>(
      { name: STRIPE_WELCOME_OFFER_QUEUE, retryLimit: 5, retryDelay: 10, retryBackoff: true },
      ({ businessId, grantId }) => this.apply(jobScope({ businessId }), grantId),
    );
    this.events.on('welcome-offer.granted', ({ scope, manager, grantId, offer }) =>
      this.request(scope, manager, grantId, offer),
    );
  }

  /** At the approval, in its transaction: pending and queued when Stripe can apply the offer. */
  private async request(
    scope: BusinessScope,
    manager: EntityManager,
    grantId: string,
    offer: WelcomeOffer,
  ): Promise<void> {
    if (!welcomeOfferAppliesInStripe(offer)) return;
    if (!(await this.repository.integration(scope))) return;
    await this.offers.markStripePending(scope, manager, grantId);
    await this.jobs.send<StripeWelcomeOfferJob>(
      STRIPE_WELCOME_OFFER_QUEUE,
      { businessId: scope.businessId, grantId },
      { manager },
    );
  }

  /**
   * Tries every offer of the business still waiting for a subscription (after an `invoice.paid`
   * of its Stripe). A failure of one is logged, never thrown: the others and the event go on.
   */
  async applyPending(scope: BusinessScope): Promise<void> {
    for (const grantId of await this.offers.pendingInStripe(scope)) {
      try {
        await this.apply(scope, grantId);
      } catch (error) {
        this.logger.warn(`Welcome offer ${grantId} not written to Stripe: ${errorMessage(error)}`);
      }
    }
  }

  /**
   * Writes one pending grant (see the class); nothing when it is no longer pending or Stripe is
   * no longer connected. @throws when Stripe does not answer (the job retries)
   */
  async apply(scope: BusinessScope, grantId: string): Promise<void> {
    const integration = await this.repository.integration(scope);
    const target = integration ? await this.offers.stripeTarget(scope, grantId) : null;
    const coupon = target ? welcomeOfferCoupon(target.offer) : null;
    if (!integration || !target || !coupon) return;
    const apiKey = this.crypto.open(integration.apiKeySealed);
    const subscription = await this.subscriptionOf(scope, apiKey, target);
    if (!subscription) return;
    const sameCurrency = subscription.currency.toUpperCase() === target.businessCurrency;
    if (coupon.amountOffCents !== null && !sameCurrency) {
      await this.offers.recordStripeFailed(
        scope,
        grantId,
        WELCOME_OFFER_STRIPE_TEXTS.otherCurrency(
          subscription.currency.toUpperCase(),
          target.businessCurrency,
        ),
      );
      return;
    }
    try {
      const { couponId, discountId } =
        (await this.stripe.welcomeDiscountOn(apiKey, subscription.subscriptionId, grantId)) ??
        (await this.write(apiKey, subscription, coupon, grantId));
      if (discountId)
        await this.repository.keepDiscount(scope, subscription.subscriptionId, discountId);
      await this.offers.recordStripeApplied(scope, grantId, {
        subscriptionId: subscription.subscriptionId,
        couponId,
        costCents: sameCurrency
          ? welcomeOfferCostCents(target.offer, subscription.priceCents)
          : null,
      });
    } catch (error) {
      if (!(error instanceof StripeAccountUnavailableException) || !error.refusal) throw error;
      await this.offers.recordStripeFailed(
        scope,
        grantId,
        WELCOME_OFFER_STRIPE_TEXTS.refused(error.refusal),
      );
    }
  }

  /** Writes the coupon and sets it beside the subscription's discounts (both idempotent). */
  private async write(
    apiKey: string,
    subscription: GymSubscription,
    coupon: NonNullable<ReturnType<typeof welcomeOfferCoupon>>,
    grantId: string,
  ): Promise<{ couponId: string; discountId: string | null }> {
    const couponId = await this.stripe.createRepeatingCoupon(
      apiKey,
      coupon,
      subscription.currency,
      grantId,
    );
    const discountId = await this.stripe.setDiscounts(
      apiKey,
      subscription.subscriptionId,
      subscription.discountIds,
      couponId,
      `grove-welcome-${grantId}`,
    );
    return { couponId, discountId };
  }

  /** The friend's active subscription (the newest of their customers'), or null. */
  private async subscriptionOf(
    scope: BusinessScope,
    apiKey: string,
    target: StripeGrantTarget,
  ): Promise<GymSubscription | null> {
    const imported = await this.repository.customerOf(scope, target.memberId);
    const byEmail = target.email ? await this.stripe.customersByEmail(apiKey, target.email) : [];
    for (const customerId of new Set([...(imported ? [imported] : []), ...byEmail])) {
      const [subscription] = await this.stripe.customerSubscriptions(apiKey, customerId);
      if (subscription) return subscription;
    }
    return null;
  }
}
