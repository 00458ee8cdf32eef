import { Module } from '@nestjs/common';
import { MembershipEventsModule } from './events/membership-events';
import { MembersModule } from './members/members.module';
import { BranchQualificationModule } from './branch-qualification/branch-qualification.module';
import { MembersCsvModule } from './members-csv/members-csv.module';
import { LifecycleModule } from './lifecycle/lifecycle.module';
import { MemberDefaultsModule } from './member-defaults/member-defaults.module';
import { ErasureModule } from './erasure/erasure.module';

/**
 * The membership area: trees and branches, when a branch counts, lifecycle facts and the price ledger, the members CSV, the defaults for new members, and the events membership announces (`MembershipEvents`). Imports only platform
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
  ],
})
export class MembershipModule {}
