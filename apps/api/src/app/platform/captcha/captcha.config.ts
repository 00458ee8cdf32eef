import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { IsOptional, IsString, MinLength } from 'class-validator';
import { EnvInt, EnvUrl } from '../common/config/env-section';

/** The captcha environment variables (docs/architecture.md#front-end: altcha unless reCAPTCHA/Turnstile keys are set). */
export class CaptchaEnv {
  /**
   * Secret. Signs altcha challenges (HMAC). Required in production unless reCAPTCHA/Turnstile is
   * configured (≥ 32 characters, not well known: `productionSecretProblems`); a random
   * per-process key otherwise.
   */
  @IsString()
  @MinLength(16)
  @IsOptional()
  ALTCHA_HMAC_KEY?: string;

  /** PBKDF2 iterations per altcha attempt (the widget needs ~256 attempts on average). */
  @EnvInt(1, 1_000_000)
  ALTCHA_COST = 5000;

  /** Seconds an altcha challenge stays solvable. */
  @EnvInt(10, 3600)
  ALTCHA_EXPIRES_SECONDS = 300;

  /**
   * Tests only: an answer every image captcha (the contact form without JavaScript) also accepts,
   * since a test cannot read the drawing (the journeys run Grove as `npm start` does, in
   * production mode). Never set it on a real deployment: the start-up log warns whenever it is set.
   */
  @IsString()
  @MinLength(8)
  @IsOptional()
  CAPTCHA_IMAGE_TEST_ANSWER?: string;

  @IsString()
  @IsOptional()
  RECAPTCHA_SITE_KEY?: string;

  /** Secret. */
  @IsString()
  @IsOptional()
  RECAPTCHA_SECRET_KEY?: string;

  /** reCAPTCHA siteverify endpoint (overridable for tests). */
  @EnvUrl()
  RECAPTCHA_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

  @IsString()
  @IsOptional()
  TURNSTILE_SITE_KEY?: string;

  /** Secret. */
  @IsString()
  @IsOptional()
  TURNSTILE_SECRET_KEY?: string;

  /** Turnstile siteverify endpoint (overridable for tests). */
  @EnvUrl()
  TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
}

/** Captcha settings (docs/product.md#contact-page Contact page; docs/architecture.md#front-end: altcha unless reCAPTCHA/Turnstile keys are set). */
export interface CaptchaSettings {
  provider: 'altcha' | 'recaptcha' | 'turnstile';
  /** HMAC secret that signs altcha challenges. */
  altchaHmacKey: string;
  /** PBKDF2 iterations per altcha attempt. */
  altchaCost: number;
  /** Seconds an altcha challenge (and an image captcha) stays valid. */
  altchaExpiresSeconds: number;
  /** Tests only: an answer every image captcha also accepts (CAPTCHA_IMAGE_TEST_ANSWER). */
  imageTestAnswer: string | null;
  /** reCAPTCHA / Turnstile site key, secret and siteverify URL (null for altcha). */
  siteKey: string | null;
  secretKey: string | null;
  verifyUrl: string | null;
}

/** True when reCAPTCHA or Turnstile has both its keys (then the altcha key is not needed). */
export function hasOtherCaptcha(vars: CaptchaEnv): boolean {
  return Boolean(
    (vars.RECAPTCHA_SITE_KEY && vars.RECAPTCHA_SECRET_KEY) ||
    (vars.TURNSTILE_SITE_KEY && vars.TURNSTILE_SECRET_KEY),
  );
}

/**
 * `AppConfig.captcha`: reCAPTCHA when both RECAPTCHA_* keys are set, else Turnstile when both
 * TURNSTILE_* keys are set, else altcha (docs/architecture.md#front-end). Production requires
 * ALTCHA_HMAC_KEY for altcha (`assertProductionSecrets` runs first); elsewhere a random
 * per-process key stands in.
 * @param warn true: say so in the log when a random per-process altcha key stands in
 */
export function readCaptchaConfig(vars: CaptchaEnv, warn: boolean): { captcha: CaptchaSettings } {
  let altchaHmacKey = vars.ALTCHA_HMAC_KEY;
  if (!altchaHmacKey) {
    altchaHmacKey = randomBytes(32).toString('base64url');
    if (warn && !hasOtherCaptcha(vars)) {
      Logger.warn(
        'ALTCHA_HMAC_KEY is not set: using a random per-process key (challenges end on restart)',
        'AppConfig',
      );
    }
  }
  if (warn && vars.CAPTCHA_IMAGE_TEST_ANSWER)
    Logger.warn(
      'CAPTCHA_IMAGE_TEST_ANSWER is set: the contact form without JavaScript accepts it for any code (tests only)',
      'AppConfig',
    );
  const altcha = {
    altchaHmacKey,
    altchaCost: vars.ALTCHA_COST,
    altchaExpiresSeconds: vars.ALTCHA_EXPIRES_SECONDS,
    imageTestAnswer: vars.CAPTCHA_IMAGE_TEST_ANSWER ?? null,
  };
  const others = [
    ['recaptcha', vars.RECAPTCHA_SITE_KEY, vars.RECAPTCHA_SECRET_KEY, vars.RECAPTCHA_VERIFY_URL],
    ['turnstile', vars.TURNSTILE_SITE_KEY, vars.TURNSTILE_SECRET_KEY, vars.TURNSTILE_VERIFY_URL],
  ] as const;
  for (const [provider, siteKey, secretKey, verifyUrl] of others) {
    if (siteKey && secretKey) {
      return { captcha: { provider, ...altcha, siteKey, secretKey, verifyUrl } };
    }
  }
  return {
    captcha: { provider: 'altcha', ...altcha, siteKey: null, secretKey: null, verifyUrl: null },
  };
}
