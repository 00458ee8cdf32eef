import { Module } from '@nestjs/common';
import { CaptchaModule } from '../../platform/captcha/captcha.module';
import { MailModule } from '../../platform/mail/mail.module';
import { LeadsController } from './leads.controller';
import { LeadsRepository } from './leads.repository';
import { LeadsService } from './leads.service';

/** Leads from the landing page (docs/product.md#landing-page Landing page), behind the contact form's captcha. */
@Module({
  imports: [CaptchaModule, MailModule],
  controllers: [LeadsController],
  providers: [LeadsService, LeadsRepository],
})
export class LeadsModule {}
