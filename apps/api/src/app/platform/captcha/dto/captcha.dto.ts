import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { Challenge, ChallengeParameters } from 'altcha-lib';
import type { CaptchaConfig, CaptchaProvider } from '@grove/contracts';

const CAPTCHA_PROVIDERS: CaptchaProvider[] = ['altcha', 'recaptcha', 'turnstile'];

/** `GET /api/captcha` (public): how the contact and Learn More forms render their captcha. */
@ApiSchema({ name: 'CaptchaConfig' })
export class CaptchaConfigDto implements CaptchaConfig {
  @ApiProperty({ enum: CAPTCHA_PROVIDERS, enumName: 'CaptchaProvider' })
  provider!: CaptchaProvider;

  @ApiPropertyOptional({ description: 'reCAPTCHA / Turnstile site key; absent for altcha' })
  siteKey?: string;

  @ApiPropertyOptional({ description: 'altcha: where the widget fetches a new challenge' })
  challengeUrl?: string;
}

/** The proof-of-work parameters of an altcha v2 challenge (altcha-lib's `ChallengeParameters`). */
@ApiSchema({ name: 'AltchaChallengeParameters' })
export class AltchaChallengeParametersDto implements ChallengeParameters {
  @ApiProperty({ example: 'PBKDF2/SHA-256' })
  algorithm!: string;

  @ApiProperty()
  nonce!: string;

  @ApiProperty()
  salt!: string;

  @ApiProperty({ description: 'Work factor (iterations)' })
  cost!: number;

  @ApiProperty()
  keyLength!: number;

  @ApiProperty()
  keyPrefix!: string;

  @ApiPropertyOptional()
  keySignature?: string;

  @ApiPropertyOptional()
  memoryCost?: number;

  @ApiPropertyOptional()
  parallelism?: number;

  @ApiPropertyOptional({ description: 'Unix time, seconds' })
  expiresAt?: number;
}

/** `GET /api/captcha/challenge` (public): a new altcha proof-of-work challenge (altcha-lib v2's `Challenge`), HMAC-signed. */
@ApiSchema({ name: 'AltchaChallenge' })
export class AltchaChallengeDto implements Challenge {
  @ApiProperty({ type: AltchaChallengeParametersDto })
  parameters!: AltchaChallengeParametersDto;

  @ApiPropertyOptional()
  signature?: string;
}
