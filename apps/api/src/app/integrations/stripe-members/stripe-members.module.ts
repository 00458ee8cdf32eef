import { Module } from '@nestjs/common';
import { MindbodyCrypto } from '../mindbody/persistence/mindbody-crypto';
import { GymStripeClient } from './client/gym-stripe.client';
import { StripeMembersController } from './http/stripe-members.controller';
import { StripeMembersRepository } from './persistence/stripe-members.repository';
import { StripeMembersService } from './stripe-members.service';

/**
 * A gym's Stripe account as its member billing (issue 32, docs/stripe.md#member-billing): the
 * wizard's routes, the gym's Stripe client (its restricted key, sealed like Mindbody's secrets with
 * the same `MindbodyCrypto`) and the tables `stripe_member_*`.
 */
@Module({
  controllers: [StripeMembersController],
  providers: [StripeMembersService, StripeMembersRepository, GymStripeClient, MindbodyCrypto],
})
export class StripeMembersModule {}
