import { Module } from '@nestjs/common';
import { BranchQualificationModule } from '../../membership/branch-qualification/branch-qualification.module';
import { MailModule } from '../../platform/mail/mail.module';
import { MindbodyModule } from '../mindbody/mindbody.module';
import { GymStripeClient } from './client/gym-stripe.client';
import { StripeMembersController } from './http/stripe-members.controller';
import { StripeMemberRunsService } from './jobs/stripe-member-runs.service';
import { StripeMemberRunsRepository } from './persistence/stripe-member-runs.repository';
import { StripeMembersRepository } from './persistence/stripe-members.repository';
import { StripeMemberEventsService } from './stripe-member-events.service';
import { StripeMembersService } from './stripe-members.service';

/**
 * A gym's Stripe account as its member billing (issue 32, docs/stripe.md#member-billing): the
 * wizard's routes, the gym's Stripe client (its restricted key, sealed like Mindbody's secrets with
 * the same `MindbodyCrypto`, Mindbody's one instance), the webhooks of the gym's account (their
 * job, and the failed-signature throttle Mindbody's webhooks use), the import and sync as jobs with
 * progress (`StripeMemberRunsService`) and the tables `stripe_member_*`.
 */
@Module({
  imports: [MindbodyModule, BranchQualificationModule, MailModule],
  controllers: [StripeMembersController],
  providers: [
    StripeMembersService,
    StripeMemberEventsService,
    StripeMembersRepository,
    StripeMemberRunsRepository,
    StripeMemberRunsService,
    GymStripeClient,
  ],
})
export class StripeMembersModule {}
