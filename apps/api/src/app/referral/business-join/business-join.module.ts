import { Module } from '@nestjs/common';
import { FraudModule } from '../fraud/fraud.module';
import { WebModule } from '../../platform/web/web.module';
import { JoinPageAssetsService } from '../referrals/join-page/join-page-assets.service';
import { BusinessJoinController } from './business-join.controller';
import { BusinessJoinPageController } from './business-join-page.controller';
import { BusinessJoinRepository } from './business-join.repository';
import { BusinessJoinService } from './business-join.service';

/** The business's own join page, `/join/<code>`, and its link for the owner (docs/product.md#business-join). */
@Module({
  imports: [WebModule, FraudModule],
  controllers: [BusinessJoinController, BusinessJoinPageController],
  providers: [BusinessJoinService, BusinessJoinRepository, JoinPageAssetsService],
})
export class BusinessJoinModule {}
