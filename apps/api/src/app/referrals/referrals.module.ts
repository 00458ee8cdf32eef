import { Module } from '@nestjs/common';
import { FraudModule } from '../fraud/fraud.module';
import { MembersModule } from '../members/members.module';
import { ProspectsModule } from '../prospects/prospects.module';
import { MemberNotificationsModule } from '../member-notifications/member-notifications.module';
import { LifecycleModule } from '../lifecycle/lifecycle.module';
import { ReferralLinksController } from './referral-links.controller';
import { ReferralLinksRepository } from './referral-links.repository';
import { ReferralsController } from './referrals.controller';
import { ReferralsService } from './referrals.service';

/** Referral links (owner side) and the public referral join (docs/product.md#referral-join, docs/product.md#states, docs/product.md#calls). */
@Module({
  imports: [
    MembersModule,
    LifecycleModule,
    FraudModule,
    MemberNotificationsModule,
    ProspectsModule,
  ],
  controllers: [ReferralLinksController, ReferralsController],
  providers: [ReferralsService, ReferralLinksRepository],
  exports: [ReferralsService],
})
export class ReferralsModule {}
