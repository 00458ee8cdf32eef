import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
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
