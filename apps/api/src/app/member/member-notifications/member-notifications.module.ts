import { Module } from '@nestjs/common';
import { MemberEmailsModule } from '../member-emails/member-emails.module';
import { MemberEmailSettingsRepository } from './member-email-settings.repository';
import { MemberNotificationsController } from './member-notifications.controller';
import { MemberNotifications } from './member-notifications.service';

/** Event emails to members and the owner's choice of them (issue 15 part 2). */
@Module({
  imports: [MemberEmailsModule],
  controllers: [MemberNotificationsController],
  providers: [MemberNotifications, MemberEmailSettingsRepository],
  exports: [MemberNotifications],
})
export class MemberNotificationsModule {}
