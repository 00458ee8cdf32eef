import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { MailModule } from '../../platform/mail/mail.module';
import { OwnerBillingModule } from '../billing/billing.module';
import { AccountClosureController } from './account-closure.controller';
import { AccountClosureRepository } from './account-closure.repository';
import { AccountClosureService } from './account-closure.service';

/** Closing a business (issue 34 item 6, docs/product.md#data-rights) and its deletion job. */
@Module({
  imports: [AuthModule, MailModule, OwnerBillingModule],
  controllers: [AccountClosureController],
  providers: [AccountClosureService, AccountClosureRepository],
})
export class AccountClosureModule {}
