import { Module } from '@nestjs/common';
import { CaptchaController } from './captcha.controller';
import { CaptchaService } from './captcha.service';

/** altcha (default), reCAPTCHA or Turnstile for the public forms (DESIGN §5). */
@Module({ controllers: [CaptchaController], providers: [CaptchaService], exports: [CaptchaService] })
export class CaptchaModule {}
