import { Module } from '@nestjs/common';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsRepository } from './analytics.repository';
import { AnalyticsService } from './analytics.service';
import { WelcomeOfferModule } from '../../referral/welcome-offer/welcome-offer.module';

/** The analytics screen's API (issue 14): funnel, top referrers, money (with the welcome offers' cost) and retention, read-only. */
@Module({
  imports: [WelcomeOfferModule],
  controllers: [AnalyticsController],
  providers: [AnalyticsService, AnalyticsRepository],
})
export class AnalyticsModule {}
