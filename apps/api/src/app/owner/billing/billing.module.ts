import { Module } from '@nestjs/common';
import { MailModule } from '../../platform/mail/mail.module';
import { BillingController } from './billing.controller';
import { BillingService } from './billing.service';
import { StripeClient } from './stripe.client';
import { StripeEventsService } from './stripe-events.service';

/**
 * Grove's own bill on Stripe (issue 30, docs/product.md#billing): Account Settings → Billing,
 * Checkout, the Customer Portal and Stripe's webhooks. The pause rule itself is platform's
 * `BillingGate`.
 */
@Module({
  imports: [MailModule],
  controllers: [BillingController],
  providers: [StripeClient, BillingService, StripeEventsService],
  exports: [BillingService],
})
export class OwnerBillingModule {}
