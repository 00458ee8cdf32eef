import { Injectable, Logger } from '@nestjs/common';
import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { CaptchaConfig } from '@grove/contracts';
import { AppConfig } from '../config/app-config';
import { errorMessage } from '../common/error-message';
import { CaptchaSolutionsRepository } from './captcha-solutions.repository';
import { checkImageCaptcha, createImageCaptcha, type ImageCaptcha } from './image-captcha';

/** Proof-of-work algorithm of Grove's altcha challenges (bundled in the altcha 3 widget). */
const ALTCHA_ALGORITHM = 'PBKDF2/SHA-256';

/** Where the contact page's altcha widget fetches a challenge (`GET /api/captcha/challenge`). */
export const ALTCHA_CHALLENGE_URL = '/api/captcha/challenge';

/** Longest captcha token accepted (an altcha payload is ~1 KB; reCAPTCHA tokens ~2 KB). */
const CAPTCHA_TOKEN_MAX_LENGTH = 10_000;

/** What the altcha 3 widget posts: base64 of this JSON (altcha-lib 2 "client" payload). */
interface AltchaPayload {
  challenge: Challenge;
  solution: Solution;
}

/**
 * The contact form's captcha (docs/product.md#contact-page Contact page "captcha", docs/product.md#validation-contact "captcha required"; docs/architecture.md#front-end).
 * Default: self-hosted altcha proof-of-work (altcha-lib 2.8, PBKDF2/SHA-256, HMAC-signed
 * challenges that expire after ALTCHA_EXPIRES_SECONDS). altcha verification is stateless, so
 * each accepted challenge's signature is stored in `captcha_solutions` (UNIQUE) and a second use
 * is refused. With RECAPTCHA_* or TURNSTILE_* keys, tokens are checked with Google's or
 * Cloudflare's siteverify API instead.
 */
@Injectable()
export class CaptchaService {
  private readonly logger = new Logger(CaptchaService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly solutions: CaptchaSolutionsRepository,
  ) {}

  /** `GET /api/captcha`: which widget the contact form renders, and its site key or challenge URL. */
  clientConfig(): CaptchaConfig {
    const { provider, siteKey } = this.config.captcha;
    if (provider === 'altcha') return { provider, challengeUrl: ALTCHA_CHALLENGE_URL };
    return { provider, siteKey: siteKey ?? '' };
  }

  /**
   * A fresh altcha challenge `{ parameters: { algorithm, nonce, salt, cost, keyLength, keyPrefix,
   * expiresAt (unix seconds) }, signature }` (altcha-lib `createChallenge`), signed with ALTCHA_HMAC_KEY.
   * Difficulty: key prefix '00' (≈256 attempts on average) of ALTCHA_COST PBKDF2 iterations each.
   */
  createAltchaChallenge(): Promise<Challenge> {
    const { altchaHmacKey, altchaCost, altchaExpiresSeconds } = this.config.captcha;
    return createChallenge({
      algorithm: ALTCHA_ALGORITHM,
      cost: altchaCost,
      deriveKey,
      keyPrefix: '00',
      expiresAt: Math.floor(Date.now() / 1000) + altchaExpiresSeconds,
      hmacSignatureSecret: altchaHmacKey,
    });
  }

  /**
   * True when `token` proves a human for the configured provider. Never throws.
   * - altcha: `token` is the widget's base64 JSON payload; the solution must verify (signature,
   *   expiry, derived key) and its challenge must not have been used before (it is then recorded).
   * - reCAPTCHA / Turnstile: `token` is checked with the provider's siteverify endpoint
   *   (`secret`, `response`, `remoteip`; reply `{ success }`).
   * @param remoteIp the client address (sent to siteverify; may be null)
   */
  async verify(token: string | undefined | null, remoteIp: string | null): Promise<boolean> {
    if (typeof token !== 'string' || !token || token.length > CAPTCHA_TOKEN_MAX_LENGTH)
      return false;
    if (this.config.captcha.provider === 'altcha') return this.verifyAltcha(token);
    return this.verifySiteverify(token, remoteIp);
  }

  /**
   * A code to read for the contact page's form without JavaScript (docs/decisions/contact-form-without-javascript.md):
   * svg-captcha's drawing and an HMAC-signed token (ALTCHA_HMAC_KEY) that expires after
   * ALTCHA_EXPIRES_SECONDS. Whatever provider the JavaScript form uses, this one needs none.
   */
  createImageChallenge(): ImageCaptcha {
    const { altchaHmacKey, altchaExpiresSeconds } = this.config.captcha;
    return createImageCaptcha(altchaHmacKey, altchaExpiresSeconds);
  }

  /**
   * True when `answer` is the code of the image challenge `token`, which has not expired and was
   * not answered before (recorded in `captcha_solutions`). Never throws.
   */
  async verifyImage(token: unknown, answer: unknown): Promise<boolean> {
    if (typeof token !== 'string' || typeof answer !== 'string') return false;
    const { altchaHmacKey, imageTestAnswer } = this.config.captcha;
    const checked = checkImageCaptcha(altchaHmacKey, token, answer, imageTestAnswer);
    return checked ? this.solutions.claimOnce(checked.signature, checked.expiresAt) : false;
  }

  private async verifyAltcha(token: string): Promise<boolean> {
    const payload = parseAltchaPayload(token);
    if (!payload) return false;
    try {
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: this.config.captcha.altchaHmacKey,
      });
      const expiresAt = payload.challenge.parameters.expiresAt;
      if (!result.verified || !payload.challenge.signature || !expiresAt) return false;
      return await this.solutions.claimOnce(
        payload.challenge.signature,
        new Date(expiresAt * 1000),
      );
    } catch (error) {
      // Malformed parameters that passed the shape check: a failed captcha, not a server error.
      this.logger.debug(`altcha payload refused: ${errorMessage(error)}`);
      return false;
    }
  }

  private async verifySiteverify(token: string, remoteIp: string | null): Promise<boolean> {
    const { verifyUrl, secretKey, provider } = this.config.captcha;
    if (!verifyUrl || !secretKey) return false;
    const form = new URLSearchParams({ secret: secretKey, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    try {
      const reply = await fetch(verifyUrl, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(10_000),
      });
      if (!reply.ok) {
        this.logger.warn(`${provider} siteverify answered HTTP ${reply.status}`);
        return false;
      }
      const body = (await reply.json()) as { success?: unknown };
      return body.success === true;
    } catch (error) {
      this.logger.warn(`${provider} siteverify failed: ${errorMessage(error)}`);
      return false;
    }
  }
}

/** Decodes the altcha widget's payload (base64 JSON), or null when it is not a client payload. */
function parseAltchaPayload(token: string): AltchaPayload | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(value) || !isRecord(value.challenge) || !isRecord(value.solution)) return null;
  const { parameters, signature } = value.challenge;
  if (!isRecord(parameters) || typeof signature !== 'string') return null;
  if (typeof parameters.nonce !== 'string' || typeof parameters.salt !== 'string') return null;
  if (typeof value.solution.counter !== 'number' || typeof value.solution.derivedKey !== 'string')
    return null;
  return value as unknown as AltchaPayload;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
