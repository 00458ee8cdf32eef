import { Module } from '@nestjs/common';
import { CaptchaController } from './captcha.controller';
import { CaptchaSolutionsRepository } from './captcha-solutions.repository';
import { CaptchaService } from './captcha.service';

/** altcha (default), reCAPTCHA or Turnstile for the public forms (docs/architecture.md#front-end). */
@Module({
  controllers: [CaptchaController],
  providers: [CaptchaService, CaptchaSolutionsRepository],
  exports: [CaptchaService],
})
export class CaptchaModule {}
