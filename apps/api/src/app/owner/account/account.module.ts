import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { MailModule } from '../../platform/mail/mail.module';
import { AccountController } from './account.controller';
import { AccountRepository } from './account.repository';
import { AccountService } from './account.service';

/** Account Settings: the owner's details and password (reuses the auth module's sessions; emails password changes). */
@Module({
  imports: [AuthModule, MailModule],
  controllers: [AccountController],
  providers: [AccountService, AccountRepository],
})
export class AccountModule {}
