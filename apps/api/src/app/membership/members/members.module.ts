import { Module } from '@nestjs/common';
import { MembersController } from './members.controller';
import { ReferralsToMatchController } from './referrals-to-match.controller';
import { MembersRepository } from './members.repository';
import { MemberSearchIndexes } from './member-search-indexes.repository';
import { MembersService } from './members.service';
import { LifecycleModule } from '../lifecycle/lifecycle.module';
import { MemberDefaultsModule } from '../member-defaults/member-defaults.module';
import { AuthModule } from '../../platform/auth/auth.module';
import { FrontDeskPrices } from './front-desk-prices';
import { ErasureModule } from '../erasure/erasure.module';

/** Trees and branches (docs/product.md#screens, docs/product.md#entities, docs/product.md#states): list, read, add, add branch, detach branch, change, remove; Referrals to match (issue 33 item 4); front desk's price limits of the role table (`FrontDeskPrices`). */
@Module({
  imports: [LifecycleModule, MemberDefaultsModule, AuthModule, ErasureModule],
  controllers: [MembersController, ReferralsToMatchController],
  providers: [MembersService, MembersRepository, MemberSearchIndexes, FrontDeskPrices],
  exports: [MembersRepository, MembersService],
})
export class MembersModule {}
