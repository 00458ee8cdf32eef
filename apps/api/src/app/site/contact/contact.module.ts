import { Module } from '@nestjs/common';
import { CaptchaModule } from '../../platform/captcha/captcha.module';
import { MailModule } from '../../platform/mail/mail.module';
import { ContactController } from './contact.controller';
import { ContactRepository } from './contact.repository';
import { ContactService } from './contact.service';

/** The public contact form: captcha, sanitizing, storage and the email (docs/product.md#contact-page, docs/product.md#entities, docs/product.md#validation-contact). */
@Module({
  imports: [CaptchaModule, MailModule],
  controllers: [ContactController],
  providers: [ContactService, ContactRepository],
})
export class ContactModule {}
