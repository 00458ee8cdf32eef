import { Module } from '@nestjs/common';
import { LifecycleModule } from '../lifecycle/lifecycle.module';
import { MemberDefaultsModule } from '../member-defaults/member-defaults.module';
import { ErasureModule } from '../erasure/erasure.module';
import { MembersCsvController } from './members-csv.controller';
import { MembersCsvRepository } from './members-csv.repository';
import { MembersCsvService } from './members-csv.service';

/**
 * Members in and out as CSV (issue 14 part 5): export, upload, dry run, import job, progress.
 * With the automatic-link setting on, imported new members get a referral link in the import's
 * transaction (`LinksForEveryoneService.linkNewMembers`).
 */
@Module({
  imports: [LifecycleModule, MemberDefaultsModule, ErasureModule],
  controllers: [MembersCsvController],
  providers: [MembersCsvService, MembersCsvRepository],
})
export class MembersCsvModule {}
