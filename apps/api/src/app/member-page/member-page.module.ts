import { Module } from '@nestjs/common';
import { FraudModule } from '../fraud/fraud.module';
import { MemberAuthModule } from '../member-auth/member-auth.module';
import { MemberEmailsModule } from '../member-emails/member-emails.module';
import { ThrottleStoreModule } from '../throttle/throttle-store';
import { LinkRequestThrottle } from './link-request-throttle';
import { MemberPageController } from './member-page.controller';
import { MemberPageRepository } from './member-page.repository';
import { MemberPageService } from './member-page.service';
import { ReferralEmailsController } from './referral-emails.controller';
import { ReferralEmailsService } from './referral-emails.service';

/** The member page API and "Your referral link" (issue 15). */
@Module({
  imports: [MemberAuthModule, MemberEmailsModule, ThrottleStoreModule, FraudModule],
  controllers: [MemberPageController, ReferralEmailsController],
  providers: [MemberPageService, MemberPageRepository, LinkRequestThrottle, ReferralEmailsService],
})
export class MemberPageModule {}
