import { Module } from '@nestjs/common';
import { LifecycleModule } from '../lifecycle/lifecycle.module';
import { ReferrerRewardController } from './referrer-reward.controller';
import { ReferrerRewardRepository } from './referrer-reward.repository';
import { ReferrerRewardService } from './referrer-reward.service';

/**
 * The referrer's reward and its cap (issue 33 item 2, docs/product.md#referrer-reward): the
 * setting (`/api/settings/referrer-reward`) and its price rule for other modules
 * (`ReferrerRewardService.priceRule`).
 */
@Module({
  imports: [LifecycleModule],
  controllers: [ReferrerRewardController],
  providers: [ReferrerRewardService, ReferrerRewardRepository],
  exports: [ReferrerRewardService],
})
export class ReferrerRewardModule {}
