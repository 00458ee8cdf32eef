import { Module } from '@nestjs/common';
import { BranchQualificationModule } from '../../membership/branch-qualification/branch-qualification.module';
import { MailModule } from '../../platform/mail/mail.module';
import { RewardsOwedModule } from '../../membership/rewards-owed/rewards-owed.module';
import { WelcomeOfferModule } from '../../referral/welcome-offer/welcome-offer.module';
import { MemberPageModule } from '../../member/member-page/member-page.module';
import { MindbodyModule } from '../mindbody/mindbody.module';
import { MembersModule } from '../../membership/members/members.module';
import { StripeImportReferrers } from './jobs/stripe-import-referrers';
import { GymStripeClient } from './client/gym-stripe.client';
import { StripeMembersController } from './http/stripe-members.controller';
import { StripeMemberRunsService } from './jobs/stripe-member-runs.service';
import { StripeMemberRunsRepository } from './persistence/stripe-member-runs.repository';
import { StripeMembersRepository } from './persistence/stripe-members.repository';
import { StripeCredits } from './rewards/stripe-credits';
import { StripeCreditsController } from './rewards/stripe-credits.controller';
import { StripeWelcomeOffer } from './rewards/stripe-welcome-offer';
import { StripeMemberEventsService } from './stripe-member-events.service';
import { StripeMembersService } from './stripe-members.service';

/**
 * A gym's Stripe account as its member billing (issue 32, docs/stripe.md#member-billing): the
 * wizard's routes, the gym's Stripe client (its restricted key, sealed like Mindbody's secrets with
 * the same `MindbodyCrypto`, Mindbody's one instance), the webhooks of the gym's account (their
 * job, and the failed-signature throttle Mindbody's webhooks use), the import and sync as jobs with
 * progress (`StripeMemberRunsService`), the tables `stripe_member_*`, and the friend's welcome offer
 * written as a coupon and the referrers' one-off credits (`rewards/`, issue 33).
 */
@Module({
  imports: [
    MindbodyModule,
    BranchQualificationModule,
    MailModule,
    WelcomeOfferModule,
    RewardsOwedModule,
    MemberPageModule,
    MembersModule,
  ],
  controllers: [StripeMembersController, StripeCreditsController],
  providers: [
    StripeMembersService,
    StripeMemberEventsService,
    StripeMembersRepository,
    StripeImportReferrers,
    StripeMemberRunsRepository,
    StripeMemberRunsService,
    GymStripeClient,
    StripeWelcomeOffer,
    StripeCredits,
  ],
})
export class StripeMembersModule {}
