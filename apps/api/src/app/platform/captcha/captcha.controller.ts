import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Challenge } from 'altcha-lib';
import type { CaptchaConfig } from '@grove/contracts';
import { Public } from '../common/public.decorator';
import { CaptchaService } from './captcha.service';

/** The contact form's captcha (docs/product.md#contact-page Contact page; docs/architecture.md#front-end). Public. */
@ApiTags('captcha')
@Public()
@Controller('captcha')
export class CaptchaController {
  constructor(private readonly captcha: CaptchaService) {}

  /**
   * → 200 CaptchaConfig: `{ provider: 'altcha', challengeUrl: '/api/captcha/challenge' }` by
   * default; `{ provider: 'recaptcha' | 'turnstile', siteKey }` when their keys are configured.
   */
  @Get()
  @ApiOperation({ summary: 'Which captcha the contact form shows' })
  config(): CaptchaConfig {
    return this.captcha.clientConfig();
  }

  /**
   * → 200 a fresh altcha challenge (altcha-lib 2 `{ parameters, signature }`), never cached.
   * The altcha widget fetches it, solves it and posts the base64 payload as the form's `captcha`.
   */
  @Get('challenge')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'A new altcha proof-of-work challenge' })
  challenge(): Promise<Challenge> {
    return this.captcha.createAltchaChallenge();
  }
}
