import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { startHttpStub, type HttpStub } from './stub-servers';
import type { TestApp } from './test-app';

/** Environment of a test API whose altcha challenges are quick to solve (1 PBKDF2 iteration per attempt). */
export const ALTCHA_TEST_ENV = {
  ALTCHA_HMAC_KEY: 'contact-test-hmac-key-0123456789',
  ALTCHA_COST: '1',
};

/**
 * Fetches an altcha challenge from the API (`GET /api/captcha/challenge`, never cached) and solves
 * it as the altcha widget does.
 * @returns the widget's payload (base64 JSON), what a public form posts as `captcha`
 */
export async function solvedCaptcha(t: TestApp): Promise<string> {
  const reply = await t.agent().get('/api/captcha/challenge').expect(200);
  expect(reply.headers['cache-control']).toBe('no-store');
  const challenge = reply.body as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 20_000 });
  if (!solution) throw new Error('could not solve the altcha challenge');
  return Buffer.from(
    JSON.stringify({
      challenge: { parameters: challenge.parameters, signature: challenge.signature },
      solution,
    }),
  ).toString('base64');
}

/**
 * A stand-in for reCAPTCHA's or Turnstile's siteverify endpoint (both take a form with `secret`,
 * `response` and `remoteip` and answer `{ success }`): it confirms exactly the token `human-token`
 * sent with `secret`. Point RECAPTCHA_VERIFY_URL / TURNSTILE_VERIFY_URL at `url` + any path.
 */
export function startSiteverifyStub(secret: string): Promise<HttpStub> {
  return startHttpStub((request) => {
    const form = new URLSearchParams(request.body);
    const ok = form.get('secret') === secret && form.get('response') === 'human-token';
    return {
      status: 200,
      body: ok ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] },
    };
  });
}
