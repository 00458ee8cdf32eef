import { Module } from '@nestjs/common';
import { FraudModule } from '../../referral/fraud/fraud.module';
import { MemberAuthModule } from '../member-auth/member-auth.module';
import { MemberEmailsModule } from '../member-emails/member-emails.module';
import { WebModule } from '../../platform/web/web.module';
import { ThrottleStoreModule } from '../../platform/throttle/throttle-store';
import { ReferrerRewardModule } from '../../membership/referrer-reward/referrer-reward.module';
import { LinkRequestThrottle } from './link-request-throttle';
import { MemberPageController } from './member-page.controller';
import { MemberPageAssetsService, MemberPageHtmlController } from './member-page-html.controller';
import { MemberPageRepository } from './member-page.repository';
import { MemberPageService } from './member-page.service';
import { MemberNextCharges } from './member-next-charges';
import { ReferralEmailsController } from './referral-emails.controller';
import { ReferralEmailsService } from './referral-emails.service';
import { ShareMessageController } from './share-message.controller';
import { ShareMessageRepository } from './share-message.repository';

/**
 * The member page API, "Your referral link" (issue 15) and the share message members send (issue 33).
 * Exports `MemberNextCharges`, where a billing integration registers the page's upcoming charge.
 */
@Module({
  imports: [
    WebModule,
    MemberAuthModule,
    MemberEmailsModule,
    ThrottleStoreModule,
    FraudModule,
    ReferrerRewardModule,
  ],
  controllers: [
    MemberPageController,
    ReferralEmailsController,
    MemberPageHtmlController,
    ShareMessageController,
  ],
  providers: [
    MemberPageAssetsService,
    MemberPageService,
    MemberPageRepository,
    LinkRequestThrottle,
    ReferralEmailsService,
    ShareMessageRepository,
    MemberNextCharges,
  ],
  exports: [MemberNextCharges],
})
export class MemberPageModule {}
