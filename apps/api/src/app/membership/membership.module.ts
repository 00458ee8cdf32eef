import { Module } from '@nestjs/common';
import { MembershipEventsModule } from './events/membership-events';
import { MembersModule } from './members/members.module';
import { BranchQualificationModule } from './branch-qualification/branch-qualification.module';
import { MembersCsvModule } from './members-csv/members-csv.module';
import { LifecycleModule } from './lifecycle/lifecycle.module';

/**
 * The membership area: trees and branches, when a branch counts, lifecycle facts and the price ledger, the members CSV, and the events membership announces (`MembershipEvents`). Imports only platform
 * (docs/architecture.md#api-areas).
 */
@Module({
  imports: [
    MembershipEventsModule,
    MembersModule,
    BranchQualificationModule,
    MembersCsvModule,
    LifecycleModule,
  ],
})
export class MembershipModule {}
