import { Module } from '@nestjs/common';
import { MindbodyModule } from './mindbody/mindbody.module';
import { StripeMembersModule } from './stripe-members/stripe-members.module';

/**
 * The integrations area: Mindbody (import, sync, webhooks, autopay discounts) and a gym's Stripe
 * account as its member billing (coupons on subscriptions, issue 32). The top area: may import every other
 * (docs/architecture.md#api-areas).
 */
@Module({
  imports: [MindbodyModule, StripeMembersModule],
})
export class IntegrationsModule {}
