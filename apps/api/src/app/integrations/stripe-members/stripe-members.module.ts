import { Module } from '@nestjs/common';
import { MindbodyModule } from '../mindbody/mindbody.module';
import { GymStripeClient } from './client/gym-stripe.client';
import { StripeMembersController } from './http/stripe-members.controller';
import { StripeMembersRepository } from './persistence/stripe-members.repository';
import { StripeMembersService } from './stripe-members.service';

/**
 * A gym's Stripe account as its member billing (issue 32, docs/stripe.md#member-billing): the
 * wizard's routes, the gym's Stripe client (its restricted key, sealed like Mindbody's secrets with
 * the same `MindbodyCrypto`, Mindbody's one instance) and the tables `stripe_member_*`.
 */
@Module({
  imports: [MindbodyModule],
  controllers: [StripeMembersController],
  providers: [StripeMembersService, StripeMembersRepository, GymStripeClient],
})
export class StripeMembersModule {}
