import { Module } from '@nestjs/common';
import { CaptchaModule } from '../../platform/captcha/captcha.module';
import { MailModule } from '../../platform/mail/mail.module';
import { WebModule } from '../../platform/web/web.module';
import { ContactPageController } from './contact-page.controller';
import { ContactController } from './contact.controller';
import { ContactRepository } from './contact.repository';
import { ContactService } from './contact.service';

/** The public contact form (JSON, and the page's plain HTML form without JavaScript): captcha, sanitizing, storage and the email (docs/product.md#contact-page, docs/product.md#entities, docs/product.md#validation-contact). */
@Module({
  imports: [CaptchaModule, MailModule, WebModule],
  controllers: [ContactController, ContactPageController],
  providers: [ContactService, ContactRepository],
})
export class ContactModule {}
