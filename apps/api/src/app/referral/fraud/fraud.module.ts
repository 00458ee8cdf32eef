import { Module } from '@nestjs/common';
import { FraudSignalsService } from './fraud-signals.service';
import { MemberPageOpensRepository } from './member-page-opens.repository';

/** Fraud signals on referral joins (issue 15 part 4): the join's screening and member page openings. */
@Module({
  providers: [FraudSignalsService, MemberPageOpensRepository],
  exports: [FraudSignalsService],
})
export class FraudModule {}
