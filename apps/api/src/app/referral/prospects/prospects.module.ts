import { Module } from '@nestjs/common';
import { MembersModule } from '../../membership/members/members.module';
import { LifecycleModule } from '../../membership/lifecycle/lifecycle.module';
import { MemberDefaultsModule } from '../../membership/member-defaults/member-defaults.module';
import { ReferrerRewardModule } from '../../membership/referrer-reward/referrer-reward.module';
import { WelcomeOfferModule } from '../welcome-offer/welcome-offer.module';
import { AuthModule } from '../../platform/auth/auth.module';
import { FrontDeskApprovals } from './front-desk-approvals';
import { JoinFlagsRepository } from './join-flags.repository';
import { ProspectsController } from './prospects.controller';
import { ProspectSettingsController } from './prospect-settings.controller';
import { ProspectSettingsRepository } from './prospect-settings.repository';
import { ProspectsRepository } from './prospects.repository';
import { ProspectsService } from './prospects.service';

/** Prospective members (docs/product.md#prospective-members, docs/product.md#states): list, remove, approve as a branch of the referrer; flagged joins: list, dismiss; front desk's approval limit of the role table (`FrontDeskApprovals`). */
@Module({
  imports: [
    MembersModule,
    LifecycleModule,
    MemberDefaultsModule,
    ReferrerRewardModule,
    WelcomeOfferModule,
    AuthModule,
  ],
  controllers: [ProspectsController, ProspectSettingsController],
  providers: [
    ProspectsService,
    ProspectsRepository,
    JoinFlagsRepository,
    ProspectSettingsRepository,
    FrontDeskApprovals,
  ],
  exports: [ProspectsRepository, ProspectsService],
})
export class ProspectsModule {}
