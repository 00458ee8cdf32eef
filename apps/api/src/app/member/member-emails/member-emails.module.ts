import { Module } from '@nestjs/common';
import { MailModule } from '../../platform/mail/mail.module';
import { MemberAuthModule } from '../member-auth/member-auth.module';
import { ReferrerRewardModule } from '../../membership/referrer-reward/referrer-reward.module';
import { MemberEmails } from './member-emails.service';
import { MemberEmailsRepository } from './member-emails.repository';
import { UnsubscribeController } from './unsubscribe.controller';
import { SendingController } from './sending.controller';

/**
 * Emails to members (issue 15): `MemberEmails.send(scope, memberId, template, data, eventKey)`,
 * their templates (`templates/`), delivery jobs and the public unsubscribe endpoints.
 */
@Module({
  imports: [MailModule, MemberAuthModule, ReferrerRewardModule],
  controllers: [UnsubscribeController, SendingController],
  providers: [MemberEmails, MemberEmailsRepository],
  exports: [MemberEmails, MemberEmailsRepository],
})
export class MemberEmailsModule {}
