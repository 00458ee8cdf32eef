import { Module } from '@nestjs/common';
import { FraudModule } from '../fraud/fraud.module';
import { MembersModule } from '../../membership/members/members.module';
import { ProspectsModule } from '../prospects/prospects.module';
import { LifecycleModule } from '../../membership/lifecycle/lifecycle.module';
import { WebModule } from '../../platform/web/web.module';
import { JoinPageAssetsService } from './join-page/join-page-assets.service';
import { JoinPageController } from './join-page/join-page.controller';
import { ReferralLinksController } from './referral-links.controller';
import { QrPngDrawer } from './qr-png-drawer';
import { ReferralLinksRepository } from './referral-links.repository';
import { ReferralsController } from './referrals.controller';
import { ReferralsService } from './referrals.service';

/** Referral links (owner side), the public referral join and its server-rendered page (docs/product.md#referral-join, docs/product.md#states, docs/product.md#calls). */
@Module({
  imports: [MembersModule, LifecycleModule, WebModule, FraudModule, ProspectsModule],
  controllers: [ReferralLinksController, ReferralsController, JoinPageController],
  providers: [ReferralsService, ReferralLinksRepository, JoinPageAssetsService, QrPngDrawer],
  exports: [ReferralsService],
})
export class ReferralsModule {}
