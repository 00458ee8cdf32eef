import { Module } from '@nestjs/common';
import { ReferralsModule } from './referrals/referrals.module';
import { LinksForEveryoneModule } from './links-for-everyone/links-for-everyone.module';
import { ProspectsModule } from './prospects/prospects.module';
import { FraudModule } from './fraud/fraud.module';
import { WelcomeOfferModule } from './welcome-offer/welcome-offer.module';
import { BusinessJoinModule } from './business-join/business-join.module';

/**
 * The referral area: referral links and the join page, links for everyone, prospective members, fraud signals, the friend's welcome offer and the business's own join page. Imports platform and membership
 * (docs/architecture.md#api-areas).
 */
@Module({
  imports: [
    ReferralsModule,
    LinksForEveryoneModule,
    ProspectsModule,
    FraudModule,
    WelcomeOfferModule,
    BusinessJoinModule,
  ],
})
export class ReferralModule {}
