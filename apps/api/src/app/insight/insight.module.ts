import { Module } from '@nestjs/common';
import { AnalyticsModule } from './analytics/analytics.module';
import { MemberProfileModule } from './member-profile/member-profile.module';

/**
 * The insight area: Analytics and the member profile. Imports platform, membership and referral
 * (docs/architecture.md#api-areas).
 */
@Module({
  imports: [AnalyticsModule, MemberProfileModule],
})
export class InsightModule {}
