import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/public.decorator';
import { CaptchaService } from './captcha.service';
import { AltchaChallengeDto, CaptchaConfigDto } from './dto/captcha.dto';

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
  @ApiOkResponse({ type: CaptchaConfigDto })
  @ApiOperation({ summary: 'Which captcha the contact form shows' })
  config(): CaptchaConfigDto {
    return this.captcha.clientConfig();
  }

  /**
   * → 200 a fresh altcha challenge (altcha-lib 2 `{ parameters, signature }`), never cached.
   * The altcha widget fetches it, solves it and posts the base64 payload as the form's `captcha`.
   */
  @Get('challenge')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: AltchaChallengeDto })
  @ApiOperation({ summary: 'A new altcha proof-of-work challenge' })
  challenge(): Promise<AltchaChallengeDto> {
    return this.captcha.createAltchaChallenge();
  }
}
