import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { create as drawCode } from 'svg-captcha';

/** Characters the code is drawn from: no 0/O, 1/l/I look-alikes. */
const CODE_CHARACTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Characters in a code. */
const CODE_LENGTH = 5;

/** A code to read, for a browser without JavaScript (the contact page's server-rendered form). */
export interface ImageCaptcha {
  /** The code drawn as an SVG document (paths, no text), 150×50. */
  svg: string;
  /** `<expiresAt unix seconds>.<nonce>.<HMAC>`: what the form sends back beside the typed code. */
  token: string;
}

const sign = (key: string, expiresAt: number, nonce: string, code: string): string =>
  createHmac('sha256', key)
    .update(`grove-image-captcha|${expiresAt}|${nonce}|${code.trim().toUpperCase()}`)
    .digest('base64url');

/**
 * A fresh image captcha (svg-captcha draws the code with noise lines): stateless, the code itself
 * is kept only inside the token's HMAC (key: ALTCHA_HMAC_KEY), so nothing is stored until it is
 * answered.
 * @param key the HMAC key
 * @param expiresSeconds how long it may be answered
 */
export function createImageCaptcha(key: string, expiresSeconds: number): ImageCaptcha {
  const { data, text } = drawCode({
    size: CODE_LENGTH,
    charPreset: CODE_CHARACTERS,
    noise: 2,
    color: false,
    background: '#ffffff',
    width: 150,
    height: 50,
  });
  const expiresAt = Math.floor(Date.now() / 1000) + expiresSeconds;
  const nonce = randomBytes(12).toString('base64url');
  return { svg: data, token: `${expiresAt}.${nonce}.${sign(key, expiresAt, nonce, text)}` };
}

/**
 * The token's signature and expiry when `answer` is its code (case and surrounding spaces
 * ignored), or `testAnswer` when one is configured (tests only), and it has not expired; null
 * otherwise (never throws). The caller makes sure a signature is accepted once
 * (`captcha_solutions`).
 */
export function checkImageCaptcha(
  key: string,
  token: string,
  answer: string,
  testAnswer: string | null = null,
): { signature: string; expiresAt: Date } | null {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{8,64})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match || !answer.trim() || answer.length > 32) return null;
  const [, expiresText, nonce, signature] = match;
  const expiresAt = Number(expiresText);
  if (expiresAt * 1000 <= Date.now()) return null;
  const accepted = { signature: `image:${signature}`, expiresAt: new Date(expiresAt * 1000) };
  if (testAnswer !== null && answer === testAnswer) return accepted;
  const expected = Buffer.from(sign(key, expiresAt, nonce, answer));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return accepted;
}
