import { Module } from '@nestjs/common';
import { MemberAuthModule } from './member-auth/member-auth.module';
import { MemberEmailsModule } from './member-emails/member-emails.module';
import { MemberNotificationsModule } from './member-notifications/member-notifications.module';
import { MemberPageModule } from './member-page/member-page.module';
import { ReferralNudgesModule } from './referral-nudges/referral-nudges.module';

/**
 * The member area: what a member sees and gets (the member page, magic links and member sessions, member emails incl. 'Email all links', and the notifications that listen to membership's events). Imports platform, membership and referral
 * (docs/architecture.md#api-areas).
 */
@Module({
  imports: [
    MemberAuthModule,
    MemberEmailsModule,
    MemberNotificationsModule,
    MemberPageModule,
    ReferralNudgesModule,
  ],
})
export class MemberAreaModule {}
