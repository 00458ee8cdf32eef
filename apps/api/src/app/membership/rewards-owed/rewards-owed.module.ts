import { Module } from '@nestjs/common';
import { RewardsOwedController } from './rewards-owed.controller';
import { RewardsOwedRepository } from './rewards-owed.repository';
import { RewardsOwedService } from './rewards-owed.service';

/**
 * The rewards owed to referrers (issue 33 item 2, docs/product.md#referrer-reward): the owner's
 * list 'Rewards to honour' (`/api/referrer-rewards`) and 'Mark honoured'; the repository is shared
 * with the Stripe member billing, which writes a one-off credit as a customer-balance credit.
 */
@Module({
  controllers: [RewardsOwedController],
  providers: [RewardsOwedService, RewardsOwedRepository],
  exports: [RewardsOwedRepository],
})
export class RewardsOwedModule {}
