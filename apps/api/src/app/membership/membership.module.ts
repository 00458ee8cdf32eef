import { Module } from '@nestjs/common';
import { MembershipEventsModule } from './events/membership-events';
import { MembersModule } from './members/members.module';
import { BranchQualificationModule } from './branch-qualification/branch-qualification.module';
import { MembersCsvModule } from './members-csv/members-csv.module';
import { LifecycleModule } from './lifecycle/lifecycle.module';
import { MemberDefaultsModule } from './member-defaults/member-defaults.module';
import { ErasureModule } from './erasure/erasure.module';
import { ReferrerRewardModule } from './referrer-reward/referrer-reward.module';
import { RewardsOwedModule } from './rewards-owed/rewards-owed.module';

/**
 * The membership area: trees and branches, when a branch counts, lifecycle facts and the price ledger, the members CSV, the defaults for new members, the referrer's reward and its cap, the rewards owed to referrers, and the events membership announces (`MembershipEvents`). Imports only platform
 * (docs/architecture.md#api-areas).
 */
@Module({
  imports: [
    MembershipEventsModule,
    MembersModule,
    BranchQualificationModule,
    MembersCsvModule,
    LifecycleModule,
    MemberDefaultsModule,
    ErasureModule,
    ReferrerRewardModule,
    RewardsOwedModule,
  ],
})
export class MembershipModule {}
